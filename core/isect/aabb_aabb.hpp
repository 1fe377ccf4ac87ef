// Axis-aligned box vs axis-aligned box: do two closed boxes share a point,
// and which box is their intersection? Seed 001's intersectAABBs.
//
// Algorithm: two boxes meet iff their coordinate ranges meet on every axis;
// the intersection is [max of the lows, min of the highs].
//
// Contract: exact, for the answer and for the box. Comparing two floats and
// taking a max or a min never round, so nothing here can differ from the
// exact answer. Touching faces, edges and corners meet (closed sets), so the
// comparisons are <= and the intersection of touching boxes is flat or a
// point.
//
// Domain: finite floats, lo <= hi. Flat and point boxes are ordinary. -0 and
// +0 compare equal (a box [-0, 0] touches one at [0, 1]). With a NaN every
// comparison is false and the answer is "disjoint"; with infinities the
// comparisons still follow IEEE order.
#pragma once

#include "isect/primitives.hpp"

namespace isect {

/// True iff the closed boxes a and b share a point. Exact.
inline bool aabb_aabb_overlap(const Aabb& a, const Aabb& b) {
    return a.lo[0] <= b.hi[0] && b.lo[0] <= a.hi[0] &&  //
           a.lo[1] <= b.hi[1] && b.lo[1] <= a.hi[1] &&  //
           a.lo[2] <= b.hi[2] && b.lo[2] <= a.hi[2];
}

/// The intersection of two boxes that overlap: exact, flat or a point when
/// they only touch. When they do not overlap, lo > hi on some axis.
inline Aabb aabb_aabb_intersection(const Aabb& a, const Aabb& b) {
    Aabb r;
    for (int i = 0; i < 3; ++i) {
        r.lo[i] = max2(a.lo[i], b.lo[i]);
        r.hi[i] = min2(a.hi[i], b.hi[i]);
    }
    return r;
}

}  // namespace isect
