#include "isect/ref/ray_triangle.hpp"

namespace isect::ref {

namespace {

bool is_zero(const Point& p) { return p[0] == 0 && p[1] == 0 && p[2] == 0; }

Point along(const Point& o, const Point& d, const Rational& t) { return {o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]}; }

/// Intersects [lo, hi] (hi nullopt: +inf) with {t : alpha + t beta >= 0}.
/// Returns false when the result is empty.
bool clip(Rational& lo, std::optional<Rational>& hi, const Rational& alpha, const Rational& beta) {
    if (beta == 0) return alpha >= 0;
    const Rational root = -alpha / beta;
    if (beta > 0) {
        if (root > lo) lo = root;
    } else if (!hi || root < *hi) {
        hi = root;
    }
    return !hi || lo <= *hi;
}

/// The ray against the segment [p, q] (a point when p == q).
RayTriangleExact ray_segment(const Point& o, const Point& d, const std::optional<Rational>& tmax, const Point& p,
                             const Point& q) {
    RayTriangleExact r;
    const Point w = sub(q, p), op = sub(p, o);
    if (is_zero(d)) {  // the query is the point o: on [p, q], hit at t = 0
        const Rational k = -dot(op, w), ww = dot(w, w);
        if (!is_zero(cross(op, w)) || k < 0 || k > ww || (ww == 0 && !is_zero(op))) return r;
        r.hit = true;
        r.t = 0;
        return r;
    }
    const Point dw = cross(d, w);
    Rational lo = 0;
    std::optional<Rational> hi = tmax;
    if (!is_zero(dw)) {
        if (dot(op, dw) != 0) return r;  // skew lines
        const Rational n2 = dot(dw, dw);
        const Rational t = dot(cross(op, w), dw) / n2, s = dot(cross(op, d), dw) / n2;
        if (s < 0 || s > 1 || t < 0 || (tmax && t > *tmax)) return r;
        r.hit = true;
        r.t = t;
        return r;
    }
    if (!is_zero(cross(op, d))) return r;  // parallel lines apart
    const Rational dd = dot(d, d);
    Rational tp = dot(op, d) / dd, tq = dot(sub(q, o), d) / dd;
    if (tp > tq) std::swap(tp, tq);
    if (tp > lo) lo = tp;
    if (!hi || tq < *hi) hi = tq;
    if (lo > *hi) return r;
    r.hit = true;
    r.t = lo;
    return r;
}

}  // namespace

void barycentrics(const std::array<Point, 3>& tri, const Point& p, Rational& u, Rational& v) {
    const Point e1 = sub(tri[1], tri[0]), e2 = sub(tri[2], tri[0]), ap = sub(p, tri[0]);
    const Point n = cross(e1, e2);
    const Rational nn = dot(n, n);
    u = dot(cross(ap, e2), n) / nn;
    v = dot(cross(e1, ap), n) / nn;
}

namespace {
RayTriangleExact two_sided_rational(const Point& o, const Point& d, const std::optional<Rational>& tmax,
                                    const std::array<Point, 3>& tri) {
    const Point& a = tri[0];
    const Point e1 = sub(tri[1], a), e2 = sub(tri[2], a), s = sub(o, a);
    const Point n = cross(e1, e2);
    RayTriangleExact r;
    if (is_zero(n)) {  // degenerate: the longest edge, or a point
        const Rational l01 = dot(e1, e1), l02 = dot(e2, e2), l12 = dot(sub(tri[2], tri[1]), sub(tri[2], tri[1]));
        if (l12 >= l01 && l12 >= l02) return ray_segment(o, d, tmax, tri[1], tri[2]);
        if (l02 >= l01) return ray_segment(o, d, tmax, a, tri[2]);
        return ray_segment(o, d, tmax, a, tri[1]);
    }
    const Rational dn = dot(d, n);
    if (dn != 0) {
        // o + t d = a + u e1 + v e2, by Cramer's rule on [-d, e1, e2].
        const Rational det = -dn;
        const Rational t = dot(s, n) / det;
        const Rational u = -dot(d, cross(s, e2)) / det;
        const Rational v = -dot(d, cross(e1, s)) / det;
        if (u < 0 || v < 0 || u + v > 1 || t < 0 || (tmax && t > *tmax)) return r;
        r.hit = true;
        r.t = t;
        r.has_uv = true;
        r.u = u;
        r.v = v;
        return r;
    }
    if (dot(s, n) != 0) return r;  // parallel, off the plane
    // In the plane: inside iff ((p_k+1 - p_k) x (x - p_k)) . n >= 0 for each
    // edge, linear in t along the ray.
    Rational lo = 0;
    std::optional<Rational> hi = tmax;
    for (int k = 0; k < 3; ++k) {
        const Point& p = tri[size_t(k)];
        const Point edge = sub(tri[size_t((k + 1) % 3)], p);
        if (!clip(lo, hi, dot(cross(edge, sub(o, p)), n), dot(cross(edge, d), n))) return r;
    }
    r.hit = true;
    r.t = lo;
    r.has_uv = true;
    barycentrics(tri, along(o, d, lo), r.u, r.v);
    return r;
}

}  // namespace

RayTriangleExact ray_triangle_rational(const Point& o, const Point& d, const std::optional<Rational>& tmax,
                                       const std::array<Point, 3>& tri, bool cull_back) {
    RayTriangleExact r = two_sided_rational(o, d, tmax, tri);
    if (cull_back && r.hit && !(dot(d, cross(sub(tri[1], tri[0]), sub(tri[2], tri[0]))) < 0)) return RayTriangleExact{};
    return r;
}

}  // namespace isect::ref
