// Ray and segment vs closed axis-aligned box: hit or miss, the entry and
// exit parameters, and the face the ray enters through.
//
// The query: the points o + t d with t in [0, tmax]. A ray has tmax = +inf
// (seed 001's rayIntersectLimitless); a segment has tmax = 1 and d is its
// delta (seed 001's rayIntersect). The box is closed: grazing a face, an edge
// or a corner is a hit. On a hit, t_enter and t_exit bound the parameters
// inside the box (t_enter = 0 when the origin is in the box; t_exit = tmax
// when the query ends inside). The entry normal is the outward normal of the
// face crossed at t_enter, (0, 0, 0) when the origin is in the box; at an
// edge or corner any of the faces met there is right.
//
// Two kernels:
//  - ray_aabb_woo: Woo's method, as seed 001 writes it, done right: each axis
//    whose slab excludes the origin offers its near plane; the latest of
//    those is the only candidate entry, checked against every slab's far
//    parameter (seed 001 checks the point o + t d instead, which loses hits
//    at a rounded t). In double: t = (plane - o) / d rounds twice.
//    A zero direction component, +0 or -0, never divides: that axis either
//    holds the origin for every t or for none. Contract tolerant=1; t_enter
//    and t_exit within 2 x 2^-24 |t| (error_e 2 in check/families/ray_aabb.cpp).
//  - ray_aabb_robust: the slab test with reciprocal directions, as Ize
//    ("Robust BVH ray traversal", JCGT 2013) makes it robust: 1/+-0 is
//    +-inf, and 0 x inf = NaN (an origin on a slab's plane with a zero
//    direction) is dropped by writing every min and max so that NaN loses;
//    every far parameter (and tmax) is widened by 1 + 16 u so that rounding
//    never loses a hit. In double, because a float reciprocal of a subnormal
//    direction overflows. Contract conservative: no false misses; its t
//    values are within 2^-24 |t| and far better.
//
// A third, ray_aabb_exact, decides hit or miss exactly: the slab parameters
// t = (plane - o) / d are compared as fractions, s (plane - o) |d'| against
// s' (plane' - o') |d| (s the sign of d), never divided. A filter in double
// first: each difference of floats rounds at most once, each product once,
// their difference once, so the computed difference is within gamma(3)
// (|x| + |y|) of exact, and a margin beyond gamma(4) (|x| + |y|) decides;
// only a near tie goes to the exact sum: each difference as its double and
// its error, each times a float as two terms, eight terms whose sign
// exact::Terms decides (exact.hpp). The products are
// 0 or at least 2^-298: no underflow. Contract exact; its t_enter and t_exit
// are the parameters it selected, divided in double (within 2^-52 |t|).
//
// Domain: finite floats, lo <= hi; tmax = 1 or +inf. A zero direction is in
// the domain (the query is the origin). ±0 and subnormals are ordinary.
// Outside the domain: NaN gives a miss; infinities follow IEEE arithmetic.
#pragma once

#include <cmath>
#include <limits>
#include <utility>

#include "isect/exact.hpp"
#include "isect/fp.hpp"
#include "isect/primitives.hpp"

namespace isect {

/// A hit: the parameter interval inside the box and the entry face.
struct RayAabbHit {
    bool hit = false;
    double t_enter = 0, t_exit = 0;
    Vec3f normal{0, 0, 0};
};

/// Woo's method in double for the points o + t d, t in [0, tmax].
/// tolerant=1. On doubles (T = double) the same code is the double-precision
/// kernel.
template <class T>
inline RayAabbHit ray_aabb_woo(const std::array<T, 3>& o, const std::array<T, 3>& d, const BasicAabb<T>& box,
                               double tmax) {
    RayAabbHit r;
    int axis = -1;
    double t = 0;
    for (int i = 0; i < 3; ++i) {
        double ti;
        if (o[i] < box.lo[i]) {
            if (!(d[i] > 0)) return r;  // moving away or along: never reaches the slab
            ti = (double(box.lo[i]) - o[i]) / d[i];
        } else if (o[i] > box.hi[i]) {
            if (!(d[i] < 0)) return r;
            ti = (double(box.hi[i]) - o[i]) / d[i];
        } else {
            continue;
        }
        if (axis < 0 || ti > t) {
            axis = i;
            t = ti;
        }
    }
    if (t > tmax) return r;
    // Seed 001 checks the other coordinates of the point o + t d against the
    // box. At a rounded t that rejects real hits: when another slab is
    // entered within an ulp of t, the point lands a hair outside it
    // (corpus/segment_aabb/woo_point_check_tie.case). Comparing t with each
    // slab's far parameter, rounded the same way, keeps the tie.
    double t_exit = tmax;
    for (int j = 0; j < 3; ++j) {
        if (d[j] == 0) continue;  // the slab test above holds for every t
        const double far = ((d[j] > 0 ? double(box.hi[j]) : double(box.lo[j])) - o[j]) / d[j];
        if (far < t_exit) t_exit = far;
    }
    if (t > t_exit) return r;
    r.hit = true;
    r.t_enter = t;
    r.t_exit = t_exit;
    if (axis >= 0) r.normal[axis] = d[axis] > 0 ? -1.0f : 1.0f;
    return r;
}

/// Slabs on the whole line o + t d, t over all reals (the `line`
/// convention; tmax is not read): the latest near plane's t and the
/// earliest far plane's, each a quotient in double, and the entered face's
/// outward normal. A zero component keeps the line in its slab or misses.
/// tolerant=1.
template <class T>
inline RayAabbHit line_aabb_slabs(const std::array<T, 3>& o, const std::array<T, 3>& d, const BasicAabb<T>& box,
                                  double /*tmax*/) {
    RayAabbHit r;
    int axis = -1;
    double t_enter = 0, t_exit = 0;
    for (int i = 0; i < 3; ++i) {
        if (d[i] == 0) {
            if (o[i] < box.lo[i] || o[i] > box.hi[i]) return r;
            continue;
        }
        const double near = ((d[i] > 0 ? double(box.lo[i]) : double(box.hi[i])) - o[i]) / d[i];
        const double far = ((d[i] > 0 ? double(box.hi[i]) : double(box.lo[i])) - o[i]) / d[i];
        const bool first = axis < 0;
        if (first || near > t_enter) {
            t_enter = near;
            axis = i;
        }
        if (first || far < t_exit) t_exit = far;
    }
    if (axis < 0 || t_enter > t_exit) return r;
    r.hit = true;
    r.t_enter = t_enter;
    r.t_exit = t_exit;
    r.normal[axis] = d[axis] > 0 ? -1.0f : 1.0f;
    return r;
}

/// The robust slab test (Ize 2013) for o + t d, t in [0, tmax], with the
/// reciprocals in double: 1 / d of a float never overflows there (a float
/// reciprocal does, for |d| < 2^-128, and turns the exit into inf).
/// conservative.
inline RayAabbHit ray_aabb_robust(const Vec3f& o, const Vec3f& d, const Aabb& box, double tmax) {
    // Each slab parameter carries three roundings ((plane - o), 1 / d and the
    // product), so it is within a factor 1 +- gamma(3) of exact; a far
    // parameter widened by (1 + gamma(3)) / (1 - gamma(3)), about 1 + 6 u,
    // and the widening's own rounding, never falls below a near one that is
    // not above it exactly. 1 + 16 u covers that.
    constexpr double kWiden = 1.0 + 16 * kDoubleUnitRoundoff;
    RayAabbHit r;
    double t0 = 0, t1 = tmax * kWiden;  // the end of a segment is a far plane too
    int axis = -1;
    for (int i = 0; i < 3; ++i) {
        if (!(o[i] == o[i])) return r;  // NaN origin: miss
        const double inv = 1.0 / double(d[i]);  // +-0 gives +-inf
        // The near plane by the sign of the reciprocal, not by comparing the
        // two parameters: with a zero direction one of them may be NaN.
        const bool neg = std::signbit(inv);
        const double tn = (double(neg ? box.hi[i] : box.lo[i]) - o[i]) * inv;
        const double tf = (double(neg ? box.lo[i] : box.hi[i]) - o[i]) * inv * kWiden;
        if (tn > t0) {  // NaN > x is false: 0 x inf on a slab plane changes nothing
            t0 = tn;
            axis = i;
        }
        if (tf < t1) t1 = tf;
    }
    if (!(t0 <= t1)) return r;
    r.hit = true;
    r.t_enter = t0;
    r.t_exit = t1;
    if (axis >= 0) r.normal[axis] = d[axis] > 0 ? -1.0f : 1.0f;
    return r;
}

namespace detail {

/// A slab parameter t = sign (plane - origin) / den, den = |d| > 0; t = 0 is
/// {0, 0, 1, 1} and t = 1 {1, 0, 1, 1}.
struct SlabParam {
    float plane, origin, den, sign;
    double value() const { return sign * (double(plane) - origin) / den; }
};

/// sign(a - b), exactly.
inline int compare_slab_params(const SlabParam& a, const SlabParam& b) {
    const double x = a.sign * (double(a.plane) - a.origin) * b.den, y = b.sign * (double(b.plane) - b.origin) * a.den;
    const double diff = x - y, bound = gamma(4) * (std::fabs(x) + std::fabs(y));
    if (diff > bound) return 1;
    if (diff < -bound) return -1;
    ++exact::fallbacks;
    // Exactly: plane - origin = hi + lo, each part times the other's den as
    // two terms: eight terms.
    const exact::Difference da(a.plane, a.origin), db(b.plane, b.origin);
    exact::Terms t;
    t.add_product(a.sign > 0 ? da : -da, b.den);
    t.add_product(b.sign > 0 ? -db : db, a.den);
    return t.sign();
}

}  // namespace detail

/// Woo's slab test decided exactly, for o + t d, t in [0, tmax] (tmax 1 or
/// +inf). exact; t_enter and t_exit within 2^-52 |t|.
///
/// The filter is Woo's test itself in double: each computed slab parameter
/// (p - o) * (1 / d) is within gamma(3) of its exact value (three roundings;
/// no underflow, |p - o| >= 2^-149 and |1 / d| >= 2^-128 unless zero), so the
/// computed t0 = max(0, near_i) and t1 = min(tmax, far_i) are each within
/// 2 gamma(5) of their magnitude of the exact ones (the max of perturbed
/// values is the perturbed value of one near the exact max), and t1 - t0
/// beyond gamma(12) (|t0| + |t1|) (covering the bound's own roundings) has
/// the exact sign. The slabs' zero-direction tests are exact comparisons.
/// Near ties go to the fractions compared exactly.
inline RayAabbHit ray_aabb_exact(const Vec3f& o, const Vec3f& d, const Aabb& box, double tmax) {
    {
        double t0 = 0, t1 = tmax;
        int axis = -1;
        for (int i = 0; i < 3; ++i) {
            if (d[i] == 0) {
                if (o[i] < box.lo[i] || o[i] > box.hi[i]) return {};
                continue;
            }
            const double inv = 1.0 / double(d[i]);
            const bool up = d[i] > 0;
            const double tn = (double(up ? box.lo[i] : box.hi[i]) - o[i]) * inv;
            const double tf = (double(up ? box.hi[i] : box.lo[i]) - o[i]) * inv;
            if (tn > t0) {
                t0 = tn;
                axis = i;
            }
            if (tf < t1) t1 = tf;
        }
        const double margin = gamma(12) * (std::fabs(t0) + std::fabs(t1));
        if (std::isinf(t1) || t1 - t0 > margin) {  // t1 = inf: no bounded slab, tmax = inf
            RayAabbHit r;
            r.hit = true;
            r.t_enter = t0;
            r.t_exit = t1;
            if (axis >= 0) r.normal[axis] = d[axis] > 0 ? -1.0f : 1.0f;
            return r;
        }
        if (t0 - t1 > margin) return {};
    }
    using detail::SlabParam;
    RayAabbHit r;
    SlabParam t0{0, 0, 1, 1}, t1{1, 0, 1, 1};
    bool bounded = !std::isinf(tmax);
    int axis = -1;
    for (int i = 0; i < 3; ++i) {
        if (d[i] == 0) {  // never divides: the origin is in this slab for every t or for none
            if (o[i] < box.lo[i] || o[i] > box.hi[i]) return r;
            continue;
        }
        const bool up = d[i] > 0;
        const float den = std::fabs(d[i]), sign = up ? 1.0f : -1.0f;
        const SlabParam near{up ? box.lo[i] : box.hi[i], o[i], den, sign};
        const SlabParam far{up ? box.hi[i] : box.lo[i], o[i], den, sign};
        if (detail::compare_slab_params(near, t0) > 0) {
            t0 = near;
            axis = i;
        }
        if (!bounded || detail::compare_slab_params(far, t1) < 0) {
            t1 = far;
            bounded = true;
        }
    }
    if (bounded && detail::compare_slab_params(t0, t1) > 0) return r;
    r.hit = true;
    r.t_enter = t0.value();
    r.t_exit = bounded ? t1.value() : tmax;
    if (axis >= 0) r.normal[axis] = d[axis] > 0 ? -1.0f : 1.0f;
    return r;
}

}  // namespace isect
