#include "isect/ref/segment_segment.hpp"

namespace isect::ref {

namespace {

/// The least of A x^2 + 2 B x + C over x in [0, 1] (A >= 0): its argument
/// and value.
struct EdgeMinimum {
    Rational x, value;
};
EdgeMinimum edge_minimum(const Rational& A, const Rational& B, const Rational& C) {
    if (A == 0 || B >= 0) return {0, C};
    if (A + B <= 0) return {1, A + 2 * B + C};
    return {-B / A, C - B * B / A};
}

}  // namespace

SegmentSegmentExact segment_segment_rational(const Point& p1, const Point& q1, const Point& p2, const Point& q2) {
    const Point d1 = sub(q1, p1), d2 = sub(q2, p2);
    const auto at = [&](const Rational& s, const Rational& t) {
        Point g;
        for (size_t i = 0; i < 3; ++i) g[i] = (p1[i] + s * d1[i]) - (p2[i] + t * d2[i]);
        return SegmentSegmentExact{dot(g, g), s, t};
    };
    // D(s, t) = |r + s d1 - t d2|^2 = rr + 2 c s - 2 f t + a s^2 - 2 b s t + e t^2
    // with r = p1 - p2, c = d1 . r, f = d2 . r.
    const Point r = sub(p1, p2);
    const Rational a = dot(d1, d1), e = dot(d2, d2), b = dot(d1, d2), c = dot(d1, r), f = dot(d2, r), rr = dot(r, r);
    // The unconstrained minimum (grad D = 0: a s - b t = -c, -b s + e t = f),
    // where unique and inside the square, is the least: D is convex.
    const Rational det = a * e - b * b;
    if (det > 0) {
        const Rational s = (b * f - c * e) / det, t = (a * f - b * c) / det;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) return at(s, t);
    }
    // Else on an edge: one parameter at 0 or 1, the other D's least along it,
    // a clamped root. The edges are compared by their values from the
    // coefficients; the one returned is evaluated from its two points.
    const EdgeMinimum s0 = edge_minimum(e, -f, rr), s1 = edge_minimum(e, -(f + b), rr + 2 * c + a);
    const EdgeMinimum t0 = edge_minimum(a, c, rr), t1 = edge_minimum(a, c - b, rr - 2 * f + e);
    const EdgeMinimum* best = &s0;
    for (const EdgeMinimum* x : {&s1, &t0, &t1})
        if (x->value < best->value) best = x;
    if (best == &s0) return at(0, s0.x);
    if (best == &s1) return at(1, s1.x);
    if (best == &t0) return at(t0.x, 0);
    return at(t1.x, 1);
}

}  // namespace isect::ref
