// CGAL 5.5 (Debian's libcgal-dev), Exact_predicates_inexact_constructions_kernel
// (Epick), do_intersect: filtered exact predicates, so every row must hold
// `exact`. One plugin for every family it covers (one translation unit:
// CGAL's headers are heavy); a row picks its family with --family.
//   aabb_aabb           do_intersect(Iso_cuboid_3, Iso_cuboid_3)
//   aabb_triangle       do_intersect(Iso_cuboid_3, Triangle_3)
//   aabb_plane_overlap  do_intersect(Iso_cuboid_3, Plane_3(n, -d))
//   sphere_aabb         do_intersect(Sphere_3(c, r^2), Iso_cuboid_3)
//   ray_aabb            do_intersect(Ray_3(org, dir), Iso_cuboid_3)
//   segment_aabb        do_intersect(Segment_3(org, org + delta), Iso_cuboid_3)
//   ray_triangle        do_intersect(Ray_3(org, dir), Triangle_3)   (a Ray_3 has no end: unbounded_tmax)
//   ray_sphere          do_intersect(Ray_3(org, dir), Sphere_3)     (likewise)
//   triangle_triangle   do_intersect(Triangle_3, Triangle_3)
//   segment_segment     do_intersect(Segment_3, Segment_3)
// Only yes/no is asked. CGAL's documented preconditions, which release
// builds do not check, are declared: no degenerate triangle
// (proper_triangle), ray or segment (nonzero_direction, nonzero_length), no
// zero normal (nonzero_normal). Plane_3(a, b, c, d) is a x + b y + c z + d
// = 0, so isect's n . x = d is Plane_3(n, -d), exactly; r^2 of a float is
// exact in double. A Ray_3 made from a point and a vector, and a segment's
// end, are constructions, org + dir, which Epick rounds: they are exact for
// floats inside the ray and segment rows' --domain 2^-10:2^10 (outside it a
// rounded second point turns the ray, and the answer is the wrapper's, not
// CGAL's). A Sphere_3 is met as a ball.
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/intersections.h>
#include "isect/plugin.h"

namespace {
using K = CGAL::Exact_predicates_inexact_constructions_kernel;
K::Point_3 point(const float* p) { return K::Point_3(p[0], p[1], p[2]); }
K::Vector_3 vector(const float* p) { return K::Vector_3(p[0], p[1], p[2]); }
K::Iso_cuboid_3 box(const float* lo, const float* hi) { return K::Iso_cuboid_3(point(lo), point(hi)); }
K::Triangle_3 triangle(const float* t) { return K::Triangle_3(point(t), point(t + 3), point(t + 6)); }
K::Sphere_3 ball(const float* c, float r) { return K::Sphere_3(point(c), double(r) * double(r)); }
int yes(bool b) { return b ? 1 : 0; }
}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "cgal_epick_do_intersect"; }
ISECT_PLUGIN_EXPORT const char* isect_requires(void) {
    return "proper_triangle,nonzero_direction,nonzero_length,nonzero_normal,unbounded_tmax";
}

ISECT_PLUGIN_EXPORT int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                                        float*, float*) {
    return yes(CGAL::do_intersect(box(a_lo, a_hi), box(b_lo, b_hi)));
}
ISECT_PLUGIN_EXPORT int isect_aabb_triangle(const float lo[3], const float hi[3], const float tri[9]) {
    return yes(CGAL::do_intersect(box(lo, hi), triangle(tri)));
}
ISECT_PLUGIN_EXPORT int isect_aabb_plane_overlap(const float lo[3], const float hi[3], const float n[3], float d) {
    return yes(CGAL::do_intersect(box(lo, hi), K::Plane_3(n[0], n[1], n[2], -double(d))));
}
ISECT_PLUGIN_EXPORT int isect_sphere_aabb(const float lo[3], const float hi[3], const float c[3], float r, float*, int*) {
    return yes(CGAL::do_intersect(ball(c, r), box(lo, hi)));
}
ISECT_PLUGIN_EXPORT int isect_ray_aabb(const float org[3], const float dir[3], const float lo[3], const float hi[3], float*,
                                       float*, float*) {
    return yes(CGAL::do_intersect(K::Ray_3(point(org), vector(dir)), box(lo, hi)));
}
ISECT_PLUGIN_EXPORT int isect_segment_aabb(const float org[3], const float delta[3], const float lo[3], const float hi[3],
                                           float*, float*, float*) {
    const K::Point_3 s = point(org);
    return yes(CGAL::do_intersect(K::Segment_3(s, s + vector(delta)), box(lo, hi)));
}
ISECT_PLUGIN_EXPORT int isect_ray_triangle(const float org[3], const float dir[3], float, const float tri[9], float*, float*,
                                           float*) {
    return yes(CGAL::do_intersect(K::Ray_3(point(org), vector(dir)), triangle(tri)));
}
ISECT_PLUGIN_EXPORT int isect_ray_sphere(const float org[3], const float dir[3], float, const float c[3], float r, float*,
                                         float*) {
    return yes(CGAL::do_intersect(K::Ray_3(point(org), vector(dir)), ball(c, r)));
}
ISECT_PLUGIN_EXPORT int isect_triangle_triangle(const float t1[9], const float t2[9], float*, float*) {
    return yes(CGAL::do_intersect(triangle(t1), triangle(t2)));
}
ISECT_PLUGIN_EXPORT int isect_segment_segment(const float p1[3], const float q1[3], const float p2[3], const float q2[3],
                                              float*) {
    return yes(CGAL::do_intersect(K::Segment_3(point(p1), point(q1)), K::Segment_3(point(p2), point(q2))));
}

}  // extern "C"
