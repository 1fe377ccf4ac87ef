// First-order enclosures for the bands: a polynomial of the inputs carried
// with its value at the input, its range over the delta-box, and its
// partials over the box (forward differentiation on Bounds). Its enclosure
// over the box is the narrower of the range and the mean-value form
// g(x) + sum_i g_i(box) [-delta_i, delta_i]: sound by the mean value
// theorem, and within the partials' variation over the box of the exact
// range, so a band written with it is tight to first order wherever the
// answer turns on one predicate (docs/contracts.md).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "policies.hpp"

namespace isect::ref::fast::detail {

template <class Ops, size_t N> struct Slope {
    using B = Bounds<Ops>;
    using NT = typename Ops::NT;
    static_assert(N <= 64, "one bit per input number");
    B at;                 ///< the value at the input itself
    B box;                ///< its range over the box
    std::array<B, N> d;   ///< its partials over the box, by input number
    uint64_t moves = 0;   ///< the inputs it depends on: its other partials are 0 (never computed)

    static B point(const NT& x) { return {x, x}; }

    /// A number that does not move.
    static Slope constant(double x) {
        Slope s;
        s.at = s.box = point(Ops::of(x));
        return s;
    }
    /// Input number i, x, moving by delta.
    static Slope input(double x, double delta, size_t i) {
        Slope s = constant(x);
        s.box = {Ops::of(x) - Ops::of(delta), Ops::of(x) + Ops::of(delta)};
        s.d[i] = point(Ops::of(1.0));
        s.moves = uint64_t(1) << i;
        return s;
    }
    /// Input numbers at..at+2, a point, each moving by its own delta.
    static std::array<Slope, 3> input_point(const double* in, const double* delta, size_t at) {
        return {input(in[at], delta[at], at), input(in[at + 1], delta[at + 1], at + 1), input(in[at + 2], delta[at + 2], at + 2)};
    }

    friend Slope operator+(const Slope& a, const Slope& b) {
        Slope s;
        s.at = a.at + b.at;
        s.box = a.box + b.box;
        s.moves = a.moves | b.moves;
        for (uint64_t m = s.moves; m; m &= m - 1) {
            const size_t i = size_t(__builtin_ctzll(m));
            s.d[i] = a.has(i) ? (b.has(i) ? a.d[i] + b.d[i] : a.d[i]) : b.d[i];
        }
        return s;
    }
    friend Slope operator-(const Slope& a) {
        Slope s;
        s.at = -a.at;
        s.box = -a.box;
        s.moves = a.moves;
        for (uint64_t m = s.moves; m; m &= m - 1) {
            const size_t i = size_t(__builtin_ctzll(m));
            s.d[i] = -a.d[i];
        }
        return s;
    }
    friend Slope operator-(const Slope& a, const Slope& b) { return a + -b; }
    /// (ab)' = a' b + a b', each factor over the box.
    friend Slope operator*(const Slope& a, const Slope& b) {
        Slope s;
        s.at = a.at * b.at;
        s.box = a.box * b.box;
        s.moves = a.moves | b.moves;
        if (&a == &b) {
            // A square (each dot(v, v)): (a^2)' = 2 a' a, the same interval
            // as a' a + a a' with one product instead of two.
            for (uint64_t m = s.moves; m; m &= m - 1) {
                const size_t i = size_t(__builtin_ctzll(m));
                const B p = a.d[i] * a.box;
                s.d[i] = p + p;
            }
            return s;
        }
        for (uint64_t m = s.moves; m; m &= m - 1) {
            const size_t i = size_t(__builtin_ctzll(m));
            if (a.has(i) && b.has(i)) s.d[i] = a.d[i] * b.box + a.box * b.d[i];
            else if (a.has(i)) s.d[i] = a.d[i] * b.box;
            else s.d[i] = a.box * b.d[i];
        }
        return s;
    }
    bool has(size_t i) const { return moves >> i & 1; }

    /// max |x| over an enclosure.
    static NT magnitude(const B& x) {
        const NT p[4] = {x.hi, -x.lo, x.hi, -x.lo};
        return Ops::greatest(p);
    }
    /// The value's enclosure over the box.
    B over(const double* delta) const {
        NT reach = Ops::of(0.0);
        for (uint64_t m = moves; m; m &= m - 1) {
            const size_t i = size_t(__builtin_ctzll(m));
            if (delta[i] != 0) reach = reach + magnitude(d[i]) * Ops::of(delta[i]);
        }
        const NT lo[4] = {box.lo, at.lo - reach, box.lo, at.lo - reach}, hi[4] = {box.hi, at.hi + reach, box.hi, at.hi + reach};
        return {Ops::greatest(lo), Ops::least(hi)};
    }
};

/// The sign pattern (one per input number) that moves g up (or down) the
/// fastest to first order: each number the way of its partial's middle. For
/// a band's directions, on plain double.
template <size_t N> Direction steepest(const Slope<DoubleOps, N>& g, bool up) {
    Direction s(N, 0);
    for (size_t i = 0; i < N; ++i) {
        if (!g.has(i)) continue;
        const double m = 0.5 * (g.d[i].lo + g.d[i].hi);
        s[i] = m == 0 ? 0 : (m > 0) == up ? 1 : -1;
    }
    return s;
}
/// The pattern that moves g towards 0 (nothing where it is 0).
template <size_t N> void towards_zero(const Slope<DoubleOps, N>& g, Directions& out) {
    if (g.at.lo != 0) out.push_back(steepest(g, g.at.lo < 0));
}

}  // namespace isect::ref::fast::detail
