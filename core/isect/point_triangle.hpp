// The closest point of a closed triangle abc to a point p (a collinear
// triangle is the segment between its extreme vertices, a repeated one a
// point): the point q, its squared distance, barycentric weights v, w with
// q = a + v (b - a) + w (c - a), and its Voronoi region: the vertex, the edge
// or the face whose relative interior holds q. Where p lies on the boundary
// of two regions (q at the end of an edge, on the rim of the face), either
// neighbour is right; the checker accepts any region whose feature's
// nearest point to p is q.
//
// Kernels:
//  - closest_point_triangle_ericson: Ericson, Real-Time Collision
//    Detection, section 5.1.5 (ClosestPtPointTriangle): the six dot
//    products d1..d6 of the edges with p's offsets from the vertices decide
//    the vertex regions, three scaled signed areas va, vb, vc the edge
//    regions, and the face gives v = vb / (va + vb + vc), w = vc / (...).
//    Written for proper triangles: a collinear one has va + vb + vc = 0 and
//    the face branch divides by it (declare proper_triangle). Run in the
//    arithmetic R given.
//  - closest_point_triangle_exact: the same regions decided with exact
//    signs (each a polynomial of degree at most 4 in the inputs, filtered
//    with a running error bound, then expansions); a degenerate triangle
//    goes to its three edges as point-segment minima
//    (isect/segment_segment.hpp). Its numbers are the fractions rounded in
//    double. Float input everywhere; double input in 2^-100:2^100.
//
// Domain: finite values. NaN input gives an answer, not a promise.
#pragma once

#include "isect/segment_segment.hpp"

namespace isect {

/// The Voronoi regions, in the order the checker names them.
enum class TriangleRegion { vertex_a, vertex_b, vertex_c, edge_ab, edge_bc, edge_ca, face };

struct PointTriangleClosest {
    TriangleRegion region = TriangleRegion::vertex_a;
    double dist2 = 0, v = 0, w = 0;
    Vec3d q{};
};

/// Ericson's ClosestPtPointTriangle in arithmetic R, with the region it took.
template <class R, class T>
inline PointTriangleClosest closest_point_triangle_ericson(const BasicTriangle<T>& t, const std::array<T, 3>& point) {
    using V = std::array<R, 3>;
    const auto at = [](const std::array<T, 3>& x) { return V{R(x[0]), R(x[1]), R(x[2])}; };
    const auto minus = [](const V& x, const V& y) { return V{x[0] - y[0], x[1] - y[1], x[2] - y[2]}; };
    const auto dot3 = [](const V& x, const V& y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; };
    const V a = at(t.v[0]), b = at(t.v[1]), c = at(t.v[2]), p = at(point);
    const V ab = minus(b, a), ac = minus(c, a), ap = minus(p, a);
    PointTriangleClosest out;
    R v = 0, w = 0;
    const auto done = [&](TriangleRegion region) {
        out.region = region;
        out.v = double(v);
        out.w = double(w);
        R d2 = 0;
        for (size_t i = 0; i < 3; ++i) {
            const R q = a[i] + ab[i] * v + ac[i] * w;
            out.q[i] = double(q);
            d2 += (p[i] - q) * (p[i] - q);
        }
        out.dist2 = double(d2);
        return out;
    };
    const R d1 = dot3(ab, ap), d2 = dot3(ac, ap);
    if (d1 <= 0 && d2 <= 0) return done(TriangleRegion::vertex_a);
    const V bp = minus(p, b);
    const R d3 = dot3(ab, bp), d4 = dot3(ac, bp);
    if (d3 >= 0 && d4 <= d3) {
        v = 1;
        return done(TriangleRegion::vertex_b);
    }
    const R vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        v = d1 / (d1 - d3);
        return done(TriangleRegion::edge_ab);
    }
    const V cp = minus(p, c);
    const R d5 = dot3(ab, cp), d6 = dot3(ac, cp);
    if (d6 >= 0 && d5 <= d6) {
        w = 1;
        return done(TriangleRegion::vertex_c);
    }
    const R vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        w = d2 / (d2 - d6);
        return done(TriangleRegion::edge_ca);
    }
    const R va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        v = 1 - w;
        return done(TriangleRegion::edge_bc);
    }
    const R denom = R(1) / (va + vb + vc);
    v = vb * denom;
    w = vc * denom;
    return done(TriangleRegion::face);
}

namespace detail {

/// The closest point as fractions in Ops (as segment_minimum): region, v =
/// v_num / den, w = w_num / den, dist2 = d_num / d_den.
/// What the triangle is, as the algorithm's signs found it: a proper one (a
/// nonzero normal), three collinear points, or one point thrice.
enum class TriangleShape : unsigned char { proper, collinear, point };

template <class NT> struct TriangleMinimum {
    TriangleRegion region;
    NT v_num, w_num, den, d_num, d_den;
    TriangleShape shape = TriangleShape::proper;
};

template <class Ops, class V>
TriangleMinimum<typename Ops::NT> point_triangle_minimum(const V& a, const V& b, const V& c, const V& p) {
    using NT = typename Ops::NT;
    const auto minus = [](const V& x, const V& y) { return V{NT(x[0] - y[0]), NT(x[1] - y[1]), NT(x[2] - y[2])}; };
    const auto dot3 = [](const V& x, const V& y) { return NT(x[0] * y[0] + x[1] * y[1] + x[2] * y[2]); };
    const NT zero = Ops::of(0.0), one = Ops::of(1.0);
    const V ab = minus(b, a), ac = minus(c, a), ap = minus(p, a), bp = minus(p, b), cp = minus(p, c);
    const V n{NT(ab[1] * ac[2] - ab[2] * ac[1]), NT(ab[2] * ac[0] - ab[0] * ac[2]), NT(ab[0] * ac[1] - ab[1] * ac[0])};
    if (Ops::sgn(n[0]) == 0 && Ops::sgn(n[1]) == 0 && Ops::sgn(n[2]) == 0) {
        // A segment or a point: the least of its three edges, each a
        // point-segment minimum; the first least (ab, bc, ca).
        const SegmentMinimum<NT> e[3] = {segment_minimum<Ops>(p, p, a, b), segment_minimum<Ops>(p, p, b, c),
                                         segment_minimum<Ops>(p, p, c, a)};
        int best = 0;
        for (int i = 1; i < 3; ++i)
            if (Ops::sgn(NT(e[i].d_num * e[best].d_den - e[best].d_num * e[i].d_den)) < 0) best = i;
        const SegmentMinimum<NT>& m = e[best];
        const int st = Ops::sgn(m.t_num), end = Ops::sgn(NT(m.t_den - m.t_num));
        static constexpr TriangleRegion kFrom[3] = {TriangleRegion::vertex_a, TriangleRegion::vertex_b, TriangleRegion::vertex_c};
        static constexpr TriangleRegion kTo[3] = {TriangleRegion::vertex_b, TriangleRegion::vertex_c, TriangleRegion::vertex_a};
        static constexpr TriangleRegion kEdge[3] = {TriangleRegion::edge_ab, TriangleRegion::edge_bc, TriangleRegion::edge_ca};
        const TriangleRegion region = st == 0 ? kFrom[best] : end == 0 ? kTo[best] : kEdge[best];
        // A point when its edges ab and bc are points (p to p against a
        // segment: the segment is a point exactly when both are).
        const TriangleShape shape = e[0].shape == SegmentShape::both_points && e[1].shape == SegmentShape::both_points
                                        ? TriangleShape::point
                                        : TriangleShape::collinear;
        // v, w of the point at t along the edge.
        const NT rest = NT(m.t_den - m.t_num);
        if (best == 0) return {region, m.t_num, zero, m.t_den, m.d_num, m.d_den, shape};
        if (best == 1) return {region, rest, m.t_num, m.t_den, m.d_num, m.d_den, shape};
        return {region, zero, rest, m.t_den, m.d_num, m.d_den, shape};
    }
    const NT d1 = dot3(ab, ap), d2 = dot3(ac, ap), app = dot3(ap, ap);
    if (Ops::sgn(d1) <= 0 && Ops::sgn(d2) <= 0) return {TriangleRegion::vertex_a, zero, zero, one, app, one};
    const NT d3 = dot3(ab, bp), d4 = dot3(ac, bp);
    if (Ops::sgn(d3) >= 0 && Ops::sgn(NT(d4 - d3)) <= 0) return {TriangleRegion::vertex_b, one, zero, one, dot3(bp, bp), one};
    // An edge x -> y, p - x = xp, the least at (xp . xy) / |xy|^2: dist2 =
    // (|xp|^2 |xy|^2 - (xp . xy)^2) / |xy|^2.
    const auto edge_d = [&](const V& xp, const V& xy) {
        const NT l = dot3(xy, xy), k = dot3(xp, xy);
        return std::pair<NT, NT>{NT(dot3(xp, xp) * l - k * k), l};
    };
    const NT vc = NT(d1 * d4 - d3 * d2);
    if (Ops::sgn(vc) <= 0 && Ops::sgn(d1) >= 0 && Ops::sgn(d3) <= 0) {
        const auto [dn, dd] = edge_d(ap, ab);
        return {TriangleRegion::edge_ab, d1, zero, NT(d1 - d3), dn, dd};
    }
    const NT d5 = dot3(ab, cp), d6 = dot3(ac, cp);
    if (Ops::sgn(d6) >= 0 && Ops::sgn(NT(d5 - d6)) <= 0) return {TriangleRegion::vertex_c, zero, one, one, dot3(cp, cp), one};
    const NT vb = NT(d5 * d2 - d1 * d6);
    if (Ops::sgn(vb) <= 0 && Ops::sgn(d2) >= 0 && Ops::sgn(d6) <= 0) {
        const auto [dn, dd] = edge_d(ap, ac);
        return {TriangleRegion::edge_ca, zero, d2, NT(d2 - d6), dn, dd};
    }
    const NT va = NT(d3 * d6 - d5 * d4);
    const NT e43 = NT(d4 - d3), e56 = NT(d5 - d6);
    if (Ops::sgn(va) <= 0 && Ops::sgn(e43) >= 0 && Ops::sgn(e56) >= 0) {
        const auto [dn, dd] = edge_d(bp, minus(c, b));
        return {TriangleRegion::edge_bc, e56, e43, NT(e43 + e56), dn, dd};
    }
    // The face: dist2 = (n . ap)^2 / (n . n); v = vb / (va + vb + vc).
    const NT h = dot3(n, ap);
    return {TriangleRegion::face, vb, vc, NT(va + vb + vc), NT(h * h), dot3(n, n)};
}

}  // namespace detail

/// The region decided exactly; numbers from the fractions, in double.
/// exact (float input everywhere; double input in 2^-100:2^100).
template <class T>
inline PointTriangleClosest closest_point_triangle_exact(const BasicTriangle<T>& t, const std::array<T, 3>& point) {
    constexpr double tol = detail::handout_tolerance<T>();
    const double big = detail::largest_magnitude<T>({&t.v[0], &t.v[1], &t.v[2], &point});
    struct Fractions {
        TriangleRegion region;
        double vn, wn, den, dnum, dden;
    };
    // As closest_segment_segment_exact: two filters, then expansions.
    const Fractions f = detail::filtered([&](auto ops) {
        using Ops = decltype(ops);
        using NT = typename Ops::NT;
        using V = std::array<NT, 3>;
        const auto at = [](const std::array<T, 3>& x) { return V{Ops::of(double(x[0])), Ops::of(double(x[1])), Ops::of(double(x[2]))}; };
        const auto m = detail::point_triangle_minimum<Ops>(at(t.v[0]), at(t.v[1]), at(t.v[2]), at(point));
        if (!detail::close_enough(m.v_num, m.den, m.w_num, m.den, m.d_num, m.d_den, big, tol)) detail::filter_failed = true;
        return Fractions{m.region, detail::value_of(m.v_num), detail::value_of(m.w_num), detail::value_of(m.den),
                         Ops::sgn(m.d_num) == 0 ? 0.0 : detail::value_of(m.d_num), detail::value_of(m.d_den)};
    });
    const TriangleRegion region = f.region;
    const double vn = f.vn, wn = f.wn, dn_ = f.den, dnum = f.dnum, dden = f.dden;
    PointTriangleClosest out;
    out.region = region;
    out.v = vn / dn_;
    out.w = wn / dn_;
    // q in long double (64 significant bits on x86), then rounded once: on
    // double input a double combination would cost a few ulps of the edges.
    for (size_t i = 0; i < 3; ++i) {
        const long double a = t.v[0][i];
        out.q[i] = double(a + ((long double)t.v[1][i] - a) * (long double)out.v + ((long double)t.v[2][i] - a) * (long double)out.w);
    }
    out.dist2 = dnum == 0 ? 0.0 : dnum / dden;
    return out;
}

}  // namespace isect
