// Exact references for the closest point of a closed triangle abc (a
// collinear one is a segment, a repeated one a point) to a point p
// (isect/point_triangle.hpp): the point q and its squared distance.
// Cross-checked on every input they judge:
//  - point_triangle_rational: core's point_triangle_minimum (the fast
//    oracle's body: Ericson's Voronoi tests for a proper triangle, the least
//    of three point-segment minima for a degenerate one) on exact numbers.
//  - point_triangle_cgal: CGAL's squared_distance(Point_3, Triangle_3) on
//    an exact rational kernel (its own Voronoi tests), of a Point_3 for a
//    triangle whose vertices are equal.
#pragma once

#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: the triangle, then the point.
/// The vertices are points, not a polygon: the regions are named by them, so
/// the symmetries never reorder them.
inline constexpr auto point_triangle_input = layout(Key{"tri", 9, Role::point}, Key{"p", 3, Role::point});

struct PointTriangleExact {
    Point q;
    Rational dist2;
    /// The triangle's shape as the body's signs found it (proper, collinear,
    /// a point): what decided the closest point, for failure classes.
    int shape = 0;
};

PointTriangleExact point_triangle_rational(const double* in);
/// The squared distance alone.
Rational point_triangle_cgal(const Point& a, const Point& b, const Point& c, const Point& p);

}  // namespace isect::ref
