// Axis-aligned box vs plane n . x = d: which side is the box on (seed 001's
// classifyPlane), and do they share a point (seed 003's centre-extents test)?
//
// Semantics, closed sets, as seed 001 defines the classification: with
// minD and maxD the least and greatest n . x over the box,
//   front    when minD >= d (a box touching the plane from the front, or lying
//            flat in it, is front),
//   back     when maxD <= d and not front,
//   straddle otherwise (minD < d < maxD).
// The box meets the plane iff minD <= d <= maxD.
//
// Algorithm: minD and maxD take, per axis, the corner coordinate that n's
// sign picks; the overlap test is seed 003's: centre c, extents e, radius
// r = e . |n|, and |n . c - d| <= r.
//
// Arithmetic: floats in, double inside. A product of two floats is exact in
// double (48 significant bits), so n . x at a corner is a sum of three exact
// products; aabb_plane_classify and aabb_plane_overlap decide the sign of
// that sum minus d exactly (exact::sign_of_sum in exact.hpp), and are exact:
// touching is never a matter of rounding. aabb_plane_overlap_centre_extents
// is seed 003's test in double: centre and extents are exact ((lo + hi) / 2
// and (hi - lo) / 2 of floats, unless lo and hi are 2^53 apart in
// magnitude), r = e . |n| and n . c - d round three times each, so it is
// tolerant=1; the band is stated in check/families/aabb_plane.cpp and reference/fast/aabb_plane.hpp.
//
// Domain: finite floats, lo <= hi, n != 0. Flat and point boxes, ±0 and
// subnormals are ordinary values. Outside the domain the kernels return some
// answer without undefined behaviour: n = 0 classifies by the sign of -d;
// with NaN or inf the expansion's sign is meaningless but defined.
#pragma once

#include "isect/exact.hpp"
#include "isect/primitives.hpp"

namespace isect {

/// Which side of a plane a box is on.
enum class PlaneSide { back = -1, straddle = 0, front = 1 };

namespace detail {
/// The sign of n . (the corner that n's sign picks) - d, exactly: the least
/// n . x over the box when least is set, the greatest otherwise.
inline int plane_margin_sign(const Aabb& box, const Plane& p, bool least) {
    double terms[4];
    for (int i = 0; i < 3; ++i) {
        const bool take_lo = (p.n[i] > 0) == least;
        terms[i] = double(p.n[i]) * (take_lo ? box.lo[i] : box.hi[i]);
    }
    terms[3] = -double(p.d);
    return exact::sign_of_sum(terms, 4);
}
}  // namespace detail

/// Classifies the box against the plane: front when every point has
/// n . x >= d, back when every point has n . x <= d (and not front),
/// straddle otherwise. Exact.
inline PlaneSide aabb_plane_classify(const Aabb& box, const Plane& p) {
    if (detail::plane_margin_sign(box, p, true) >= 0) return PlaneSide::front;
    if (detail::plane_margin_sign(box, p, false) <= 0) return PlaneSide::back;
    return PlaneSide::straddle;
}

/// True iff the closed box meets the plane: least n . x <= d <= greatest.
/// Exact.
inline bool aabb_plane_overlap(const Aabb& box, const Plane& p) {
    return detail::plane_margin_sign(box, p, true) <= 0 && detail::plane_margin_sign(box, p, false) >= 0;
}

/// Seed 003's overlap test, centre and extents in double: |n . c - d| <= r.
/// tolerant=1. About twice as fast as the exact test on random input.
inline bool aabb_plane_overlap_centre_extents(const Aabb& box, const Plane& p) {
    double r = 0, s = -double(p.d);
    for (int i = 0; i < 3; ++i) {
        const double c = (double(box.lo[i]) + box.hi[i]) * 0.5;
        const double e = box.hi[i] - c;
        r += e * std::fabs(double(p.n[i]));
        s += double(p.n[i]) * c;
    }
    return std::fabs(s) <= r;
}

}  // namespace isect
