// Exact references for box vs box, cross-checked on every input:
//  - aabb_aabb_rational: the fast oracle's body (reference/fast/
//    aabb_aabb.hpp) on exact numbers: the coordinate ranges per axis.
//  - aabb_aabb_cgal: CGAL's do_intersect and intersection of two
//    Iso_cuboid_3 on an exact rational kernel.
// Both return whether the closed boxes meet and, when they do, the box they
// share.
#pragma once

#include <optional>

#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: closed box a vs closed box b.
inline constexpr auto aabb_aabb_input = layout(Key{"a.lo", 3, Role::box_lo}, Key{"a.hi", 3, Role::box_hi}, Key{"b.lo", 3, Role::box_lo}, Key{"b.hi", 3, Role::box_hi});

/// volume: the volume_overlap convention (a meet without volume is none).
std::optional<ExactAabb> aabb_aabb_rational(const double* in, bool volume = false);
std::optional<ExactAabb> aabb_aabb_cgal(const ExactAabb& a, const ExactAabb& b, bool volume = false);

}  // namespace isect::ref
