// Exact references for the closed box vs closed triangle test.
//
// Two independent implementations, cross-checked on every input:
//  - aabb_triangle_clip: Boost.Multiprecision rationals, from the definition.
//    The triangle, as a convex polygon, is clipped in turn by the six closed
//    half-spaces whose intersection is the box; they meet iff something is
//    left. No separating axes, so it shares no reasoning with the kernels.
//  - aabb_triangle_cgal: CGAL's do_intersect(Triangle_3, Iso_cuboid_3) on an
//    exact rational kernel, with its assumptions routed around: collinear
//    triangles go to the segment test, coincident ones to the point test.
//
// Both take rational boxes, so the tolerance band can ask about boxes grown or
// shrunk by a rational delta. A box with lo > hi on some axis is empty.
#pragma once

#include "isect/aabb_triangle.hpp"
#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: a closed box and a closed triangle a, b, c.
inline constexpr auto aabb_triangle_input = layout(Key{"box.lo", 3, Role::box_lo}, Key{"box.hi", 3, Role::box_hi}, Key{"tri", 9, Role::polygon});

/// A closed triangle with rational vertices.
struct ExactTriangle {
    std::array<Point, 3> v;
};

/// The exact values of a float or double triangle (finite input only).
template <class T> ExactTriangle exact(const BasicTriangle<T>& tri) {
    return {{exact(tri.v[0]), exact(tri.v[1]), exact(tri.v[2])}};
}

/// True iff the closed box and the closed triangle share a point. Boost
/// rational polygon clipping.
bool aabb_triangle_clip(const ExactAabb& box, const ExactTriangle& tri);

/// True iff the closed box and the closed triangle share a point. CGAL, exact
/// rational kernel, degenerate triangles routed to segment and point tests.
bool aabb_triangle_cgal(const ExactAabb& box, const ExactTriangle& tri);

/// aabb_triangle's fast oracle (reference/aabb_triangle_cgal.cpp, the band in check/families/aabb_triangle.cpp): Epick's filtered predicates
/// (exact: interval arithmetic, exact arithmetic where the interval cannot
/// decide; inputs are floats or doubles), with collinear triangles routed
/// to the segment and point tests as in aabb_triangle_cgal. About 100 times
/// faster than the rational references, which confirm every finding it leads
/// to and are compared with it on generated cases (a property) and on a
/// sample of fuzz inputs. Precondition: finite input, lo <= hi.
bool aabb_triangle_cgal_fast(const AabbD& box, const TriangleD& tri);

/// The separating-axis test as the band states it (reference/fast/
/// aabb_triangle.hpp), on exact numbers, for the test that decides a case:
/// each of the thirteen axes in its usual order (0-2 the box's faces, 3 the
/// triangle's normal, 4-12 box axis x triangle edge), its 1-norm (0 for a
/// zero axis) and the gap between the two projections on it (> 0: it
/// separates them).
struct AabbTriangleAxis {
    Rational norm1, gap;
};
std::array<AabbTriangleAxis, 13> aabb_triangle_axes(const double* in);

/// The same on a box given by its corners (a box grown or shrunk by a
/// delta, rounded outwards or inwards); empty when lo > hi on some axis.
bool aabb_triangle_cgal_fast(const std::array<double, 3>& lo, const std::array<double, 3>& hi, const TriangleD& tri);

}  // namespace isect::ref
