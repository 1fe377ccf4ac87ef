// Exact references for the closed ball vs closed box, cross-checked:
//  - sphere_aabb_rational: Boost rationals; the centre clamped to the box is
//    the nearest point, and its squared distance is compared with r^2.
//  - sphere_aabb_cgal: CGAL on an exact rational kernel: do_intersect(
//    Sphere_3, Iso_cuboid_3) (a ball: it compares the squared distance), and
//    the squared distance found independently as the least distance to the
//    box's face triangles and edges (degenerate faces and edges of flat boxes
//    routed to segments and points), zero when bounded_side says inside.
#pragma once

#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: a closed box and the closed ball of centre c and radius r.
inline constexpr auto sphere_aabb_input = layout(Key{"box.lo", 3, Role::box_lo}, Key{"box.hi", 3, Role::box_hi}, Key{"c", 3, Role::point}, Key{"r", 1, Role::length});

struct SphereAabbExact {
    bool overlap = false;
    bool contains = false;   ///< the centre lies in the box
    Rational dist2;          ///< squared distance from the centre to the box
    Point closest;           ///< the nearest point (rational reference only)
    /// Squared distance from the centre to the nearest point reported: dist2,
    /// or under closest_on_surface the distance to the box's boundary.
    Rational closest_dist2;
};

/// The fast oracle's body (reference/fast/sphere_aabb.hpp) on exact numbers.
/// closest_on_surface: the convention of that name (for a centre in the box,
/// the nearest point of its boundary; CGAL's reference measures the distance
/// to the boundary's faces and edges, as it does from outside).
SphereAabbExact sphere_aabb_rational(const double* in, bool closest_on_surface = false);
SphereAabbExact sphere_aabb_cgal(const ExactAabb& box, const Point& c, const Rational& r, bool closest_on_surface = false);

}  // namespace isect::ref
