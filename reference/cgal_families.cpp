// CGAL references for every family after aabb_triangle, in one translation
// unit: CGAL's kernel headers are heavy, and each family's part is short.
// Every section says which CGAL preconditions it routes around; CGAL does not
// check them in release builds.
#include <CGAL/Gmpq.h>
#include <CGAL/Simple_cartesian.h>
#include <CGAL/intersections.h>

#include "isect/ref/aabb_aabb.hpp"
#include "isect/ref/aabb_plane.hpp"

namespace isect::ref {

namespace {

using K = CGAL::Simple_cartesian<CGAL::Gmpq>;

CGAL::Gmpq to_cgal(const Rational& r) { return CGAL::Gmpq(r.backend().data()); }
K::Point_3 to_cgal(const Point& p) { return {to_cgal(p[0]), to_cgal(p[1]), to_cgal(p[2])}; }
Rational from_cgal(const CGAL::Gmpq& q) { return Rational(q.mpq()); }
Point from_cgal(const K::Point_3& p) { return {from_cgal(p.x()), from_cgal(p.y()), from_cgal(p.z())}; }

/// An Iso_cuboid_3 from a non-empty box, built with the constructor that
/// takes min and max as given (its precondition min <= max is the caller's).
K::Iso_cuboid_3 cuboid(const ExactAabb& b) { return {to_cgal(b.lo), to_cgal(b.hi), 0}; }

}  // namespace

// --- aabb_aabb ----------------------------------------------------------------

std::optional<ExactAabb> aabb_aabb_cgal(const ExactAabb& a, const ExactAabb& b) {
    const K::Iso_cuboid_3 ca = cuboid(a), cb = cuboid(b);
    if (!CGAL::do_intersect(ca, cb)) return std::nullopt;
    const auto r = CGAL::intersection(ca, cb);
    if (!r) throw std::logic_error("CGAL: do_intersect says yes, intersection is empty");
    const K::Iso_cuboid_3* box = boost::get<K::Iso_cuboid_3>(&*r);
    if (!box) throw std::logic_error("CGAL: the intersection of two boxes is not a box");
    return ExactAabb{from_cgal((box->min)()), from_cgal((box->max)())};
}

// --- aabb_plane -------------------------------------------------------------------

namespace {
K::Plane_3 plane(const ExactPlane& p) {
    return {to_cgal(p.n[0]), to_cgal(p.n[1]), to_cgal(p.n[2]), to_cgal(Rational(-p.d))};
}
}  // namespace

int aabb_plane_classify_cgal(const ExactAabb& box, const ExactPlane& p) {
    const K::Plane_3 pl = plane(p);
    bool positive = false, negative = false;
    for (int c = 0; c < 8; ++c) {
        const K::Point_3 q = to_cgal(Point{c & 1 ? box.hi[0] : box.lo[0], c & 2 ? box.hi[1] : box.lo[1],
                                           c & 4 ? box.hi[2] : box.lo[2]});
        const CGAL::Oriented_side side = pl.oriented_side(q);
        positive |= side == CGAL::ON_POSITIVE_SIDE;
        negative |= side == CGAL::ON_NEGATIVE_SIDE;
    }
    if (!negative) return 1;
    if (!positive) return -1;
    return 0;
}

bool aabb_plane_overlap_cgal(const ExactAabb& box, const ExactPlane& p) {
    return CGAL::do_intersect(plane(p), cuboid(box));
}

}  // namespace isect::ref
