// Pieces the family files share: reading primitives out of a flat input,
// domain messages, how a value's error is measured, and the fast oracle's
// and the bands' results as the description takes them. Private to check/.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "check/model/family.hpp"
#include "check/model/mesh.hpp"
#include "check/model/source.hpp"
#include "isect/primitives.hpp"
#include "isect/ref/exact.hpp"
#include "isect/ref/fast.hpp"

namespace isect::check::detail {

using ref::Rational;

// The input's primitives as they are (doubles: exact, whatever the
// precision), for the references and the judges.
inline Vec3d vec_at(const double* p) { return {p[0], p[1], p[2]}; }
inline AabbD box_at(const double* p) { return {vec_at(p), vec_at(p + 3)}; }
inline TriangleD tri_at(const double* p) { return {{vec_at(p), vec_at(p + 3), vec_at(p + 6)}}; }

// The same as a kernel of scalar T takes them: in a float run every input
// is a float, so nothing rounds (the engine never hands a float kernel a
// double run's input). vec_f and the like are the float spelling.
template <class T> std::array<T, 3> vec_as(const double* p) { return {T(p[0]), T(p[1]), T(p[2])}; }
template <class T> BasicAabb<T> box_as(const double* p) { return {vec_as<T>(p), vec_as<T>(p + 3)}; }
template <class T> BasicTriangle<T> tri_as(const double* p) { return {{vec_as<T>(p), vec_as<T>(p + 3), vec_as<T>(p + 6)}}; }
inline Vec3f vec_f(const double* p) { return vec_as<float>(p); }
inline Aabb box_f(const double* p) { return box_as<float>(p); }
inline Triangle tri_f(const double* p) { return tri_as<float>(p); }

// --- A user's mesh (--mesh) -------------------------------------------------------

/// Mesh m's vertex i, and its triangle t.
inline Vec3f mesh_vertex(const Mesh& m, uint32_t i) { return {m.vertices[i][0], m.vertices[i][1], m.vertices[i][2]}; }
inline Triangle mesh_triangle(const Mesh& m, uint32_t t) {
    return {{mesh_vertex(m, m.triangles[t][0]), mesh_vertex(m, m.triangles[t][1]), mesh_vertex(m, m.triangles[t][2])}};
}
/// One of m's triangles, and one of its shared edges (m has one).
inline uint32_t any_triangle(const Mesh& m, Source& s) { return uint32_t(s.below(m.triangles.size())); }
inline const Mesh::Shared& any_shared(const Mesh& m, Source& s) { return m.shared[size_t(s.below(m.shared.size()))]; }
/// The mesh's largest extent along an axis (1 for a mesh of one point).
inline float mesh_extent(const Mesh& m) {
    const float e = std::max({m.hi[0] - m.lo[0], m.hi[1] - m.lo[1], m.hi[2] - m.lo[2]});
    return e > 0 ? e : 1.0f;
}

/// The precision of a kernel of scalar T.
template <class T> constexpr Precision precision_of() {
    return sizeof(T) == sizeof(float) ? Precision::single : Precision::double_;
}

/// A generated input as floats, for constructions that work in float
/// arithmetic (they build float inputs; the run may then widen them).
inline std::vector<float> as_floats(const Inputs& in) { return {in.begin(), in.end()}; }

/// For a domain test (Family::in_domain): false, and the reason where one
/// is asked for, built only then.
template <class Message> bool refuse(std::string* why, const Message& message) {
    if (why) *why = message();
    return false;
}

/// Whether every input is finite; else the first non-finite one, named by
/// its key, is the reason.
inline bool all_finite(const Family& f, const double* in, std::string* why) {
    const size_t n = f.size();
    size_t i = 0;
    while (i < n && std::isfinite(in[i])) ++i;
    if (i == n) return true;
    return refuse(why, [&] {
        size_t at = 0;
        for (const InputKey& k : f.inputs) {
            if (i < at + size_t(k.count))
                return k.key + ": '" + format_number(in[i]) + "' is outside the domain of " + f.name + " (finite values only)";
            at += size_t(k.count);
        }
        return std::string();
    });
}

/// The name of the key whose numbers start at offset `at`.
inline const std::string& key_at(const Family& f, size_t at) {
    size_t n = 0;
    for (const InputKey& k : f.inputs) {
        if (n == at) return k.key;
        n += size_t(k.count);
    }
    throw std::out_of_range(f.name + " has no key at offset " + std::to_string(at));
}

/// Whether the box with corners at offsets lo and hi (the layout's, at
/// compile time) has lo <= hi on every axis.
inline bool box_ordered(const Family& f, size_t lo, size_t hi, const double* in, std::string* why) {
    for (int i = 0; i < 3; ++i)
        if (in[lo + i] > in[hi + i])
            return refuse(why, [&] {
                return key_at(f, hi) + ": '" + format_number(in[hi + i]) + "' is below " + key_at(f, lo) + " '" +
                       format_number(in[lo + i]) + "' on axis " + "xyz"[i] + " (lo <= hi required)";
            });
    return true;
}

/// Whether the three numbers at `at` are not all zero (a plane's normal, a
/// line's direction); else `message` is the reason.
inline bool nonzero3(const double* in, size_t at, std::string* why, const char* message) {
    if (in[at] != 0 || in[at + 1] != 0 || in[at + 2] != 0) return true;
    return refuse(why, [&] { return std::string(message); });
}

/// Error of one output in units of u S (u = 2^-24 or 2^-53); NaN output or
/// a NaN scale is +inf. S = 0 (an exact output) makes any difference +inf.
/// S = +inf (an output that no computation in the precision can get right,
/// such as a circumcentre of a sliver whose normal is below rounding) lets
/// any value but NaN pass. Any other S is at least the least normal number:
/// an exact value below the range (an area of 1e-77 in float) may come back
/// as 0 or a subnormal.
inline double units(double got, double exact, double scale) {
    if (got == exact) return 0;
    // The exact value correctly rounded to the precision is right whatever
    // its scale: beyond the float range that is inf (a t of 7.1e44 comes
    // back from a float kernel as inf, as IEEE overflow rounds it).
    if (std::isinf(got) && to_precision(exact) == got) return 0;
    if (std::isnan(got)) return std::numeric_limits<double>::infinity();
    if (std::isinf(scale) && scale > 0) return 0;
    const double diff = std::fabs(got - exact);
    if (diff == 0) return 0;
    if (!(scale > 0)) return std::numeric_limits<double>::infinity();
    // diff / (u S), in two steps: u S underflows for S near 2^-1022.
    return diff / std::max(scale, least_normal()) / unit_roundoff();
}

/// Keeps the worst output.
inline void worst(ValueError& e, double units_, std::string_view output) {
    if (units_ > e.e || std::isnan(units_)) {
        e.e = std::isnan(units_) ? std::numeric_limits<double>::infinity() : units_;
        e.output = output;
    }
}

using isect::cross;
using isect::dot;
using isect::sub;

/// A fast oracle's result as the engine takes it.
inline std::optional<FastTruth> from_fast(const std::optional<ref::fast::Result>& r) {
    if (!r) return std::nullopt;
    FastTruth t;
    t.answer = r->answer;
    for (int i = 0; i < r->count; ++i) {
        t.lo.push_back(r->lo[i]);
        t.hi.push_back(r->hi[i]);
    }
    return t;
}

/// A planted wrong oracle's result as the engine takes it.
inline FastTruth from_wrong(const ref::fast::Result& r) { return *from_fast(r); }

/// The one enclosure test: "" when lo <= x <= hi exactly, else why, naming
/// x as `text`. x is known by its comparison with a double: sign(x - t),
/// for any t but NaN (an end may be infinite: an interval that left the
/// double range on double inputs; a NaN end encloses nothing).
template <class Compare>
std::string enclosure_breach(std::string_view name, double lo, double hi, const std::string& text, const Compare& compare) {
    if (std::isnan(lo) || std::isnan(hi) || compare(lo) < 0 || compare(hi) > 0)
        return std::string(name) + " = " + text + " is outside the enclosure [" + format_double(lo) + ", " + format_double(hi) + "]";
    return {};
}

/// An exact number x.
inline std::string check_enclosure(std::string_view name, double lo, double hi, const ref::Rational& x) {
    return enclosure_breach(name, lo, hi, x.str(), [&x](double t) {
        if (std::isinf(t)) return t > 0 ? -1 : 1;
        const Rational r(t);
        return x < r ? -1 : (x > r ? 1 : 0);
    });
}

/// The numbers exact[0..n) (the references' nearest doubles: an enclosure
/// of doubles holds an exact value only if it holds its rounding, so the
/// test is exact), each in its own enclosure; the first outside is named.
inline std::string check_rounded_enclosures(const Family& f, const FastTruth& fast, const double* exact, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        const double x = exact[i];
        std::string why = enclosure_breach(f.outputs[i], fast.lo[i], fast.hi[i], format_double(x),
                                           [x](double t) { return std::isnan(x) ? 2 : x < t ? -1 : (x > t ? 1 : 0); });
        if (!why.empty()) return why;
    }
    return {};
}

/// s sqrt(x2) (x2 >= 0, s in {-1, 0, 1}), compared through squares.
inline std::string check_root_enclosure(std::string_view name, double lo, double hi, int s, const ref::Rational& x2) {
    return enclosure_breach(name, lo, hi, std::string(s < 0 ? "-" : "") + "sqrt(" + x2.str() + ")", [s, &x2](double t) {
        if (std::isinf(t)) return t > 0 ? -1 : 1;
        if (s == 0 || x2 == 0) return t > 0 ? -1 : (t < 0 ? 1 : 0);
        const Rational tt(t), t2 = tt * tt;
        if (s > 0) return t < 0 ? 1 : (x2 > t2 ? 1 : (x2 < t2 ? -1 : 0));
        return t > 0 ? -1 : (x2 > t2 ? -1 : (x2 < t2 ? 1 : 0));
    });
}

/// "" when the fast answer is the exact one, else why.
inline std::string check_answer(const Family& f, const FastTruth& fast, int exact) {
    if (fast.answer == exact) return {};
    return "the oracle says " + f.answers[size_t(fast.answer)] + ", the rational reference " + f.answers[size_t(exact)];
}

/// A band written once in reference/fast/ (its exact, fast and wrong
/// instantiations) as the description holds it.
inline Family::Band band_of(const ref::fast::Band& b) {
    Family::Band out{b.exact, b.fast, b.wrong, nullptr};
    if (b.directions) out.directions = b.directions;
    return out;
}

/// A band written on a polygon's vertices in order (interval bounds from a
/// vertex a, Cramer's rule on b - a, c - a) is a superset whose width
/// depends on which vertex is a. Asked of every order of the triangles at
/// `tris` (offsets of keys of nine numbers: each rotation, either way round)
/// and answering in band where any does, it is still a superset, and the
/// same for every vertex order.
/// The first rotation decides most answers (they are in band), so the
/// others cost only where one is not. Every position moves by one delta in
/// these families, so the deltas need no rotating. size: the input's (at
/// most 64 numbers). A band whose answer turns on the winding (cull_back: a
/// reversed triangle faces the other way) is asked of its rotations only
/// (`reversals` false): a reversed order's band is another input's.
inline Family::Band rotation_symmetric(const ref::fast::Band& b, size_t size, std::vector<size_t> tris,
                                       bool reversals = true) {
    // Each order of every triangle at once: 3 rotations, either way round
    // where the winding does not matter, per triangle.
    const size_t orders = reversals ? 6 : 3;
    const auto rotations = [tris, orders](const double* in, size_t n, size_t combo, double* out) {
        std::copy(in, in + n, out);
        for (size_t t = 0; t < tris.size(); ++t, combo /= orders) {
            const size_t r = combo % 3;
            const bool back = orders == 6 && combo % 6 >= 3;
            for (size_t k = 0; k < 3; ++k) {
                const size_t from = back ? (3 + r - k) % 3 : (k + r) % 3;
                for (size_t i = 0; i < 3; ++i) out[tris[t] + 3 * k + i] = in[tris[t] + 3 * from + i];
            }
        }
    };
    size_t combos = 1;
    for (size_t t = 0; t < tris.size(); ++t) combos *= orders;
    Family::Band out;
    const auto any = [rotations, combos, size](auto band) {
        return [rotations, combos, size, band](const double* in, int exact_answer, const double* delta) {
            double moved[64];
            for (size_t c = 0; c < combos; ++c) {
                rotations(in, size, c, moved);
                if (band(moved, exact_answer, delta)) return true;
            }
            return false;
        };
    };
    out.exact = any(b.exact);
    out.wrong = any(b.wrong);
    if (b.directions) out.directions = b.directions;  // the vertices as given
    out.fast = [rotations, combos, size, fast = b.fast](const double* in, int exact_answer,
                                                         const double* delta) -> std::optional<bool> {
        double moved[64];
        bool undecided = false;
        for (size_t c = 0; c < combos; ++c) {
            rotations(in, size, c, moved);
            const std::optional<bool> r = fast(moved, exact_answer, delta);
            if (r && *r) return true;
            undecided = undecided || !r;
        }
        if (undecided) return std::nullopt;
        return false;
    };
    return out;
}

/// The lesser of the positive ones of a and b; 0 when neither is.
inline double least_positive(double a, double b) {
    if (!(a > 0)) return b > 0 ? b : 0;
    return b > 0 && b < a ? b : a;
}

/// The shortest nonzero edge (max norm) of the closed polygon of `count`
/// points at p (a triangle: 3); 0 when every edge is: the validity maps'
/// feature of the families with triangles.
inline double shortest_edge(const double* p, int count) {
    double m = 0;
    for (int k = 0; k < count; ++k) {
        double edge = 0;
        for (int i = 0; i < 3; ++i) edge = std::max(edge, std::fabs(p[3 * ((k + 1) % count) + i] - p[3 * k + i]));
        m = least_positive(m, edge);
    }
    return m;
}

/// The answer index of a bool (answers are {no, yes}).
inline int yes(bool b) { return b ? 1 : 0; }

/// A family declared under its `line` convention (ray_sphere, ray_triangle,
/// ray_aabb): a zero direction is no line, so it is outside the domain
/// (said as such) and never generated: the kind that makes one is dropped,
/// and a zero direction another kind happens on becomes (1, 0, 0).
inline void lines_only(Family& g, size_t dir) {
    const auto base_domain = g.in_domain;
    const std::string message = "dir: '0 0 0' is outside the domain of " + g.name + " under line (a line needs a direction)";
    g.in_domain = [base_domain, dir, message](const double* in, std::string* why) {
        return base_domain(in, why) && nonzero3(in, dir, why, message.c_str());
    };
    g.mixes.erase(std::remove_if(g.mixes.begin(), g.mixes.end(), [](const Mix& m) { return m.kind == "zero_direction"; }),
                  g.mixes.end());
    for (Mix& m : g.mixes)
        m.make = [make = m.make, dir](Source& s) {
            Inputs in = make(s);
            if (in[dir] == 0 && in[dir + 1] == 0 && in[dir + 2] == 0) in[dir] = 1;
            return in;
        };
}

}  // namespace isect::check::detail
