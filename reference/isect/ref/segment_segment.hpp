// Exact references for the closest points of two closed segments [p1, q1]
// and [p2, q2] (isect/segment_segment.hpp): the least squared distance, and
// one pair of parameters s, t in [0, 1] that reaches it. Cross-checked on
// every input they judge (the squared distance; the minimiser need not be
// unique):
//  - segment_segment_rational: core's segment_minimum (the fast oracle's
//    body) on exact numbers. D(s, t) = |P1(s) - P2(t)|^2 is convex on the
//    square, so its least is the unconstrained minimum where that is unique
//    and inside the square, else the least over the four edges; each edge's
//    minimum is a clamped root of a quadratic in one parameter.
//  - segment_segment_cgal: CGAL's squared_distance on an exact rational
//    kernel (Lumelsky's clamp-and-recompute, another route), of a Point_3
//    for a segment whose ends are equal.
#pragma once

#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: segment 1 from p1 to q1, segment 2 from p2 to q2.
inline constexpr auto segment_segment_input = layout(Key{"p1", 3, Role::point}, Key{"q1", 3, Role::point},
                                                     Key{"p2", 3, Role::point}, Key{"q2", 3, Role::point});

struct SegmentSegmentExact {
    Rational dist2, s, t;
    /// The pair's shape as the body's signs found it (skew, parallel, a
    /// point, two points): what decided the minimum, for failure classes.
    int shape = 0;
};

SegmentSegmentExact segment_segment_rational(const double* in);
/// The squared distance alone (CGAL gives no minimiser through its public calls).
Rational segment_segment_cgal(const Point& p1, const Point& q1, const Point& p2, const Point& q2);

}  // namespace isect::ref
