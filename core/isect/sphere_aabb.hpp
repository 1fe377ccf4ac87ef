// Closed ball vs closed axis-aligned box (seed 001's intersectsSphere), and
// the two box queries it is built on: contains (point in box) and
// closest_point (seed 001's closestPointTo).
//
// Algorithm: the point of the box nearest the centre is the centre clamped to
// [lo, hi] per axis; the ball meets the box iff that point is within r of the
// centre, compared squared: |c - q|^2 <= r^2. Touching counts (closed sets):
// seed 001 writes <, which makes a tangent ball miss.
//
// Contracts: contains and closest_point are exact (comparisons and choosing
// one of the inputs never round). sphere_aabb_overlap is tolerant=1: in
// double, c - q is exact unless c and q are 2^29 apart in exponent, each
// square rounds once and the sum twice, so |c - q|^2 and r^2 are within
// gamma(4) of exact; a wrong answer needs the exact distance within a few
// ulps of r, which moving the inputs by 2^-24 M always covers (the band is
// stated in reference/fast/sphere_aabb.hpp). In float, seed 001's arithmetic underflows:
// for inputs near 2^-70 both squares flush to 0 and a far ball "touches".
//
// sphere_aabb_overlap_exact decides |c - q|^2 <= r^2 exactly: a filter in
// double first, then, only where the filter cannot decide, the exact sum
// of 19 terms, whose sign exact::Terms decides (exact.hpp). The filter: each c_i - q_i rounds once,
// its square once, the sum of the three twice, all terms nonnegative, so the
// computed D is within gamma(5) D of the exact D, hence within gamma(6) D of
// the computed one; r^2 is exact (a product of two floats). So |D - r^2| >
// gamma(7) D (gamma(7) covering the rounding of the bound itself) decides.
// Squares of differences of floats are 0 or at least 2^-298: no underflow.
//
// Domain: finite floats, lo <= hi, r >= 0 (r = 0 is a point). Flat and point
// boxes, ±0 and subnormals are ordinary. Outside the domain: a NaN centre
// makes contains false and overlap false; closest_point passes NaN through.
#pragma once

#include "isect/exact.hpp"
#include "isect/fp.hpp"
#include "isect/primitives.hpp"

namespace isect {

/// True iff p lies in the closed box. Exact.
inline bool aabb_contains(const Aabb& box, const Vec3f& p) {
    return box.lo[0] <= p[0] && p[0] <= box.hi[0] && box.lo[1] <= p[1] && p[1] <= box.hi[1] &&
           box.lo[2] <= p[2] && p[2] <= box.hi[2];
}

/// The point of the closed box nearest p: p clamped to [lo, hi]. Exact.
inline Vec3f aabb_closest_point(const Aabb& box, const Vec3f& p) {
    Vec3f q;
    for (int i = 0; i < 3; ++i) q[i] = p[i] < box.lo[i] ? box.lo[i] : (p[i] > box.hi[i] ? box.hi[i] : p[i]);
    return q;
}

/// The point of the box's boundary nearest p. Outside the box, the clamp
/// (aabb_closest_point); inside it or on it, p moved onto its nearest face,
/// the first of x lo, x hi, y lo, y hi, z lo, z hi where several are nearest
/// (the `closest_on_surface` convention: Jet's Box3::closestPoint, and Open
/// Inventor's SbBox3f::getClosestPoint as documented). Exact: two faces'
/// distances (p - lo or hi - p) are compared by the exact sign of their
/// difference, a sum of four floats, and the point is made of the inputs.
inline Vec3f aabb_closest_surface_point(const Aabb& box, const Vec3f& p) {
    if (!aabb_contains(box, p)) return aabb_closest_point(box, p);
    int axis = 0;
    bool high = false;
    for (int i = 0; i < 3; ++i)
        for (int side = 0; side < 2; ++side) {
            exact::Terms diff;  // distance (i, side) minus the nearest's so far
            if (side) {
                diff.add(box.hi[i]);
                diff.add(-p[i]);
            } else {
                diff.add(p[i]);
                diff.add(-box.lo[i]);
            }
            if (high) {
                diff.add(-box.hi[axis]);
                diff.add(p[axis]);
            } else {
                diff.add(-p[axis]);
                diff.add(box.lo[axis]);
            }
            if (diff.sign() < 0) {
                axis = i;
                high = side == 1;
            }
        }
    Vec3f q = p;
    q[axis] = high ? box.hi[axis] : box.lo[axis];
    return q;
}

namespace detail {
/// |c - q|^2 in double, each difference, square and sum rounded at most
/// once (the error the kernels' contracts and the exact filter account for).
inline double squared_distance(const Vec3f& c, const Vec3f& q) {
    double d2 = 0;
    for (int i = 0; i < 3; ++i) {
        const double d = double(c[i]) - q[i];
        d2 += d * d;
    }
    return d2;
}
}  // namespace detail

/// True iff the closed ball (centre c, radius r) meets the closed box.
/// tolerant=1.
inline bool sphere_aabb_overlap(const Aabb& box, const Vec3f& c, float r) {
    return detail::squared_distance(c, aabb_closest_point(box, c)) <= double(r) * r;
}

/// True iff the closed ball (centre c, radius r) meets the closed box.
/// exact.
inline bool sphere_aabb_overlap_exact(const Aabb& box, const Vec3f& c, float r) {
    const Vec3f q = aabb_closest_point(box, c);
    const double d2 = detail::squared_distance(c, q);
    const double r2 = double(r) * r;
    const double bound = gamma(7) * d2;
    if (d2 - r2 > bound) return false;
    if (r2 - d2 > bound) return true;
    ++exact::fallbacks;
    // The exact sum: each c_i - q_i = D + e exactly, squared as D^2 + 2 D e
    // + e^2 (six terms), and -r^2 (exact in double): 19 terms.
    exact::Terms sum;
    sum.add(-r2);
    for (int i = 0; i < 3; ++i) {
        const exact::Difference d(c[i], q[i]);
        sum.add_product(d.hi, d.hi);
        sum.add_product(2 * d.hi, d.lo);
        sum.add_product(d.lo, d.lo);
    }
    return sum.sign() <= 0;
}

}  // namespace isect
