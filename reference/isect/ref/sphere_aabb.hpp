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
};

/// The fast oracle's body (reference/fast/sphere_aabb.hpp) on exact numbers.
SphereAabbExact sphere_aabb_rational(const double* in);
SphereAabbExact sphere_aabb_cgal(const ExactAabb& box, const Point& c, const Rational& r);

}  // namespace isect::ref
