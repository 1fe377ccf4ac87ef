// Exact references for the triangle and polygon measures of seed 001,
// cross-checked output by output. Outputs with a square root (area,
// circumradius, distances) are compared as exact squares (with the sign);
// sqrt_to_double takes the root with MPFR at 400 bits and rounds to double.
//  - *_rational: the fast oracle's bodies (reference/fast/
//    triangle_measures.hpp) on exact numbers, each root as its square and
//    sign.
//  - *_cgal: CGAL on an exact rational kernel: squared_area, circumcenter,
//    squared_radius, Plane_3(a, b, c) for the projection (barycentrics from
//    the projected point) and the signed distance; normal_vector_newell_3
//    for the polygon, and Projection_traits_3's orientation along Newell's
//    normal for convexity.
#pragma once

#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: a triangle a, b, c and a point p.
inline constexpr auto triangle_measures_input = layout(Key{"tri", 9, Role::polygon}, Key{"p", 3, Role::point});

/// The input: a polygon of five vertices and a point q.
inline constexpr auto polygon_measures_input = layout(Key{"poly", 15, Role::polygon}, Key{"q", 3, Role::point});

struct TriangleMeasuresExact {
    bool degenerate = true;
    Rational area2;            ///< area squared
    Rational u, v;             ///< barycentrics of p's projection
    Point centre;
    Rational radius2;
    Rational distance2;        ///< squared distance of p from the plane
    int distance_sign = 0;
};

TriangleMeasuresExact triangle_measures_rational(const double* in);
TriangleMeasuresExact triangle_measures_cgal(const std::array<Point, 3>& tri, const Point& p);

struct PolygonExact {
    Point normal;              ///< Newell's normal
    Rational offset;           ///< the average of p_i . normal
    bool convex = false;
    Rational distance2;        ///< squared distance of q from Newell's plane (normal != 0)
    int distance_sign = 0;
};

PolygonExact polygon_rational(const double* in);
PolygonExact polygon_cgal(const std::vector<Point>& poly, const Point& q);

/// sign * sqrt(x) rounded to the nearest double (MPFR, 400 bits, then one
/// rounding: within an ulp).
double sqrt_to_double(const Rational& x, int sign = 1);

}  // namespace isect::ref
