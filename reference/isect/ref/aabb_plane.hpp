// Exact references for box vs plane n . x = d, cross-checked on every input:
//  - *_rational: Boost rationals, the least and greatest n . x over the box.
//  - *_cgal: CGAL's Plane_3 on an exact rational kernel: the oriented side
//    of the eight corners, and do_intersect(Plane_3, Iso_cuboid_3). CGAL's
//    plane needs n != 0, which the domain requires and the caller checks.
// Classification as in core/isect/aabb_plane.hpp: 1 front, -1 back, 0
// straddle.
#pragma once

#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: a closed box and the plane n . x = d (aabb_plane, aabb_plane_overlap).
inline constexpr auto aabb_plane_input = layout(Key{"box.lo", 3, Role::box_lo}, Key{"box.hi", 3, Role::box_hi}, Key{"n", 3, Role::normal}, Key{"d", 1, Role::offset});

struct ExactPlane {
    Point n;
    Rational d;
};

/// The plane of a box-and-plane input (aabb_plane, aabb_plane_overlap and
/// moving_aabb_plane have the same keys first), exactly.
inline ExactPlane exact_plane(const double* in) {
    constexpr size_t n = aabb_plane_input.at("n"), d = aabb_plane_input.at("d");
    return {Point{exact(in[n]), exact(in[n + 1]), exact(in[n + 2])}, exact(in[d])};
}

/// The fast oracle's bodies (reference/fast/aabb_plane.hpp) on exact
/// numbers; the input as aabb_plane_input lays it out.
/// touching_straddles: the convention of that name (a box touching the
/// plane, or in it, straddles; a side only where no corner is on the plane).
int aabb_plane_classify_rational(const double* in, bool touching_straddles = false);
int aabb_plane_classify_cgal(const ExactAabb& box, const ExactPlane& p, bool touching_straddles = false);
bool aabb_plane_overlap_rational(const double* in);
bool aabb_plane_overlap_cgal(const ExactAabb& box, const ExactPlane& p);

/// The least and greatest n . x over the box.
void aabb_plane_extent(const ExactAabb& box, const Point& n, Rational& min_d, Rational& max_d);

/// The plane's margins over the box of the input (aabb_plane_input, or
/// moving_aabb_plane_input: the same keys first): the least and greatest
/// n . x - d, as the bodies take them. The box touches the plane where one
/// is 0 and lies in it where both are.
void aabb_plane_margins(const double* in, Rational& least, Rational& greatest);

}  // namespace isect::ref
