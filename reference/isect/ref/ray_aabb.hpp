// Exact references for the points o + t d, t in [0, tmax], vs a closed box
// (tmax = +inf for a ray), cross-checked on every input:
//  - ray_aabb_rational: the fast oracle's slabs (reference/fast/slabs.hpp)
//    on exact numbers: per axis the parameter interval inside the slab (all
//    t or none when d_i = 0), intersected.
//  - ray_aabb_cgal: CGAL on an exact rational kernel: intersection(Ray_3 or
//    Segment_3, Iso_cuboid_3), a point or a segment, whose end points give
//    the parameters. CGAL's Ray_3 and Segment_3 must not be degenerate
//    (unchecked in release builds), so d = 0 is decided here as a point in
//    the box; an empty box (lo > hi) never reaches CGAL.
#pragma once

#include <optional>

#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: the ray org + t dir, t >= 0, and a closed box.
inline constexpr auto ray_aabb_input = layout(Key{"org", 3, Role::point}, Key{"dir", 3, Role::direction}, Key{"box.lo", 3, Role::box_lo}, Key{"box.hi", 3, Role::box_hi});

/// The input: the segment org + t delta, t in [0, 1], and a closed box.
inline constexpr auto segment_aabb_input = layout(Key{"org", 3, Role::point}, Key{"delta", 3, Role::vector}, Key{"box.lo", 3, Role::box_lo}, Key{"box.hi", 3, Role::box_hi});

/// How the slabs decided (reference/fast/slabs.hpp), as their own tests
/// found it: for failure classes.
enum class SlabVerdict : unsigned char {
    meets,             ///< t_enter <= t_exit
    empty_box,         ///< lo > hi on an axis
    parallel_outside,  ///< d = 0 on an axis whose slab does not hold the origin
    apart,             ///< the slabs' parameter ranges (clamped to the query's) do not meet
};

struct RayAabbExact {
    bool hit = false;
    SlabVerdict verdict = SlabVerdict::apart;
    /// On a hit, and on a miss whose slabs are apart: the largest near
    /// parameter (at least 0) and the least far one (at most 1 for a
    /// segment), as the slabs left them.
    Rational t_enter, t_exit;
    bool exit_infinite = false;      ///< a ray with d = 0 that starts inside
    /// Per axis with d_i != 0: the parameter of the near plane (rational
    /// reference only); the entry face is an axis whose near parameter is
    /// t_enter.
    std::array<std::optional<Rational>, 3> near;
    int entered = -1;  ///< the axis whose near plane gave t_enter; -1 when t_enter is 0
};

/// segment: t in [0, 1] (segment_aabb_input), else t >= 0 (ray_aabb_input).
/// line: the `line` convention, t over all reals (ray_aabb_input, d != 0).
RayAabbExact ray_aabb_rational(const double* in, bool segment, bool line = false);
RayAabbExact ray_aabb_cgal(const Point& o, const Point& d, const ExactAabb& box, bool segment, bool line = false);

}  // namespace isect::ref
