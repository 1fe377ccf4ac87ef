// CGAL's filtered predicates (Epick) called as a user would call them: the
// baselines the exact kernels are benchmarked against (bench/kernel_bench.cpp).
// Not references: they inherit CGAL's preconditions (a collinear triangle's
// supporting plane, a zero direction) and the rounding of constructions
// (a segment's far end o + tmax d is rounded to double), and
// do_intersect(Sphere_3, Bbox_3) means the ball in CGAL 5.5 but the surface
// from 6.2. Each is the call CGAL offers for the pair; what it costs is the
// point.
#pragma once

#include "isect/aabb_plane.hpp"

namespace isect::ref::epick {

/// do_intersect(Triangle_3, Bbox_3).
bool aabb_triangle(const Aabb& box, const Triangle& tri);
/// do_intersect(Ray_3, Triangle_3) for tmax = +inf, else with the segment
/// from o to o + tmax d.
bool ray_triangle(const Vec3f& o, const Vec3f& d, float tmax, const Triangle& tri);
/// do_intersect(Ray_3, Bbox_3), or do_intersect(Segment_3, Bbox_3) from o to
/// o + d when segment is set.
bool ray_aabb(const Vec3f& o, const Vec3f& d, const Aabb& box, bool segment);
/// The plane n . x = d against the box: oriented_side of the two corners
/// n picks (front, back or straddle, as aabb_plane_classify answers).
PlaneSide aabb_plane(const Aabb& box, const Plane& p);
/// do_intersect(Plane_3, Bbox_3).
bool aabb_plane_overlap(const Aabb& box, const Plane& p);
/// do_intersect(Bbox_3, Bbox_3).
bool aabb_aabb(const Aabb& a, const Aabb& b);
/// do_intersect(Sphere_3, Bbox_3).
bool sphere_aabb(const Aabb& box, const Vec3f& c, float r);
/// squared_distance(Segment_3, Segment_3) in double constructions (a
/// Point_3 for a segment whose ends are equal).
double segment_segment(const Vec3f& p1, const Vec3f& q1, const Vec3f& p2, const Vec3f& q2);
/// squared_distance(Point_3, Triangle_3) in double constructions (a Point_3
/// for a triangle whose vertices are equal).
double point_triangle(const Triangle& tri, const Vec3f& p);
/// do_intersect(Triangle_3, Triangle_3); CGAL's precondition (neither
/// triangle degenerate) is not checked in a release build, and the
/// benchmark's degenerate mix does not honour it: a speed baseline there.
bool triangle_triangle(const Triangle& a, const Triangle& b);
/// do_intersect(Ray_3, Sphere_3) for tmax = +inf, else with the segment from
/// o to o + tmax d (rounded to double); Sphere_3 holds r^2, exact for a float
/// r. For CGAL 5.5 a Sphere_3 is the surface here, not the ball: a segment
/// with both ends inside is a miss (the benchmark's random workload: hit
/// rate 12.6% against the family's 13.2%). A speed baseline, not the same
/// question.
bool ray_sphere(const Vec3f& o, const Vec3f& d, float tmax, const Vec3f& c, float r);

}  // namespace isect::ref::epick
