// CGAL references for every family after aabb_triangle, in one translation
// unit: CGAL's kernel headers are heavy, and each family's part is short.
// Every section says which CGAL preconditions it routes around; CGAL does not
// check them in release builds. Each uses only calls whose meaning is the
// same from CGAL 5.5 to 6.x (CMakeLists.txt checks the version): points,
// segments, triangles, planes and iso-cuboids, their do_intersect,
// intersection and squared_distance; never Sphere_3, whose meaning in
// do_intersect changed in 6.2.
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Gmpq.h>
#include <CGAL/Simple_cartesian.h>
#include <CGAL/Aff_transformation_3.h>
#include <CGAL/Projection_traits_3.h>
#include <CGAL/intersections.h>
#include <CGAL/normal_vector_newell_3.h>

#include "isect/ref/aabb_aabb.hpp"
#include "isect/ref/aabb_plane.hpp"
#include "isect/ref/moving_aabb.hpp"
#include "isect/ref/point_triangle.hpp"
#include "isect/ref/ray_aabb.hpp"
#include "isect/ref/ray_sphere.hpp"
#include "isect/ref/ray_triangle.hpp"
#include "isect/ref/segment_segment.hpp"
#include "isect/ref/sphere_aabb.hpp"
#include "isect/ref/transformed_aabb.hpp"
#include "isect/ref/triangle_measures.hpp"
#include "isect/ref/triangle_triangle.hpp"

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

std::optional<ExactAabb> aabb_aabb_cgal(const ExactAabb& a, const ExactAabb& b, bool volume) {
    const K::Iso_cuboid_3 ca = cuboid(a), cb = cuboid(b);
    if (!CGAL::do_intersect(ca, cb)) return std::nullopt;
    const auto r = CGAL::intersection(ca, cb);
    if (!r) throw std::logic_error("CGAL: do_intersect says yes, intersection is empty");
    const K::Iso_cuboid_3* box = boost::get<K::Iso_cuboid_3>(&*r);
    if (!box) throw std::logic_error("CGAL: the intersection of two boxes is not a box");
    // Under volume_overlap a shared face, edge or corner (a degenerate
    // cuboid: no volume) is no overlap.
    if (volume && box->is_degenerate()) return std::nullopt;
    return ExactAabb{from_cgal((box->min)()), from_cgal((box->max)())};
}

// --- aabb_plane -------------------------------------------------------------------

namespace {
K::Plane_3 plane(const ExactPlane& p) {
    return {to_cgal(p.n[0]), to_cgal(p.n[1]), to_cgal(p.n[2]), to_cgal(Rational(-p.d))};
}
}  // namespace

int aabb_plane_classify_cgal(const ExactAabb& box, const ExactPlane& p, bool touching_straddles) {
    const K::Plane_3 pl = plane(p);
    bool positive = false, negative = false, on = false;
    for (int c = 0; c < 8; ++c) {
        const K::Point_3 q = to_cgal(Point{c & 1 ? box.hi[0] : box.lo[0], c & 2 ? box.hi[1] : box.lo[1],
                                           c & 4 ? box.hi[2] : box.lo[2]});
        const CGAL::Oriented_side side = pl.oriented_side(q);
        positive |= side == CGAL::ON_POSITIVE_SIDE;
        negative |= side == CGAL::ON_NEGATIVE_SIDE;
        on |= side == CGAL::ON_ORIENTED_BOUNDARY;
    }
    // Under touching_straddles a corner on the plane puts the box on both
    // sides; otherwise it belongs to the side the other corners are on.
    if (touching_straddles && on) return 0;
    if (!negative) return 1;
    if (!positive) return -1;
    return 0;
}

bool aabb_plane_overlap_cgal(const ExactAabb& box, const ExactPlane& p) {
    return CGAL::do_intersect(plane(p), cuboid(box));
}

// --- sphere_aabb ---------------------------------------------------------------

namespace {
/// Squared distance from p to the segment ab; a point when a == b (CGAL's
/// segment distance assumes a non-degenerate segment).
K::FT distance2(const K::Point_3& p, const K::Point_3& a, const K::Point_3& b) {
    if (a == b) return CGAL::squared_distance(p, a);
    return CGAL::squared_distance(p, K::Segment_3(a, b));
}
}  // namespace

/// The closed ball meets the box iff the squared distance from its centre to
/// the box is at most r^2, which this computes with CGAL's squared distances
/// to the box's edges and faces. Not do_intersect(Sphere_3, Iso_cuboid_3):
/// CGAL 5.5 reads a Sphere_3 there as the ball, CGAL 6.2 as its surface
/// (CGAL pull request 9096), so a box strictly inside the ball would be
/// "disjoint" on a newer CGAL (corpus/sphere_aabb/ball_contains_box.case).
/// Under closest_on_surface the same measure is taken from a centre inside
/// too: its distance to the boundary (the faces, and the edges of a box
/// whose faces collapse).
SphereAabbExact sphere_aabb_cgal(const ExactAabb& box, const Point& c, const Rational& r, bool closest_on_surface) {
    SphereAabbExact out;
    const K::Iso_cuboid_3 cube = cuboid(box);
    const K::Point_3 p = to_cgal(c);
    const K::FT r2 = to_cgal(Rational(r * r));
    out.contains = !cube.has_on_unbounded_side(p);
    K::FT best = 0;
    if (!out.contains || closest_on_surface) {
        bool first = true;
        const auto keep = [&](const K::FT& d) {
            if (first || d < best) best = d;
            first = false;
        };
        // Edges: every pair of corners that differ in one coordinate bit.
        for (int a = 0; a < 8; ++a)
            for (int b = a + 1; b < 8; ++b) {
                const K::Point_3 pa = to_cgal(Point{a & 1 ? box.hi[0] : box.lo[0], a & 2 ? box.hi[1] : box.lo[1],
                                                    a & 4 ? box.hi[2] : box.lo[2]});
                const K::Point_3 pb = to_cgal(Point{b & 1 ? box.hi[0] : box.lo[0], b & 2 ? box.hi[1] : box.lo[1],
                                                    b & 4 ? box.hi[2] : box.lo[2]});
                const int diff = a ^ b;
                if (diff == 1 || diff == 2 || diff == 4) keep(distance2(p, pa, pb));
            }
        // Faces: two triangles each, skipped when degenerate (a flat box's
        // collapsed face is one of its edges, already measured).
        for (int axis = 0; axis < 3; ++axis)
            for (int side = 0; side < 2; ++side) {
                const int u = (axis + 1) % 3, v = (axis + 2) % 3;
                std::array<K::Point_3, 4> q;
                for (int k = 0; k < 4; ++k) {
                    Point x;
                    x[axis] = side ? box.hi[axis] : box.lo[axis];
                    x[u] = (k == 1 || k == 2) ? box.hi[u] : box.lo[u];
                    x[v] = (k >= 2) ? box.hi[v] : box.lo[v];
                    q[k] = to_cgal(x);
                }
                for (const auto& t : {std::array<K::Point_3, 3>{q[0], q[1], q[2]}, {q[0], q[2], q[3]}})
                    if (!CGAL::collinear(t[0], t[1], t[2]))
                        keep(CGAL::squared_distance(p, K::Triangle_3(t[0], t[1], t[2])));
            }
    }
    out.closest_dist2 = from_cgal(best);
    if (out.contains) best = 0;
    out.dist2 = from_cgal(best);
    out.overlap = best <= r2;
    return out;
}

// --- ray_aabb, segment_aabb --------------------------------------------------------

RayAabbExact ray_aabb_cgal(const Point& o, const Point& d, const ExactAabb& box, bool segment, bool line) {
    RayAabbExact r;
    if (is_empty(box)) return r;
    const K::Iso_cuboid_3 cube = cuboid(box);
    const K::Point_3 p = to_cgal(o);
    if (d[0] == 0 && d[1] == 0 && d[2] == 0) {  // the query is the origin
        r.hit = !cube.has_on_unbounded_side(p);
        r.exit_infinite = r.hit && !segment;
        if (r.hit && segment) r.t_exit = 1;
        return r;
    }
    const K::Vector_3 v(to_cgal(d[0]), to_cgal(d[1]), to_cgal(d[2]));
    // The intersection, a point or a segment (the chord of a Line_3, a
    // Ray_3 or a Segment_3), as its parameters along o + t d.
    const auto chord = [&](const auto& result) {
        if (!result) return r;
        const auto param = [&](const K::Point_3& q) { return from_cgal((q - p) * v / v.squared_length()); };
        r.hit = true;
        if (const K::Point_3* q = boost::get<K::Point_3>(&*result)) {
            r.t_enter = r.t_exit = param(*q);
        } else {
            const K::Segment_3& s = boost::get<K::Segment_3>(*result);
            r.t_enter = param(s.source());
            r.t_exit = param(s.target());
            if (r.t_enter > r.t_exit) std::swap(r.t_enter, r.t_exit);
        }
        return r;
    };
    if (line) return chord(CGAL::intersection(K::Line_3(p, v), cube));
    return segment ? chord(CGAL::intersection(K::Segment_3(p, p + v), cube)) : chord(CGAL::intersection(K::Ray_3(p, p + v), cube));
}

// --- moving_aabb, moving_aabb_plane -----------------------------------------------

std::optional<Rational> moving_aabb_cgal(const ExactAabb& s, const ExactAabb& m, const Point& d) {
    const ExactAabb diff = minkowski_difference(s, m);
    const RayAabbExact r = ray_aabb_cgal(Point{0, 0, 0}, d, diff, true);
    if (!r.hit) return std::nullopt;
    return r.t_enter;
}

std::optional<Rational> moving_aabb_plane_cgal(const ExactAabb& box, const ExactPlane& p, const Point& dir) {
    const K::Plane_3 pl = plane(p);
    bool positive = false, negative = false;
    std::array<K::Point_3, 8> corners;
    for (int c = 0; c < 8; ++c) {
        corners[size_t(c)] = to_cgal(Point{c & 1 ? box.hi[0] : box.lo[0], c & 2 ? box.hi[1] : box.lo[1],
                                           c & 4 ? box.hi[2] : box.lo[2]});
        const CGAL::Oriented_side side = pl.oriented_side(corners[size_t(c)]);
        if (side == CGAL::ON_ORIENTED_BOUNDARY) return Rational(0);
        positive |= side == CGAL::ON_POSITIVE_SIDE;
        negative |= side == CGAL::ON_NEGATIVE_SIDE;
    }
    if (positive && negative) return Rational(0);
    if (dir[0] == 0 && dir[1] == 0 && dir[2] == 0) return std::nullopt;  // a degenerate Ray_3
    const K::Vector_3 v(to_cgal(dir[0]), to_cgal(dir[1]), to_cgal(dir[2]));
    std::optional<Rational> best;
    for (const K::Point_3& c : corners) {
        const auto hit = CGAL::intersection(K::Ray_3(c, c + v), pl);
        if (!hit) continue;
        const K::Point_3* q = boost::get<K::Point_3>(&*hit);
        if (!q) continue;  // a ray in the plane: impossible, the corner is off it
        const Rational t = from_cgal((*q - c) * v / v.squared_length());
        if (!best || t < *best) best = t;
    }
    return best;
}

// --- transformed_aabb ------------------------------------------------------------

ExactAabb transformed_aabb_cgal(const ExactAabb& box, const ExactAffine& a) {
    const auto c = [](const Rational& r) { return to_cgal(r); };
    const K::Aff_transformation_3 map(c(a.m[0][0]), c(a.m[0][1]), c(a.m[0][2]), c(a.t[0]),  //
                                      c(a.m[1][0]), c(a.m[1][1]), c(a.m[1][2]), c(a.t[1]),  //
                                      c(a.m[2][0]), c(a.m[2][1]), c(a.m[2][2]), c(a.t[2]));
    ExactAabb out;
    for (int k = 0; k < 8; ++k) {
        const K::Point_3 p = map.transform(to_cgal(Point{k & 1 ? box.hi[0] : box.lo[0], k & 2 ? box.hi[1] : box.lo[1],
                                                         k & 4 ? box.hi[2] : box.lo[2]}));
        const Point q = from_cgal(p);
        for (int i = 0; i < 3; ++i) {
            if (k == 0 || q[i] < out.lo[i]) out.lo[i] = q[i];
            if (k == 0 || q[i] > out.hi[i]) out.hi[i] = q[i];
        }
    }
    return out;
}

// --- ray_triangle -------------------------------------------------------------------

namespace {

/// The earliest parameter of an intersection result (a point or a segment)
/// along o + t v.
template <class Result>
std::optional<Rational> first_param(const Result& result, const K::Point_3& o, const K::Vector_3& v) {
    if (!result) return std::nullopt;
    const auto param = [&](const K::Point_3& q) { return from_cgal((q - o) * v / v.squared_length()); };
    if (const K::Point_3* q = boost::get<K::Point_3>(&*result)) return param(*q);
    if (const K::Segment_3* s = boost::get<K::Segment_3>(&*result)) return std::min(param(s->source()), param(s->target()));
    throw std::logic_error("CGAL: unexpected intersection type");
}

}  // namespace

namespace {
RayTriangleExact two_sided_cgal(const Point& o, const Point& d, const std::optional<Rational>& tmax,
                                const std::array<Point, 3>& tri) {
    RayTriangleExact r;
    const K::Point_3 p = to_cgal(o), a = to_cgal(tri[0]), b = to_cgal(tri[1]), c = to_cgal(tri[2]);
    const K::Vector_3 v(to_cgal(d[0]), to_cgal(d[1]), to_cgal(d[2]));
    const bool degenerate = CGAL::collinear(a, b, c);
    std::optional<Rational> t;
    if ((tmax && *tmax == 0) || v == CGAL::NULL_VECTOR) {  // the query is the origin: a degenerate Segment_3
        const bool on = degenerate ? (a == b && b == c ? p == a : K::Segment_3(a, b).has_on(p) ||
                                                                K::Segment_3(b, c).has_on(p) ||
                                                                K::Segment_3(c, a).has_on(p))
                                   : K::Triangle_3(a, b, c).has_on(p);
        if (on) t = Rational(0);
    } else if (!degenerate) {
        // A ray becomes the segment up to a parameter past every vertex:
        // CGAL 5.5's intersection(Ray_3, Triangle_3) answers a coplanar ray
        // with a vertex behind its source (corpus/ray_triangle/
        // cgal_coplanar_ray_behind_source.case), Segment_3 does not.
        Rational far = tmax ? *tmax : Rational(0);
        if (!tmax) {
            for (const Point& q : tri) far = std::max(far, Rational(dot(sub(q, o), d) / dot(d, d)));
            far += 1;
        }
        const K::Triangle_3 triangle(a, b, c);
        t = first_param(CGAL::intersection(K::Segment_3(p, p + to_cgal(far) * v), triangle), p, v);
    } else if (a == b && b == c) {
        const bool on = tmax ? K::Segment_3(p, p + to_cgal(*tmax) * v).has_on(a) : K::Ray_3(p, p + v).has_on(a);
        if (on) t = from_cgal((a - p) * v / v.squared_length());
    } else {
        // Collinear: the hull is the segment between the two farthest vertices.
        K::Segment_3 s(a, b);
        const auto ab = CGAL::squared_distance(a, b), bc = CGAL::squared_distance(b, c), ca = CGAL::squared_distance(c, a);
        if (bc >= ab && bc >= ca) s = K::Segment_3(b, c);
        else if (ca >= ab && ca >= bc) s = K::Segment_3(c, a);
        t = tmax ? first_param(CGAL::intersection(K::Segment_3(p, p + to_cgal(*tmax) * v), s), p, v)
                 : first_param(CGAL::intersection(K::Ray_3(p, p + v), s), p, v);
    }
    if (!t) return r;
    r.hit = true;
    r.t = *t;
    if (!degenerate) {
        r.has_uv = true;
        barycentrics(tri, Point{o[0] + r.t * d[0], o[1] + r.t * d[1], o[2] + r.t * d[2]}, r.u, r.v);
    }
    return r;
}
}  // namespace

// The line convention: the segment between parameters before and past
// every vertex (CGAL's Line_3 x Triangle_3 as Segment_3, as the ray's);
// a collinear triangle's hull against Line_3, a point one on it.
RayTriangleExact ray_triangle_line_cgal(const Point& o, const Point& d, const std::array<Point, 3>& tri) {
    RayTriangleExact r;
    const K::Point_3 p = to_cgal(o), a = to_cgal(tri[0]), b = to_cgal(tri[1]), c = to_cgal(tri[2]);
    const K::Vector_3 v(to_cgal(d[0]), to_cgal(d[1]), to_cgal(d[2]));
    if (v == CGAL::NULL_VECTOR) throw std::logic_error("ray_triangle_line_cgal: a zero direction is no line");
    const K::Line_3 line(p, v);
    std::optional<Rational> t;
    if (!CGAL::collinear(a, b, c)) {
        Rational near = 0, far = 0;
        for (size_t k = 0; k < 3; ++k) {
            const Rational q = dot(sub(tri[k], o), d) / dot(d, d);
            if (k == 0 || q < near) near = q;
            if (k == 0 || q > far) far = q;
        }
        const K::Segment_3 along(p + to_cgal(Rational(near - 1)) * v, p + to_cgal(Rational(far + 1)) * v);
        t = first_param(CGAL::intersection(along, K::Triangle_3(a, b, c)), p, v);
    } else if (a == b && b == c) {
        if (line.has_on(a)) t = from_cgal((a - p) * v / v.squared_length());
    } else {
        K::Segment_3 s(a, b);
        const auto ab = CGAL::squared_distance(a, b), bc = CGAL::squared_distance(b, c), ca = CGAL::squared_distance(c, a);
        if (bc >= ab && bc >= ca) s = K::Segment_3(b, c);
        else if (ca >= ab && ca >= bc) s = K::Segment_3(c, a);
        t = first_param(CGAL::intersection(line, s), p, v);
    }
    if (!t) return r;
    r.hit = true;
    r.t = *t;
    if (!CGAL::collinear(a, b, c)) {
        r.has_uv = true;
        barycentrics(tri, Point{o[0] + r.t * d[0], o[1] + r.t * d[1], o[2] + r.t * d[2]}, r.u, r.v);
    }
    return r;
}

RayTriangleExact ray_triangle_cgal(const Point& o, const Point& d, const std::optional<Rational>& tmax,
                                   const std::array<Point, 3>& tri, bool cull_back) {
    RayTriangleExact r = two_sided_cgal(o, d, tmax, tri);
    if (!cull_back || !r.hit) return r;
    // The front face: a + d on the negative side of the plane through a, b, c.
    const K::Point_3 a = to_cgal(tri[0]), b = to_cgal(tri[1]), c = to_cgal(tri[2]);
    const K::Vector_3 v(to_cgal(d[0]), to_cgal(d[1]), to_cgal(d[2]));
    if (CGAL::orientation(a, b, c, a + v) != CGAL::NEGATIVE) return RayTriangleExact{};
    return r;
}

// --- ray_sphere ----------------------------------------------------------------------

// The query as CGAL names it: the Point_3 o for a zero direction or tmax =
// 0 (a degenerate Segment_3 or Ray_3 breaks their preconditions), else the
// Segment_3 to o + tmax d or the Ray_3. Hit iff its squared distance to c is
// at most r^2. The roots from the line, not from the quadratic: the foot of c
// on Line_3(o, d) at parameter t0 and w^2 = (r^2 - dist^2(c, line)) / d.d,
// the roots t0 -+ w; the one nearer 0 as (t0^2 - w^2) / (t0 +- w), by its
// conjugate, so that nothing cancels.
namespace {
/// The line o + t v against the sphere |x - c|^2 = r2 (it meets the ball):
/// the lesser and the greater root as the nearest doubles.
std::pair<double, double> line_roots(const K::Point_3& p, const K::Vector_3& v, const K::Point_3& centre, const CGAL::Gmpq& r2) {
    const K::Line_3 line(p, v);
    const CGAL::Gmpq a = v.squared_length();
    const CGAL::Gmpq t0 = (line.projection(centre) - p) * v / a;
    const CGAL::Gmpq w2 = (r2 - CGAL::squared_distance(centre, line)) / a;
    const Rational t0r = from_cgal(t0), w2r = from_cgal(w2), near_num = from_cgal(t0 * t0 - w2);
    // t0 >= 0: t0 + w is the far root, t0 - w = (t0^2 - w^2) / (t0 + w);
    // t0 < 0 the other way round.
    const int s = t0 >= 0 ? 1 : -1;
    const double far = root_to_double(t0r, s, w2r, Rational(1));
    const double near = near_num == 0 ? 0.0 : root_quotient_to_double(near_num, t0r, s, w2r);
    return s > 0 ? std::pair{near, far} : std::pair{far, near};
}

RaySphereExact ball_cgal(const Point& o, const Point& d, const std::optional<Rational>& tmax, const Point& c,
                         const Rational& r) {
    const K::Point_3 p = to_cgal(o), centre = to_cgal(c);
    const K::Vector_3 v(to_cgal(d[0]), to_cgal(d[1]), to_cgal(d[2]));
    const CGAL::Gmpq r2 = to_cgal(r) * to_cgal(r);
    const double t_max = tmax ? to_double(*tmax) : std::numeric_limits<double>::infinity();
    RaySphereExact out;
    const bool origin_in = CGAL::squared_distance(centre, p) <= r2;
    if (v == CGAL::NULL_VECTOR || (tmax && *tmax == 0)) {
        out.hit = origin_in;
        if (out.hit) out.t_exit = t_max;
        return out;
    }
    const K::Point_3 end = tmax ? p + to_cgal(*tmax) * v : p;
    const CGAL::Gmpq dist2 = tmax ? CGAL::squared_distance(centre, K::Segment_3(p, end))
                                  : CGAL::squared_distance(centre, K::Ray_3(p, v));
    if (dist2 > r2) return out;
    out.hit = true;
    const auto [lesser, greater] = line_roots(p, v, centre, r2);
    out.t_enter = origin_in ? 0 : lesser;
    out.t_exit = tmax && CGAL::squared_distance(centre, end) <= r2 ? t_max : greater;
    return out;
}
}  // namespace

// The line convention: Line_3 against the ball, the roots t0 -+ w as above
// with nothing clamped.
RaySphereExact ray_sphere_line_cgal(const Point& o, const Point& d, const Point& c, const Rational& r) {
    const K::Point_3 p = to_cgal(o), centre = to_cgal(c);
    const K::Vector_3 v(to_cgal(d[0]), to_cgal(d[1]), to_cgal(d[2]));
    if (v == CGAL::NULL_VECTOR) throw std::logic_error("ray_sphere_line_cgal: a zero direction is no line");
    const CGAL::Gmpq r2 = to_cgal(r) * to_cgal(r);
    RaySphereExact out;
    if (CGAL::squared_distance(centre, K::Line_3(p, v)) > r2) return out;
    out.hit = true;
    std::tie(out.t_enter, out.t_exit) = line_roots(p, v, centre, r2);
    return out;
}

// The surface convention from the points themselves: the origin, and the
// query's end point, against the ball by squared distance.
RaySphereExact ray_sphere_cgal(const Point& o, const Point& d, const std::optional<Rational>& tmax, const Point& c,
                               const Rational& r, bool surface) {
    const RaySphereExact ball = ball_cgal(o, d, tmax, c, r);
    if (!surface) return ball;
    const K::Point_3 p = to_cgal(o), centre = to_cgal(c);
    const K::Vector_3 v(to_cgal(d[0]), to_cgal(d[1]), to_cgal(d[2]));
    const CGAL::Gmpq r2 = to_cgal(r) * to_cgal(r);
    const bool origin_inside = CGAL::squared_distance(centre, p) < r2;
    bool end_inside = false;
    if (v == CGAL::NULL_VECTOR) end_inside = origin_inside;
    else if (tmax) end_inside = CGAL::squared_distance(centre, p + to_cgal(*tmax) * v) < r2;
    return sphere_surface(ball, origin_inside, end_inside);
}

// --- triangle_measures, polygon_measures ---------------------------------------------

namespace {
int sign_of(CGAL::Oriented_side s) { return s == CGAL::ON_POSITIVE_SIDE ? 1 : (s == CGAL::ON_NEGATIVE_SIDE ? -1 : 0); }
}  // namespace

TriangleMeasuresExact triangle_measures_cgal(const std::array<Point, 3>& tri, const Point& p) {
    TriangleMeasuresExact m;
    const K::Point_3 a = to_cgal(tri[0]), b = to_cgal(tri[1]), c = to_cgal(tri[2]), q = to_cgal(p);
    m.area2 = from_cgal(CGAL::squared_area(a, b, c));
    m.degenerate = CGAL::collinear(a, b, c);
    if (m.degenerate) return m;
    m.centre = from_cgal(CGAL::circumcenter(a, b, c));
    m.radius2 = from_cgal(CGAL::squared_radius(a, b, c));
    const K::Plane_3 plane(a, b, c);
    const K::Point_3 x = plane.projection(q);
    // Barycentrics as ratios of signed areas, signed along the plane normal.
    const K::Vector_3 n = plane.orthogonal_vector();
    const K::FT whole = CGAL::cross_product(b - a, c - a) * n;
    m.u = from_cgal(CGAL::cross_product(x - a, c - a) * n / whole);
    m.v = from_cgal(CGAL::cross_product(b - a, x - a) * n / whole);
    m.distance2 = from_cgal(CGAL::squared_distance(q, plane));
    m.distance_sign = sign_of(plane.oriented_side(q));
    return m;
}

PolygonExact polygon_cgal(const std::vector<Point>& poly, const Point& q) {
    PolygonExact out;
    std::vector<K::Point_3> pts;
    for (const Point& x : poly) pts.push_back(to_cgal(x));
    K::Vector_3 n(0, 0, 0);
    CGAL::normal_vector_newell_3(pts.begin(), pts.end(), n);
    out.normal = {from_cgal(n.x()), from_cgal(n.y()), from_cgal(n.z())};
    K::FT offset = 0;
    for (const K::Point_3& x : pts) offset += (x - CGAL::ORIGIN) * n;
    offset /= int(pts.size());
    out.offset = from_cgal(offset);
    if (n == CGAL::NULL_VECTOR) return out;
    const K::Plane_3 plane(n.x(), n.y(), n.z(), -offset);
    out.distance2 = from_cgal(CGAL::squared_distance(to_cgal(q), plane));
    out.distance_sign = sign_of(plane.oriented_side(to_cgal(q)));
    const CGAL::Projection_traits_3<K> traits(n);
    const auto orientation = traits.orientation_2_object();
    const size_t k = pts.size();
    out.convex = true;
    for (size_t i = 0; i < k && out.convex; ++i)
        for (size_t j = 0; j < k; ++j)
            if (j != i && j != (i + 1) % k && orientation(pts[i], pts[(i + 1) % k], pts[j]) == CGAL::RIGHT_TURN)
                out.convex = false;
    return out;
}

// --- triangle_triangle -----------------------------------------------------------
// On Epeck (exact constructions, evaluated lazily behind interval filters):
// the same exact answers as the rational kernel at a tenth of the cost on
// ordinary input, which matters here, where the references judge one case in
// 256 and the two Triangle_3 tests are the most expensive of any family's.

namespace {

using E = CGAL::Exact_predicates_exact_constructions_kernel;

/// Epeck's exact number type, GMP's mpq_class, from and to a Rational.
using EpeckExact = CGAL::Exact_predicates_exact_constructions_kernel::FT::Exact_type;
E::FT to_epeck(const Rational& r) { return E::FT(EpeckExact(r.backend().data())); }
Rational from_epeck(const E::FT& x) { return Rational(CGAL::exact(x).get_mpq_t()); }
E::Point_3 to_epeck(const Point& p) { return {to_epeck(p[0]), to_epeck(p[1]), to_epeck(p[2])}; }
Point from_epeck(const E::Point_3& p) { return {from_epeck(p.x()), from_epeck(p.y()), from_epeck(p.z())}; }

/// A triangle as CGAL can take it: Triangle_3 needs three non-collinear
/// points (unchecked), so a collinear one is the Segment_3 between its two
/// farthest vertices and a repeated one a Point_3.
struct CgalShape {
    int kind = 0;  ///< 2 triangle, 1 segment, 0 point
    E::Triangle_3 t;
    E::Segment_3 s;
    E::Point_3 p;
};

CgalShape cgal_shape(const std::array<Point, 3>& v) {
    const E::Point_3 a = to_epeck(v[0]), b = to_epeck(v[1]), c = to_epeck(v[2]);
    CgalShape out;
    out.p = a;
    if (!CGAL::collinear(a, b, c)) {
        out.kind = 2;
        out.t = E::Triangle_3(a, b, c);
        return out;
    }
    if (a == b && b == c) return out;
    out.kind = 1;
    const auto ab = CGAL::squared_distance(a, b), bc = CGAL::squared_distance(b, c), ca = CGAL::squared_distance(c, a);
    out.s = E::Segment_3(a, b);
    if (bc >= ab && bc >= ca) out.s = E::Segment_3(b, c);
    else if (ca >= ab && ca >= bc) out.s = E::Segment_3(c, a);
    return out;
}

}  // namespace

TriangleTriangleExact triangle_triangle_cgal(const std::array<Point, 3>& t1, const std::array<Point, 3>& t2) {
    const CgalShape a = cgal_shape(t1), b = cgal_shape(t2);
    TriangleTriangleExact r;
    if (a.kind == 2 && b.kind == 2) {
        r.meet = CGAL::do_intersect(a.t, b.t);
        const E::Plane_3 plane = a.t.supporting_plane();
        const bool coplanar = plane.has_on(b.t.vertex(0)) && plane.has_on(b.t.vertex(1)) && plane.has_on(b.t.vertex(2));
        if (!r.meet || coplanar) return r;
        const auto x = CGAL::intersection(a.t, b.t);
        if (!x) throw std::logic_error("CGAL: do_intersect(Triangle_3, Triangle_3) says yes, intersection is empty");
        r.has_segment = true;
        if (const E::Segment_3* seg = boost::get<E::Segment_3>(&*x)) {
            r.p = from_epeck(seg->source());
            r.q = from_epeck(seg->target());
        } else if (const E::Point_3* pt = boost::get<E::Point_3>(&*x)) {
            r.p = r.q = from_epeck(*pt);
        } else {
            throw std::logic_error("CGAL: two triangles that are not coplanar meet in more than a segment");
        }
        return r;
    }
    const CgalShape& tri = a.kind == 2 ? a : b;
    const CgalShape& other = a.kind == 2 ? b : a;
    if (tri.kind == 2) {
        r.meet = other.kind == 1 ? CGAL::do_intersect(tri.t, other.s) : tri.t.has_on(other.p);
    } else if (a.kind == 1 && b.kind == 1) {
        r.meet = CGAL::do_intersect(a.s, b.s);
    } else if (a.kind == 1 || b.kind == 1) {
        const CgalShape& seg = a.kind == 1 ? a : b;
        const CgalShape& point = a.kind == 1 ? b : a;
        r.meet = seg.s.has_on(point.p);
    } else {
        r.meet = a.p == b.p;
    }
    return r;
}

// --- segment_segment ---------------------------------------------------------------

// CGAL 5.5's Segment_3 x Segment_3 distance handles a segment whose ends are
// equal, but only by an assertion-guarded branch; a Point_3 says it plainly.
Rational segment_segment_cgal(const Point& p1, const Point& q1, const Point& p2, const Point& q2) {
    const K::Point_3 a = to_cgal(p1), b = to_cgal(q1), c = to_cgal(p2), d = to_cgal(q2);
    const bool point1 = a == b, point2 = c == d;
    if (point1 && point2) return from_cgal(CGAL::squared_distance(a, c));
    if (point1) return from_cgal(CGAL::squared_distance(a, K::Segment_3(c, d)));
    if (point2) return from_cgal(CGAL::squared_distance(c, K::Segment_3(a, b)));
    return from_cgal(CGAL::squared_distance(K::Segment_3(a, b), K::Segment_3(c, d)));
}

// --- point_triangle ----------------------------------------------------------------

// CGAL 5.5 handles a collinear Triangle_3 (it falls back to the edges); a
// triangle whose vertices are equal is a Point_3.
Rational point_triangle_cgal(const Point& a, const Point& b, const Point& c, const Point& p) {
    const K::Point_3 x = to_cgal(a), y = to_cgal(b), z = to_cgal(c), q = to_cgal(p);
    if (x == y && y == z) return from_cgal(CGAL::squared_distance(q, x));
    return from_cgal(CGAL::squared_distance(q, K::Triangle_3(x, y, z)));
}

}  // namespace isect::ref
