// Exact references for moving boxes, cross-checked on every input.
//  Box vs box: the Minkowski difference D = [S.lo - M.hi, S.hi - M.lo] is
//  met by the segment from the origin along d at the contact times.
//  - moving_aabb_rational: the fast oracle's body on exact numbers, slab by
//    slab (reference/fast/slabs.hpp).
//  - moving_aabb_cgal: CGAL's intersection(Segment_3, Iso_cuboid_3) on D, or
//    the origin's bounded side when d = 0 (a degenerate Segment_3 is
//    outside CGAL's preconditions).
//  Box vs plane, contact at the least t >= 0 at which the moving box meets
//  n . x = d:
//  - moving_aabb_plane_rational: the fast oracle's body on exact numbers
//    (reference/fast/aabb_plane.hpp): the least and greatest n . x over the
//    box and s = n . dir.
//  - moving_aabb_plane_cgal: CGAL's Plane_3: the oriented sides of the eight
//    corners decide contact at 0; otherwise each corner's ray along dir is
//    intersected with the plane (intersection(Ray_3, Plane_3)), and the
//    earliest point gives t.
#pragma once

#include <optional>

#include "isect/ref/aabb_plane.hpp"
#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"
#include "isect/ref/ray_aabb.hpp"

namespace isect::ref {

/// The input: the stationary box, the moving box and its motion d over t in [0, 1].
inline constexpr auto moving_aabb_input = layout(Key{"stationary.lo", 3, Role::box_lo}, Key{"stationary.hi", 3, Role::box_hi}, Key{"moving.lo", 3, Role::box_lo}, Key{"moving.hi", 3, Role::box_hi}, Key{"d", 3, Role::vector});

/// The input: a box moving by t dir, t >= 0, and the plane n . x = d.
inline constexpr auto moving_aabb_plane_input = layout(Key{"box.lo", 3, Role::box_lo}, Key{"box.hi", 3, Role::box_hi}, Key{"n", 3, Role::normal}, Key{"d", 1, Role::offset}, Key{"dir", 3, Role::direction});

// Its plane is read by exact_plane (aabb_plane.hpp): the same keys first.
static_assert(moving_aabb_plane_input.at("n") == aabb_plane_input.at("n") &&
              moving_aabb_plane_input.at("d") == aabb_plane_input.at("d"));

/// The contact time, or nullopt for none.
std::optional<Rational> moving_aabb_rational(const double* in);
/// How the body's slabs decided (against the Minkowski difference): for
/// failure classes.
SlabVerdict moving_aabb_verdict(const double* in);
std::optional<Rational> moving_aabb_cgal(const ExactAabb& s, const ExactAabb& m, const Point& d);

/// The Minkowski difference [S.lo - M.hi, S.hi - M.lo].
ExactAabb minkowski_difference(const ExactAabb& s, const ExactAabb& m);

std::optional<Rational> moving_aabb_plane_rational(const double* in);
std::optional<Rational> moving_aabb_plane_cgal(const ExactAabb& box, const ExactPlane& p, const Point& dir);

}  // namespace isect::ref
