#include <boost/multiprecision/mpfr.hpp>

#include "isect/ref/triangle_measures.hpp"

namespace isect::ref {

namespace {
int sign_of(const Rational& x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }
}  // namespace

double sqrt_to_double(const Rational& x, int sign) {
    using Mp = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<120>>;
    const Mp num(boost::multiprecision::numerator(x)), den(boost::multiprecision::denominator(x));
    const double root = Mp(sqrt(num / den)).convert_to<double>();
    return sign < 0 ? -root : root;
}

TriangleMeasuresExact triangle_measures_rational(const std::array<Point, 3>& tri, const Point& p) {
    TriangleMeasuresExact m;
    const Point e1 = sub(tri[1], tri[0]), e2 = sub(tri[2], tri[0]), ap = sub(p, tri[0]);
    const Point n = cross(e1, e2);
    const Rational nn = dot(n, n);
    m.area2 = nn / 4;
    m.degenerate = nn == 0;
    if (m.degenerate) return m;
    m.u = dot(cross(ap, e2), n) / nn;
    m.v = dot(cross(e1, ap), n) / nn;
    const Point c1 = cross(e2, n), c2 = cross(n, e1);
    const Rational l1 = dot(e1, e1), l2 = dot(e2, e2);
    Point rel;
    for (int i = 0; i < 3; ++i) {
        rel[size_t(i)] = (l1 * c1[size_t(i)] + l2 * c2[size_t(i)]) / (2 * nn);
        m.centre[size_t(i)] = tri[0][size_t(i)] + rel[size_t(i)];
    }
    m.radius2 = dot(rel, rel);
    const Rational s = dot(ap, n);
    m.distance2 = s * s / nn;
    m.distance_sign = sign_of(s);
    return m;
}

PolygonExact polygon_rational(const std::vector<Point>& poly, const Point& q) {
    PolygonExact out;
    const size_t k = poly.size();
    Point n{0, 0, 0};
    for (size_t i = 0; i < k; ++i) {
        const Point& a = poly[i];
        const Point& b = poly[(i + 1) % k];
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    out.normal = n;
    for (const Point& a : poly) out.offset += dot(a, n);
    out.offset /= Rational(int(k));
    const Rational nn = dot(n, n);
    if (nn == 0) return out;
    const Rational s = dot(q, n) - out.offset;
    out.distance2 = s * s / nn;
    out.distance_sign = sign_of(s);
    // Convex: every other vertex p_j on the inner side of every edge,
    // (e_i x (p_j - p_i)) . n >= 0, written as (p_j - p_i) . (n x e_i) so
    // that n x e_i and p_i . (n x e_i) are formed once per edge.
    out.convex = true;
    for (size_t i = 0; i < k && out.convex; ++i) {
        const Point inward = cross(n, sub(poly[(i + 1) % k], poly[i]));
        const Rational base = dot(poly[i], inward);
        for (size_t j = 0; j < k; ++j)
            if (j != i && j != (i + 1) % k && dot(poly[j], inward) < base) out.convex = false;
    }
    return out;
}

}  // namespace isect::ref
