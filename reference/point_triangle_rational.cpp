#include "isect/ref/point_triangle.hpp"

namespace isect::ref {

namespace {

/// The point of the closed segment [x, y] nearest p.
Point nearest_on_segment(const Point& x, const Point& y, const Point& p) {
    const Point e = sub(y, x);
    const Rational l = dot(e, e);
    if (l == 0) return x;
    Rational t = dot(sub(p, x), e) / l;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    return {x[0] + t * e[0], x[1] + t * e[1], x[2] + t * e[2]};
}

}  // namespace

PointTriangleExact point_triangle_rational(const Point& a, const Point& b, const Point& c, const Point& p) {
    const auto with = [&](const Point& q) {
        const Point g = sub(p, q);
        return PointTriangleExact{q, dot(g, g)};
    };
    const Point n = cross(sub(b, a), sub(c, a));
    const Rational nn = dot(n, n);
    if (nn != 0) {
        const Rational h = dot(n, sub(p, a)) / nn;
        const Point q0{p[0] - h * n[0], p[1] - h * n[1], p[2] - h * n[2]};
        // Inside the closed triangle: on the inner side of (or on) every edge.
        const auto inner = [&](const Point& x, const Point& y) { return dot(cross(sub(y, x), sub(q0, x)), n) >= 0; };
        if (inner(a, b) && inner(b, c) && inner(c, a)) return with(q0);
    }
    PointTriangleExact best = with(nearest_on_segment(a, b, p));
    for (const PointTriangleExact& x : {with(nearest_on_segment(b, c, p)), with(nearest_on_segment(c, a, p))})
        if (x.dist2 < best.dist2) best = x;
    return best;
}

}  // namespace isect::ref
