// CGAL Epick baselines for bench/kernel_bench.cpp (isect/ref/epick.hpp):
// one translation unit, since CGAL's kernel headers are heavy.
#include "isect/ref/epick.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/intersections.h>

namespace isect::ref::epick {

namespace {

using K = CGAL::Exact_predicates_inexact_constructions_kernel;

K::Point_3 point(const Vec3f& p) { return {p[0], p[1], p[2]}; }

CGAL::Bbox_3 bbox(const Aabb& box) { return {box.lo[0], box.lo[1], box.lo[2], box.hi[0], box.hi[1], box.hi[2]}; }

/// n . x = d as CGAL's a x + b y + c z + d' = 0: d' = -d, exact.
K::Plane_3 plane(const Plane& p) { return {p.n[0], p.n[1], p.n[2], -double(p.d)}; }

K::Triangle_3 triangle(const Triangle& t) { return {point(t.v[0]), point(t.v[1]), point(t.v[2])}; }

/// do_intersect of the ray o + t d, t in [0, tmax], with object: a Ray_3
/// for tmax = +inf, else the Segment_3 to o + tmax d (rounded to double).
template <class Object> bool ray_meets(const Vec3f& o, const Vec3f& d, float tmax, const Object& object) {
    const K::Point_3 p = point(o);
    const K::Vector_3 v(d[0], d[1], d[2]);
    if (std::isinf(tmax)) return CGAL::do_intersect(K::Ray_3(p, v), object);
    return CGAL::do_intersect(K::Segment_3(p, p + double(tmax) * v), object);
}

}  // namespace

bool aabb_triangle(const Aabb& box, const Triangle& tri) { return CGAL::do_intersect(triangle(tri), bbox(box)); }

bool ray_triangle(const Vec3f& o, const Vec3f& d, float tmax, const Triangle& tri) { return ray_meets(o, d, tmax, triangle(tri)); }

bool ray_aabb(const Vec3f& o, const Vec3f& d, const Aabb& box, bool segment) {
    const K::Point_3 p = point(o);
    const K::Vector_3 v(d[0], d[1], d[2]);
    if (segment) return CGAL::do_intersect(K::Segment_3(p, p + v), bbox(box));
    return CGAL::do_intersect(K::Ray_3(p, v), bbox(box));
}

PlaneSide aabb_plane(const Aabb& box, const Plane& p) {
    const K::Plane_3 h = plane(p);
    Vec3f least, greatest;
    for (int i = 0; i < 3; ++i) {
        least[i] = p.n[i] > 0 ? box.lo[i] : box.hi[i];
        greatest[i] = p.n[i] > 0 ? box.hi[i] : box.lo[i];
    }
    if (h.oriented_side(point(least)) != CGAL::ON_NEGATIVE_SIDE) return PlaneSide::front;
    if (h.oriented_side(point(greatest)) != CGAL::ON_POSITIVE_SIDE) return PlaneSide::back;
    return PlaneSide::straddle;
}

bool aabb_plane_overlap(const Aabb& box, const Plane& p) { return CGAL::do_intersect(plane(p), bbox(box)); }

bool aabb_aabb(const Aabb& a, const Aabb& b) { return CGAL::do_intersect(bbox(a), bbox(b)); }

bool sphere_aabb(const Aabb& box, const Vec3f& c, float r) {
    return CGAL::do_intersect(K::Sphere_3(point(c), double(r) * r), bbox(box));
}

double segment_segment(const Vec3f& p1, const Vec3f& q1, const Vec3f& p2, const Vec3f& q2) {
    const K::Point_3 a = point(p1), b = point(q1), c = point(p2), d = point(q2);
    if (a == b && c == d) return CGAL::squared_distance(a, c);
    if (a == b) return CGAL::squared_distance(a, K::Segment_3(c, d));
    if (c == d) return CGAL::squared_distance(c, K::Segment_3(a, b));
    return CGAL::squared_distance(K::Segment_3(a, b), K::Segment_3(c, d));
}

double point_triangle(const Triangle& tri, const Vec3f& p) {
    const K::Point_3 a = point(tri.v[0]), b = point(tri.v[1]), c = point(tri.v[2]), q = point(p);
    if (a == b && b == c) return CGAL::squared_distance(q, a);
    return CGAL::squared_distance(q, K::Triangle_3(a, b, c));
}

bool triangle_triangle(const Triangle& a, const Triangle& b) { return CGAL::do_intersect(triangle(a), triangle(b)); }

bool ray_sphere(const Vec3f& o, const Vec3f& d, float tmax, const Vec3f& c, float r) {
    return ray_meets(o, d, tmax, K::Sphere_3(point(c), double(r) * r));
}

}  // namespace isect::ref::epick
