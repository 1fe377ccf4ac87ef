// Pieces the family files share: reading primitives out of a flat input,
// domain messages, how a value's error is measured, and the fast oracle's
// and the bands' results as the description takes them. Private to check/.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "isect/check/io/case_file.hpp"
#include "isect/check/model/family.hpp"
#include "isect/check/engine/judge.hpp"
#include "isect/primitives.hpp"
#include "isect/ref/aabb_plane.hpp"
#include "isect/ref/moving_aabb.hpp"
#include "isect/ref/exact.hpp"
#include "isect/ref/fast.hpp"

namespace isect::check::detail {

using ref::Rational;

// The input's primitives as they are (doubles: exact, whatever the
// precision), for the references and the judges.
inline Vec3d vec_at(const double* p) { return {p[0], p[1], p[2]}; }
inline AabbD box_at(const double* p) { return {vec_at(p), vec_at(p + 3)}; }
inline TriangleD tri_at(const double* p) { return {{vec_at(p), vec_at(p + 3), vec_at(p + 6)}}; }
/// The plane of a box-and-plane input (aabb_plane, aabb_plane_overlap,
/// moving_aabb_plane: the same keys first), exactly.
inline ref::ExactPlane exact_plane(const double* in) {
    constexpr size_t n = ref::aabb_plane_input.at("n"), d = ref::aabb_plane_input.at("d");
    static_assert(n == ref::moving_aabb_plane_input.at("n") && d == ref::moving_aabb_plane_input.at("d"));
    return {ref::exact(vec_at(in + n)), ref::exact(in[d])};
}

// The same as a kernel of scalar T takes them: in a float run every input
// is a float, so nothing rounds (the engine never hands a float kernel a
// double run's input). vec_f and the like are the float spelling.
template <class T> std::array<T, 3> vec_as(const double* p) { return {T(p[0]), T(p[1]), T(p[2])}; }
template <class T> BasicAabb<T> box_as(const double* p) { return {vec_as<T>(p), vec_as<T>(p + 3)}; }
template <class T> BasicTriangle<T> tri_as(const double* p) { return {{vec_as<T>(p), vec_as<T>(p + 3), vec_as<T>(p + 6)}}; }
inline Vec3f vec_f(const double* p) { return vec_as<float>(p); }
inline Aabb box_f(const double* p) { return box_as<float>(p); }
inline Triangle tri_f(const double* p) { return tri_as<float>(p); }

/// The precision of a kernel of scalar T.
template <class T> constexpr Precision precision_of() {
    return sizeof(T) == sizeof(float) ? Precision::single : Precision::double_;
}

/// A generated input as floats, for constructions that work in float
/// arithmetic (they build float inputs; the run may then widen them).
inline std::vector<float> as_floats(const Inputs& in) { return {in.begin(), in.end()}; }

/// The first non-finite input, as a domain message naming its key; empty
/// when every input is finite.
inline std::string first_non_finite(const Family& f, const double* in) {
    size_t at = 0;
    for (const InputKey& k : f.inputs)
        for (int i = 0; i < k.count; ++i, ++at)
            if (!std::isfinite(in[at]))
                return k.key + ": '" + format_number(in[at]) + "' is outside the domain of " + f.name +
                       " (finite values only)";
    return {};
}

/// A message when the box at key_lo / key_hi has lo > hi on some axis.
inline std::string box_order(const Family& f, const char* key_lo, const char* key_hi, const double* in) {
    const AabbD b{vec_at(in + f.offset(key_lo)), vec_at(in + f.offset(key_hi))};
    for (int i = 0; i < 3; ++i)
        if (b.lo[i] > b.hi[i])
            return std::string(key_hi) + ": '" + format_number(b.hi[i]) + "' is below " + key_lo + " '" + format_number(b.lo[i]) +
                   "' on axis " + "xyz"[i] + " (lo <= hi required)";
    return {};
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

/// One candidate of a slab extremum: t_i = (face_i - o_i) / d_i, and its
/// scale, how far it moves in units of u when the inputs it is made of
/// move by their own ulps: to first order (|lo_i| + |hi_i| + |o_i|) / |d_i|
/// + |t_i|. Both faces of the slab count, not only the one crossed: a
/// kernel may build the slab from its centre and half extent (Bullet's
/// btRayAabb), each a rounding of both faces.
struct SlabCandidate {
    double t = 0, scale = 0;
    SlabCandidate() = default;
    SlabCandidate(double face, double other_face, double o, double d)
        : t((face - o) / d),
          scale((std::fabs(face) + std::fabs(other_face) + std::fabs(o)) / std::fabs(d) + std::fabs((face - o) / d)) {}
};

/// The condition scale S of a slab extremum t (an entry max(0, max_i t_i),
/// an exit min(T, min_i t_i)): the exact t moves with the candidates that
/// can be the extremum once the inputs move by an ulp, those within 8 of
/// their own scales (in u) of t; a clamp at 0 or at T does not move. |t| is
/// the floor. So a kernel whose t is one rounding of its inputs away from
/// the exact one is within E = 1 or 2 (Bullet's centre-and-extent slabs at
/// t = 0 among them), and a wrong formula stays far outside.
inline double slab_extremum_scale(double t, const SlabCandidate* c, int n) {
    double s = std::fabs(t);
    for (int i = 0; i < n; ++i)
        if (std::isfinite(c[i].t) && std::isfinite(c[i].scale) && std::fabs(c[i].t - t) <= 8 * unit_roundoff() * c[i].scale)
            s = std::max(s, c[i].scale);
    return s;
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

/// "" when lo <= x <= hi exactly, else why. An end may be infinite (an
/// interval that left the double range on double inputs).
inline std::string check_enclosure(std::string_view name, double lo, double hi, const ref::Rational& x) {
    const bool above_lo = lo == -INFINITY || (std::isfinite(lo) && Rational(lo) <= x);
    const bool below_hi = hi == INFINITY || (std::isfinite(hi) && x <= Rational(hi));
    if (std::isnan(lo) || std::isnan(hi) || !above_lo || !below_hi)
        return std::string(name) + " = " + x.str() + " is outside the enclosure [" + std::to_string(lo) + ", " +
               std::to_string(hi) + "]";
    return {};
}

/// "" when the numbers exact[0..n) are each inside their enclosure [lo_i,
/// hi_i], else why, naming the first outside (outputs[i]). exact are the
/// references' nearest doubles: an enclosure of doubles holds an exact value
/// only if it holds its rounding, so the test is exact.
inline std::string check_rounded_enclosures(const Family& f, const FastTruth& fast, const double* exact, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (!(fast.lo[i] <= exact[i] && exact[i] <= fast.hi[i]))
            return f.outputs[i] + " = " + format_double(exact[i]) + " is outside the enclosure [" + format_double(fast.lo[i]) +
                   ", " + format_double(fast.hi[i]) + "]";
    return {};
}

/// sign(s sqrt(x2) - t), exactly (x2 >= 0, s in {-1, 0, 1}; t may be
/// infinite).
inline int compare_root(int s, const ref::Rational& x2, double t) {
    if (std::isinf(t)) return t > 0 ? -1 : 1;
    if (s == 0 || x2 == 0) return t > 0 ? -1 : (t < 0 ? 1 : 0);
    const Rational tt(t), t2 = tt * tt;
    if (s > 0) return t < 0 ? 1 : (x2 > t2 ? 1 : (x2 < t2 ? -1 : 0));
    return t > 0 ? -1 : (x2 > t2 ? -1 : (x2 < t2 ? 1 : 0));
}

/// "" when lo <= s sqrt(x2) <= hi exactly, else why.
inline std::string check_root_enclosure(std::string_view name, double lo, double hi, int s, const ref::Rational& x2) {
    if (std::isnan(lo) || std::isnan(hi) || compare_root(s, x2, lo) < 0 || compare_root(s, x2, hi) > 0)
        return std::string(name) + " = " + (s < 0 ? "-" : "") + "sqrt(" + x2.str() + ") is outside the enclosure [" +
               std::to_string(lo) + ", " + std::to_string(hi) + "]";
    return {};
}

/// "" when the fast answer is the exact one, else why.
inline std::string check_answer(const Family& f, const FastTruth& fast, int exact) {
    if (fast.answer == exact) return {};
    return "the oracle says " + f.answers[size_t(fast.answer)] + ", the rational reference " + f.answers[size_t(exact)];
}

/// A band written once in reference/fast/ (its exact, fast and wrong
/// instantiations) as the description holds it.
inline Family::Band band_of(const ref::fast::Band& b) { return {b.exact, b.fast, b.wrong}; }

/// A band written on a polygon's vertices in order (interval bounds from a
/// vertex a, Cramer's rule on b - a, c - a) is a superset whose width
/// depends on which vertex is a. Asked of every order of the triangles at
/// `tris` (offsets of keys of nine numbers: each rotation, either way round)
/// and answering in band where any does, it is still a superset, and the
/// same for every vertex order.
/// The first rotation decides most answers (they are in band), so the
/// others cost only where one is not. Every position moves by one delta in
/// these families, so the deltas need no rotating. size: the input's (at
/// most 64 numbers).
inline Family::Band rotation_symmetric(const ref::fast::Band& b, size_t size, std::vector<size_t> tris) {
    // Each order of every triangle at once: 3 rotations, either way round,
    // per triangle.
    const auto rotations = [tris](const double* in, size_t n, size_t combo, double* out) {
        std::copy(in, in + n, out);
        for (size_t t = 0; t < tris.size(); ++t, combo /= 6) {
            const size_t r = combo % 3;
            const bool back = combo % 6 >= 3;
            for (size_t k = 0; k < 3; ++k) {
                const size_t from = back ? (3 + r - k) % 3 : (k + r) % 3;
                for (size_t i = 0; i < 3; ++i) out[tris[t] + 3 * k + i] = in[tris[t] + 3 * from + i];
            }
        }
    };
    size_t combos = 1;
    for (size_t t = 0; t < tris.size(); ++t) combos *= 6;
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

/// The answer index of a bool (answers are {no, yes}).
inline int yes(bool b) { return b ? 1 : 0; }

}  // namespace isect::check::detail
