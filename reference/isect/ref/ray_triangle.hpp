// Exact references for o + t d, t in [0, tmax], vs the closed triangle
// conv(a, b, c), two-sided, cross-checked on every input: hit or miss, the
// least t, and the barycentrics (u of b, v of c) of that point when the
// triangle is not degenerate.
//  - ray_triangle_rational: the fast oracle's body (reference/fast/
//    ray_triangle.hpp) on exact numbers. Cramer's rule when the ray crosses
//    the triangle's plane; a ray in the plane is clipped by the three edge
//    half-planes (each linear in t); a degenerate triangle is its longest
//    edge (or a point), met by solving the two lines exactly.
//  - ray_triangle_cgal: CGAL's intersection(Ray_3 or Segment_3, Triangle_3)
//    on an exact rational kernel; the end of the result nearest the origin
//    gives t. CGAL requires a non-degenerate triangle and ray (unchecked in
//    release builds): collinear triangles go to the segment and point tests,
//    and tmax = 0 to a point-in-triangle test.
// d must not be 0 (the domain says so).
#pragma once

#include <optional>

#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: the ray org + t dir, t in [0, tmax], and a closed triangle a, b, c.
inline constexpr auto ray_triangle_input = layout(Key{"org", 3, Role::point}, Key{"dir", 3, Role::direction}, Key{"tmax", 1, Role::parameter}, Key{"tri", 9, Role::polygon});

struct RayTriangleExact {
    bool hit = false;
    Rational t;
    bool has_uv = false;  ///< false for a degenerate triangle
    Rational u, v;
};

/// tmax: nullopt for +inf. cull_back: the `cull_back` convention, only the
/// front face counts: a hit also needs d . n < 0, n = (b - a) x (c - a) (the
/// ray travels against the normal of the counter-clockwise winding), so a
/// ray in the plane and a degenerate triangle miss. The rational reference
/// takes the sign of d . n; CGAL's, the orientation of (a, b, c, a + d).
RayTriangleExact ray_triangle_rational(const double* in, bool cull_back = false);
RayTriangleExact ray_triangle_cgal(const Point& o, const Point& d, const std::optional<Rational>& tmax,
                                   const std::array<Point, 3>& tri, bool cull_back = false);

/// The `line` convention: the whole line o + t d (t over all reals, tmax
/// not read, d != 0), t the least t where it meets the closed triangle.
RayTriangleExact ray_triangle_line_rational(const double* in);
RayTriangleExact ray_triangle_line_cgal(const Point& o, const Point& d, const std::array<Point, 3>& tri);

/// Cramer's rule as the body states it (reference/fast/ray_triangle.hpp),
/// on exact numbers, for the test that decides a case: o + t d = a + u e1 +
/// v e2 with det = -d . n; t, u and v only where det != 0.
struct RayTriangleCramer {
    bool zero_direction = false, degenerate = false;  ///< d = 0; n = 0
    bool in_plane = false;                            ///< (o - a) . n = 0
    Rational det, t, u, v;
};
RayTriangleCramer ray_triangle_cramer(const double* in);

/// The barycentrics (u of b, v of c) of a point of the plane of a
/// non-degenerate triangle, with n = (b - a) x (c - a).
void barycentrics(const std::array<Point, 3>& tri, const Point& p, Rational& u, Rational& v);

}  // namespace isect::ref
