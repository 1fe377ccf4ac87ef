// A family's input as named groups of numbers, in order: the one place a
// family's keys, their sizes and what they are live. Offsets are derived from
// it (Layout::at, at compile time), never written: the references' bodies,
// the fast oracles and the family's description (check/families/FAMILY.cpp)
// all read them from the family's layout, declared in its reference header
// (isect/ref/FAMILY.hpp). Case files write the keys; plugins take the groups
// in this order (isect/plugin.h).
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string_view>

namespace isect::ref {

/// What a group of input numbers is, geometrically: how it moves when the
/// whole input is mirrored, its axes permuted, scaled by 2^k or translated
/// (the symmetry properties and the generators' shared transforms).
enum class Role {
    point,      ///< points (x y z, repeated): every transform
    polygon,    ///< points in order (a triangle, a polygon): also vertex rotation and reversal
    box_lo,     ///< a box's low corner; mirroring swaps it with the key NAME.hi
    box_hi,
    vector,     ///< a displacement (a segment's delta, a motion, a translation): permuted, mirrored, scaled, never translated
    direction,  ///< a ray's direction, t unbounded: transformed as a vector
    normal,     ///< a plane's normal: permuted and mirrored only
    offset,     ///< a plane's offset: scaled only (a family with one is not translated)
    length,     ///< a radius: scaled only
    parameter,  ///< a ray's tmax: never changes
    matrix,     ///< a 3x3 linear map, row-major: P m P^T, S m S (a family with one is not translated)
};

/// How a band (tolerant=K) moves a key of this role: with the positions,
/// by K u M (M the largest magnitude among the keys that move this way), or
/// by K u times the key's own largest magnitude (a direction, a normal, an
/// axis, a matrix row, a plane's offset, a parameter such as tmax). The one
/// rule; check/model/family.cpp's band_deltas applies it, and the bands of
/// reference/fast/ read each number's movement from what it gives them.
constexpr bool moves_with_positions(Role r) {
    return r == Role::point || r == Role::polygon || r == Role::box_lo || r == Role::box_hi || r == Role::vector ||
           r == Role::length;
}

/// One named group of input numbers, as a case file writes it ("box.lo" 3).
struct Key {
    std::string_view name;
    int count = 0;
    Role role = Role::point;
};

/// A family's input: its keys in order.
template <size_t N> struct Layout {
    std::array<Key, N> keys;

    /// The offset of a key's first number. In a constant expression an
    /// unknown key does not compile; at run time it throws.
    constexpr size_t at(std::string_view name) const {
        size_t n = 0;
        for (const Key& k : keys) {
            if (k.name == name) return n;
            n += size_t(k.count);
        }
        throw std::out_of_range("no such key in the layout");
    }
    /// How many numbers a key has. Unknown keys as for at().
    constexpr int count(std::string_view name) const {
        for (const Key& k : keys)
            if (k.name == name) return k.count;
        throw std::out_of_range("no such key in the layout");
    }
    /// How many numbers the input has.
    constexpr size_t size() const {
        size_t n = 0;
        for (const Key& k : keys) n += size_t(k.count);
        return n;
    }
};

/// Whether every key of a layout moves with the positions: a band of such a
/// family moves every number by the same delta.
template <size_t N> constexpr bool positions_only(const Layout<N>& l) {
    for (const Key& k : l.keys)
        if (!moves_with_positions(k.role)) return false;
    return true;
}

/// Deduces N from the keys: Layout{{Key{...}, ...}} without counting them.
template <class... K> constexpr Layout<sizeof...(K)> layout(const K&... keys) { return {{keys...}}; }

}  // namespace isect::ref
