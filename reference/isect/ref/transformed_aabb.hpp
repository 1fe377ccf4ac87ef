// Exact references for the tight box of a box's image under p' = m p + t,
// cross-checked face by face:
//  - transformed_aabb_rational: the fast oracle's body (reference/fast/
//    transformed_aabb.hpp) on exact numbers: Arvo's per-term min and max.
//  - transformed_aabb_cgal: CGAL's Aff_transformation_3 on an exact rational
//    kernel applied to the eight corners, then the least and greatest of
//    each coordinate.
#pragma once

#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: a box and the map p -> m p + t (m row-major).
inline constexpr auto transformed_aabb_input = layout(Key{"box.lo", 3, Role::box_lo}, Key{"box.hi", 3, Role::box_hi}, Key{"m", 9, Role::matrix}, Key{"t", 3, Role::vector});

struct ExactAffine {
    std::array<Point, 3> m;
    Point t;
};

ExactAabb transformed_aabb_rational(const double* in);
ExactAabb transformed_aabb_cgal(const ExactAabb& box, const ExactAffine& a);

}  // namespace isect::ref
