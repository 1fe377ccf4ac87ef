// ray_triangle's rational reference: the body of reference/fast/
// ray_triangle.hpp on exact numbers, its t, u and v as rationals.
#include "fast/ray_triangle.hpp"
#include "isect/ref/ray_triangle.hpp"

namespace isect::ref {

void barycentrics(const std::array<Point, 3>& tri, const Point& p, Rational& u, Rational& v) {
    const Point e1 = sub(tri[1], tri[0]), e2 = sub(tri[2], tri[0]), ap = sub(p, tri[0]);
    const Point n = cross(e1, e2);
    const Rational nn = dot(n, n);
    u = dot(cross(ap, e2), n) / nn;
    v = dot(cross(e1, ap), n) / nn;
}

RayTriangleCramer ray_triangle_cramer(const double* in) {
    using namespace fast::detail;
    const auto f = RayTriangleFrame<RationalOutOps>::of(in);
    const auto zero = [](const std::array<CGAL::Mpzf, 3>& p) { return p[0].is_zero() && p[1].is_zero() && p[2].is_zero(); };
    RayTriangleCramer out;
    out.zero_direction = zero(f.d);
    out.degenerate = zero(f.n);
    out.in_plane = dot(f.s, f.n).is_zero();
    const CGAL::Mpzf det = f.det();
    out.det = to_rational(det);
    if (det.is_zero()) return out;
    CGAL::Mpzf t, u, v;
    f.numerators(t, u, v);
    out.t = to_rational(t) / out.det;
    out.u = to_rational(u) / out.det;
    out.v = to_rational(v) / out.det;
    return out;
}

namespace {
RayTriangleExact of_body(const fast::detail::ExactResult& r) {
    RayTriangleExact out;
    out.hit = r.answer == 1;
    if (!out.hit) return out;
    out.t = r.values[0];
    out.has_uv = r.known[1];
    if (out.has_uv) {
        out.u = r.values[1];
        out.v = r.values[2];
    }
    return out;
}
}  // namespace

RayTriangleExact ray_triangle_rational(const double* in, bool cull_back) {
    using namespace fast::detail;
    return of_body(cull_back ? RayTriangleCullBody<RationalOutOps>::run(in) : RayTriangleBody<RationalOutOps>::run(in));
}

RayTriangleExact ray_triangle_line_rational(const double* in) {
    using namespace fast::detail;
    return of_body(RayTriangleLineBody<RationalOutOps>::run(in));
}

}  // namespace isect::ref
