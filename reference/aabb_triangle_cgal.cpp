// CGAL references for aabb_triangle. The only translation unit of the family
// that includes CGAL's kernel headers.
//
// CGAL's do_intersect(Triangle_3, Iso_cuboid_3) takes the triangle's
// supporting plane first, which is meaningless for a collinear triangle, so
// such triangles go to the segment or point tests instead. The Iso_cuboid_3 is
// built with the constructor that takes min and max as given (its
// precondition min <= max is not checked in release builds, so the empty box
// is decided here, before CGAL sees it).
#include "fast/aabb_triangle.hpp"
#include "isect/ref/aabb_triangle.hpp"
#include "isect/ref/fast.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Gmpq.h>
#include <CGAL/Simple_cartesian.h>
#include <CGAL/intersections.h>
#include <algorithm>
#include <cmath>

#include "isect/exact.hpp"

namespace isect::ref {

namespace {

using Exact = CGAL::Simple_cartesian<CGAL::Gmpq>;

CGAL::Gmpq to_cgal(const Rational& r) { return CGAL::Gmpq(r.backend().data()); }

Exact::Point_3 to_cgal(const Point& p) { return {to_cgal(p[0]), to_cgal(p[1]), to_cgal(p[2])}; }

}  // namespace

bool aabb_triangle_cgal(const ExactAabb& box, const ExactTriangle& tri) {
    for (int i = 0; i < 3; ++i)
        if (box.lo[i] > box.hi[i]) return false;  // empty box
    const Exact::Iso_cuboid_3 cuboid(to_cgal(box.lo), to_cgal(box.hi), 0);
    const Exact::Point_3 a = to_cgal(tri.v[0]), b = to_cgal(tri.v[1]), c = to_cgal(tri.v[2]);
    if (!CGAL::collinear(a, b, c)) return CGAL::do_intersect(Exact::Triangle_3(a, b, c), cuboid);
    if (a == b && b == c) return !cuboid.has_on_unbounded_side(a);
    // Collinear: the hull is the segment between the two farthest vertices.
    const auto ab = CGAL::squared_distance(a, b), bc = CGAL::squared_distance(b, c),
               ca = CGAL::squared_distance(c, a);
    Exact::Segment_3 s(a, b);
    if (bc >= ab && bc >= ca) s = Exact::Segment_3(b, c);
    else if (ca >= ab && ca >= bc) s = Exact::Segment_3(c, a);
    return CGAL::do_intersect(s, cuboid);
}

namespace {

using Epick = CGAL::Exact_predicates_inexact_constructions_kernel;

Epick::Point_3 to_epick(const Vec3d& p) { return {p[0], p[1], p[2]}; }

}  // namespace

bool aabb_triangle_cgal_fast(const AabbD& box, const TriangleD& tri) {
    const std::array<double, 3> lo = {box.lo[0], box.lo[1], box.lo[2]}, hi = {box.hi[0], box.hi[1], box.hi[2]};
    return aabb_triangle_cgal_fast(lo, hi, tri);
}

bool aabb_triangle_cgal_fast(const std::array<double, 3>& lo, const std::array<double, 3>& hi, const TriangleD& tri) {
    for (int i = 0; i < 3; ++i)
        if (lo[i] > hi[i]) return false;  // empty box
    const CGAL::Bbox_3 bbox(lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
    const Epick::Point_3 a = to_epick(tri.v[0]), b = to_epick(tri.v[1]), c = to_epick(tri.v[2]);
    if (!CGAL::collinear(a, b, c)) return CGAL::do_intersect(Epick::Triangle_3(a, b, c), bbox);
    if (a == b && b == c) return CGAL::do_intersect(a, bbox);
    // Collinear: the segment between the two farthest vertices. Squared
    // distances are constructions (rounded) on Epick, so pick the pair by
    // exact comparisons along the line instead: the extreme vertices are the
    // lexicographically smallest and largest.
    const Epick::Point_3* pts[3] = {&a, &b, &c};
    const auto smaller = [](const Epick::Point_3* p, const Epick::Point_3* q) {
        return CGAL::lexicographically_xyz_smaller(*p, *q);
    };
    const auto* first = std::min_element(pts, pts + 3, smaller);
    const auto* last = std::max_element(pts, pts + 3, smaller);
    return CGAL::do_intersect(Epick::Segment_3(**first, **last), bbox);
}

std::array<AabbTriangleAxis, 13> aabb_triangle_axes(const double* in) {
    using Ops = fast::detail::MpzfOps;
    using S = fast::detail::AabbTriangleSat<Ops>;
    constexpr size_t box_lo = aabb_triangle_input.at("box.lo"), box_hi = aabb_triangle_input.at("box.hi");
    constexpr size_t tri = aabb_triangle_input.at("tri");
    using fast::detail::point_of;
    const S::P lo = point_of<Ops>(in + box_lo), hi = point_of<Ops>(in + box_hi);
    const S::P v[3] = {point_of<Ops>(in + tri), point_of<Ops>(in + tri + 3), point_of<Ops>(in + tri + 6)};
    std::array<AabbTriangleAxis, 13> out;
    const auto axes = S::axes(v);
    for (size_t a = 0; a < 13; ++a) {
        const S::P& x = axes[a];
        CGAL::Mpzf norm(0);
        for (const CGAL::Mpzf& c : x) norm = norm + S::abs_of(c);
        out[a].norm1 = fast::detail::to_rational(norm);
        out[a].gap = fast::detail::to_rational(S::gap(x, lo, hi, v));
    }
    return out;
}

}  // namespace isect::ref
