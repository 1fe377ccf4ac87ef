// Ray vs closed triangle, two-sided: the points o + t d with t in [0, tmax]
// (tmax may be +inf) against the triangle conv(a, b, c). On a hit: the least
// such t, and the barycentrics u (weight of b) and v (weight of c) of the
// hit point, o + t d = (1 - u - v) a + u b + v c.
//
// Two kernels:
//  - ray_triangle_mt: Möller and Trumbore (1997), as seed 004 writes it but
//    without its absolute epsilon (det < 0.0001 rejects every triangle of
//    area below about 1e-4 at unit scale, and none at large scales) and
//    two-sided. In double: the inputs are floats, so every edge and every
//    cross product component is exact or rounds once, and det, u, v and t
//    are within a few double roundings of exact. A det within 2^-44 of
//    the permanents of det, u and v (the ray parallel to the plane or within
//    rounding of it, a ray lying in the plane, a degenerate triangle) is a
//    miss: there u and v are ratios of rounding noise, and one float
//    rounding of d can make the ray exactly parallel, which misses.
//    Contract tolerant=1 on inputs whose nonzero magnitudes lie in
//    2^-20..2^20 (beyond, a spread of scales over 2^29 rounds its
//    differences in double); t, u, v within 1 x 2^-24 of their condition
//    scale (check/families/ray_triangle.cpp).
//  - ray_triangle_watertight: Woop, Benthin and Wald, "Watertight ray/
//    triangle intersection" (JCGT 2013): the vertices are moved to the ray's
//    origin, the axes permuted so that the direction's largest component is
//    z, and sheared so the ray runs along +z; three 2D edge functions decide.
//    An edge shared by two triangles gets the same edge function, negated,
//    in both, so a ray through it hits at least one of them: no cracks. The
//    paper works in float with a double fallback for zero edge functions;
//    here all of it is in double, because in float 1 / d_z overflows for a
//    subnormal d_z and the translation and shear move the vertices by 2^-24
//    of their distance from the origin (the checker measured K above 10^5 on
//    the float version). Contract tolerant=1; t, u, v within 1 x 2^-24 of
//    their condition scale.
//
// A third, ray_triangle_exact, decides hit or miss exactly, as the reference
// defines it (check/families/ray_triangle.cpp): Möller-Trumbore's det, u, v and t are
// Cramer's numerators, each a triple product of differences of floats; in
// double each is within gamma(10) of its permanent (the same product with
// every term's absolute value), and a sign beyond that is certain. Where a
// sign is not, the numerators are recomputed as exact expansions (exact.hpp,
// degree 3). det = 0 exactly (a ray in the triangle's plane or parallel to
// it, a degenerate triangle) follows the reference's branches in exact
// arithmetic: off the plane, a miss; in the plane, the ray clipped by the
// three edges, each edge's test and root from 2D cross products taken along
// an axis where the normal is not 0 (degree 2, fractions compared at degree
// 4); a degenerate triangle as its longest edge. Every expansion stays at
// degree 4 or less, so nothing underflows for float inputs. Contract exact;
// its t, u and v are computed in double (within 1 x 2^-24 of their scale).
//
// The `cull_back` convention (isect check --convention cull_back): only the
// front face counts, the side the normal (b - a) x (c - a) of the
// counter-clockwise winding points to, so a hit needs d . n < 0; a ray in
// the plane and a degenerate triangle miss.
//  - ray_triangle_mt_cull: Möller and Trumbore's culling branch (TEST_CULL
//    in the paper): det = e1 . (d x e2) = -d . n must be > 0, no epsilon.
//
// Domain: finite floats except tmax, which may be +inf; tmax >= 0.
// Degenerate triangles (collinear or repeated vertices) are in the domain;
// both kernels call them a miss (det == 0), which the band allows. ±0 and
// subnormals are ordinary. Outside the domain: NaN gives a miss.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include "isect/exact.hpp"
#include "isect/filter.hpp"
#include "isect/fp.hpp"
#include "isect/primitives.hpp"

namespace isect {

/// A hit: t and the barycentrics of b (u) and c (v).
struct RayTriangleHit {
    bool hit = false;
    double t = 0, u = 0, v = 0;
};

namespace detail {

/// Möller-Trumbore in double, no epsilon: two-sided, or (Cull) the paper's
/// culling branch, front faces only: det = e1 . (d x e2) = -d . n must be
/// above 0, where the two-sided test flips s and det to make it so. Line:
/// the whole line, no t >= 0 and no tmax (the `line` convention).
template <bool Cull, class T, bool Line = false>
inline RayTriangleHit moller_trumbore(const std::array<T, 3>& o, const std::array<T, 3>& d, T tmax,
                                      const BasicTriangle<T>& tri) {
    const std::array<T, 3>& a = tri.v[0];
    const Vec3d e1 = sub(tri.v[1], a), e2 = sub(tri.v[2], a);
    const Vec3d dir{d[0], d[1], d[2]};
    const Vec3d p = cross(dir, e2);
    double det = dot(e1, p);
    Vec3d s = sub(o, a);
    if (!Cull && det < 0) {  // keep det > 0: flip s, as seed 004 does
        det = -det;
        s = {-s[0], -s[1], -s[2]};
    }
    RayTriangleHit r;
    // Near parallel (the header): det within a margin of the permanents of
    // det, u and v, where u and v are ratios of rounding noise, is a miss;
    // moving d by a float rounding can make the ray parallel (unless the
    // triangle is a sliver thinner than 2^-20 of its edges). Relative,
    // where an absolute epsilon would drop every small triangle.
    constexpr double near_parallel = std::is_same_v<T, float> ? 0x1p-44 : 0x1p-49;
    const Vec3d pm = abs_cross(dir, e2), qm = abs_cross(s, e1);
    if (!(det > near_parallel * (abs_dot(e1, pm) + abs_dot(s, pm) + abs_dot(dir, qm))))
        return r;  // parallel, near it, degenerate, a culled back face, or NaN
    const double u = dot(s, p);
    if (u < 0 || u > det) return r;
    const Vec3d q = cross(s, e1);
    const double v = dot(dir, q);
    if (v < 0 || u + v > det) return r;
    const double t = dot(e2, q);
    if (!Line && (t < 0 || t > double(tmax) * det)) return r;
    r.hit = true;
    r.t = t / det;
    r.u = u / det;
    r.v = v / det;
    return r;
}

}  // namespace detail

/// Möller-Trumbore in double, two-sided, no epsilon. tolerant=1. On
/// doubles (T = double) the same code is the double-precision kernel.
template <class T>
inline RayTriangleHit ray_triangle_mt(const std::array<T, 3>& o, const std::array<T, 3>& d, T tmax,
                                      const BasicTriangle<T>& tri) {
    return detail::moller_trumbore<false>(o, d, tmax, tri);
}

/// Möller-Trumbore on the whole line o + t d (the `line` convention: t over
/// all reals, tmax not read; glm's intersectLineTriangle). A line in the
/// triangle's plane misses (det = 0), as the ray does. tolerant=1.
template <class T>
inline RayTriangleHit line_triangle_mt(const std::array<T, 3>& o, const std::array<T, 3>& d, T tmax,
                                       const BasicTriangle<T>& tri) {
    return detail::moller_trumbore<false, T, true>(o, d, tmax, tri);
}

/// Möller-Trumbore's culling branch in double, no epsilon: front faces
/// only (`cull_back`). tolerant=1.
template <class T>
inline RayTriangleHit ray_triangle_mt_cull(const std::array<T, 3>& o, const std::array<T, 3>& d, T tmax,
                                           const BasicTriangle<T>& tri) {
    return detail::moller_trumbore<true>(o, d, tmax, tri);
}

namespace detail {

/// Woop's sheared quantities on double input in +, - and * only: the
/// sheared coordinates times d_z (x_i d_z = p_x d_z - d_x p_z, likewise y;
/// z_i = p_z), so each edge function is e_i d_z^2, det is det d_z^2, and
/// t's numerator t_scaled d_z^3: the same signs (t's times d_z's), no
/// quotient.
template <class Ops> struct WoopRing {
    using NT = typename Ops::NT;
    NT e[3], det, t, dz;

    template <class T>
    WoopRing(const std::array<T, 3>& o, const std::array<double, 3>& d, const BasicTriangle<T>& tri, int kx, int ky,
             int kz) {
        const NT dx = Ops::of(d[size_t(kx)]), dy = Ops::of(d[size_t(ky)]);
        dz = Ops::of(d[size_t(kz)]);
        NT x[3], y[3], z[3];
        for (size_t i = 0; i < 3; ++i) {
            const NT px = Ops::of(double(tri.v[i][size_t(kx)])) - Ops::of(double(o[size_t(kx)]));
            const NT py = Ops::of(double(tri.v[i][size_t(ky)])) - Ops::of(double(o[size_t(ky)]));
            z[i] = Ops::of(double(tri.v[i][size_t(kz)])) - Ops::of(double(o[size_t(kz)]));
            x[i] = px * dz - dx * z[i];
            y[i] = py * dz - dy * z[i];
        }
        e[0] = x[1] * y[2] - y[1] * x[2];
        e[1] = x[2] * y[0] - y[2] * x[0];
        e[2] = x[0] * y[1] - y[0] * x[1];
        det = e[0] + e[1] + e[2];
        t = e[0] * z[0] + e[1] * z[1] + e[2] * z[2];
    }
};

/// d scaled by a power of two to |d|_inf in [1, 2), and the exponent b it
/// was scaled by (o + t d = o + (t 2^b)(d 2^-b)): the ring's products then
/// stay in the doubles' range over 2^-250..2^250, where the degree-5 t of
/// unscaled input at 2^250 overflowed and at 2^-250 underflowed.
template <class T> int unit_direction(const std::array<T, 3>& d, std::array<double, 3>& out) {
    for (size_t i = 0; i < 3; ++i) out[i] = double(d[i]);
    const double m = std::max({std::fabs(out[0]), std::fabs(out[1]), std::fabs(out[2])});
    if (!(m > 0) || !std::isfinite(m)) return 0;  // no direction (NaN, inf): an answer, not a promise
    const int b = std::ilogb(m);
    for (size_t i = 0; i < 3; ++i) out[i] = std::ldexp(out[i], -b);
    return b;
}

/// Woop's decision on double input, through the staged filter (exact where
/// rounding could set a sign): a hit has the three edge functions of one
/// sign (0 allowed), det not 0, and t in [0, tmax].
template <class T>
bool watertight_decides_hit(const std::array<T, 3>& o, const std::array<T, 3>& d_in, T tmax_given, const BasicTriangle<T>& tri,
                            int kx, int ky, int kz) {
    const double tmax_in = double(tmax_given);
    std::array<double, 3> d;
    const int b = unit_direction(d_in, d);
    double tmax = std::ldexp(tmax_in, b);
    if (std::isfinite(tmax_in) && !(std::ldexp(tmax, -b) == tmax_in)) {
        // tmax 2^b leaves the doubles' range (double input outside
        // 2^-250..2^250): unscaled.
        for (size_t i = 0; i < 3; ++i) d[i] = double(d_in[i]);
        tmax = tmax_in;
    }
    const int sz = d[size_t(kz)] > 0 ? 1 : -1;
    return filtered([&](auto ops) {
        using Ops = decltype(ops);
        const WoopRing<Ops> w(o, d, tri, kx, ky, kz);
        int s[3];
        for (size_t i = 0; i < 3; ++i) s[i] = Ops::sgn(w.e[i]);
        if ((s[0] < 0 || s[1] < 0 || s[2] < 0) && (s[0] > 0 || s[1] > 0 || s[2] > 0)) return false;
        const int sdet = Ops::sgn(w.det);
        if (sdet == 0) return false;
        const int st = sz * Ops::sgn(w.t);
        if (st != 0 && st != sdet) return false;  // t < 0
        if (std::isinf(tmax)) return true;
        const int past = sz * Ops::sgn(typename Ops::NT(w.t - Ops::of(tmax) * w.dz * w.det));
        return past == 0 || past != sdet;  // t <= tmax
    });
}

/// t, u and v of a hit whose det rounded to 0 both in 3D and sheared
/// (decided exactly): the exact quotients, each rounded from
/// its expansions' estimates.
template <class T>
void watertight_exact_numbers(const std::array<T, 3>& o, const std::array<T, 3>& d_in, const BasicTriangle<T>& tri, int kx,
                              int ky, int kz, RayTriangleHit& r) {
    std::array<double, 3> d;
    const int b = unit_direction(d_in, d);
    const WoopRing<ExpansionOps> w(o, d, tri, kx, ky, kz);
    const double det = w.det.estimate();
    r.t = std::ldexp(w.t.estimate() / (w.dz.estimate() * det), -b);
    r.u = w.e[1].estimate() / det;
    r.v = w.e[2].estimate() / det;
}

}  // namespace detail

/// The watertight test of Woop, Benthin and Wald, in double. tolerant=1.
/// On doubles (T = double) the same code is the double-precision kernel.
template <class T>
inline RayTriangleHit ray_triangle_watertight(const std::array<T, 3>& o, const std::array<T, 3>& d, T tmax,
                                              const BasicTriangle<T>& tri) {
    RayTriangleHit r;
    // The axis of the largest |d| becomes z; swapping x and y keeps the
    // winding when d_z is negative.
    int kz = 0;
    if (std::fabs(d[1]) > std::fabs(d[kz])) kz = 1;
    if (std::fabs(d[2]) > std::fabs(d[kz])) kz = 2;
    int kx = kz == 2 ? 0 : kz + 1, ky = kx == 2 ? 0 : kx + 1;
    if (!(d[kz] != 0)) return r;  // d = 0 or NaN
    if (d[kz] < 0) std::swap(kx, ky);
    const double sx = double(d[kx]) / d[kz], sy = double(d[ky]) / d[kz], sz = 1.0 / d[kz];
    // Vertices relative to the origin, sheared so that the ray runs along +z.
    double x[3], y[3], z[3];
    for (int i = 0; i < 3; ++i) {
        const double px = double(tri.v[i][kx]) - o[kx], py = double(tri.v[i][ky]) - o[ky];
        const double pz = double(tri.v[i][kz]) - o[kz];
        x[i] = px - sx * pz;
        y[i] = py - sy * pz;
        z[i] = sz * pz;
    }
    // Edge functions: e0 opposite a (the weight of a), e1 of b, e2 of c. An
    // edge shared by two triangles gets the same value, negated, in both.
    const double e0 = x[1] * y[2] - y[1] * x[2];
    const double e1 = x[2] * y[0] - y[2] * x[0];
    const double e2 = x[0] * y[1] - y[0] * x[1];
    const double det = e0 + e1 + e2;
    const double t_scaled = e0 * z[0] + e1 * z[1] + e2 * z[2];
    // A ray nearly parallel to the triangle's plane shears it flat: its edge
    // functions are rounding noise (of the shear's quotients), which can
    // share a sign, and such a ray 2 units beside a triangle was hit at
    // t = -0.25 in double (corpus/ray_triangle/watertight_double_coplanar.case)
    // and at t = -0 on float input with a subnormal vertex
    // (watertight_parallel_subnormal.case): exact misses no move of a few
    // roundings reaches, which the band called flippable while it took any
    // ray whose det could reach 0 as one. Where the paper recomputes in
    // double edge functions that are 0 in float, the decision here goes
    // through the staged filter (filter.hpp): the same signs, exact where
    // rounding could set one.
    if (!detail::watertight_decides_hit(o, d, tmax, tri, kx, ky, kz)) return r;
    // The hit is decided; its numbers come from Cramer's rule on the
    // unsheared coordinates, as in Möller-Trumbore. The sheared det sums
    // edge functions that can each be far larger than it: on a sliver with a
    // far vertex it lost every digit and put the hit at a vertex
    // (corpus/ray_triangle/watertight_far_vertex_numbers.case).
    const Vec3d ea = sub(tri.v[1], tri.v[0]), eb = sub(tri.v[2], tri.v[0]), s = sub(o, tri.v[0]);
    const Vec3d dir{d[0], d[1], d[2]};
    const Vec3d p = cross(dir, eb), q = cross(s, ea);
    const double cramer = dot(ea, p);
    r.hit = true;
    if (cramer != 0) {
        r.t = dot(eb, q) / cramer;
        r.u = dot(s, p) / cramer;
        r.v = dot(dir, q) / cramer;
    } else if (det != 0) {  // det rounded to 0 in 3D but not in the sheared plane
        r.t = t_scaled / det;
        r.u = e1 / det;
        r.v = e2 / det;
    } else {  // and in both: decided exactly
        detail::watertight_exact_numbers(o, d, tri, kx, ky, kz, r);
    }
    return r;
}

namespace detail {

using exact::Expansion;
using EPoint = std::array<Expansion, 3>;

inline EPoint exact_point(const Vec3f& p) { return {Expansion(p[0]), Expansion(p[1]), Expansion(p[2])}; }
inline EPoint exact_sub(const Vec3f& a, const Vec3f& b) {
    return {Expansion::difference(a[0], b[0]), Expansion::difference(a[1], b[1]), Expansion::difference(a[2], b[2])};
}
inline EPoint exact_sub(const EPoint& a, const EPoint& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Expansion exact_dot(const EPoint& a, const EPoint& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline EPoint exact_cross(const EPoint& a, const EPoint& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline bool exact_zero(const EPoint& p) { return p[0].sign() == 0 && p[1].sign() == 0 && p[2].sign() == 0; }

/// A parameter num / den, den > 0, compared exactly.
struct ExactFrac {
    Expansion num, den;
};
inline int compare(const ExactFrac& a, const ExactFrac& b) { return (a.num * b.den - b.num * a.den).sign(); }

/// The result for a hit at parameter t (u and v of the hit point in double).
inline RayTriangleHit hit_at(double t, const Vec3f& o, const Vec3f& d, const Triangle& tri) {
    RayTriangleHit r;
    r.hit = true;
    r.t = t;
    const Vec3d e1 = sub(tri.v[1], tri.v[0]), e2 = sub(tri.v[2], tri.v[0]);
    const Vec3d ap{o[0] + t * d[0] - tri.v[0][0], o[1] + t * d[1] - tri.v[0][1], o[2] + t * d[2] - tri.v[0][2]};
    const Vec3d n = cross(e1, e2);
    const double nn = dot(n, n);
    if (nn > 0) {
        r.u = dot(cross(ap, e2), n) / nn;
        r.v = dot(cross(e1, ap), n) / nn;
    }
    return r;
}

inline double value(const ExactFrac& f) { return f.num.estimate() / f.den.estimate(); }

/// The ray against the segment [p, q] (a point when p == q), exactly.
inline RayTriangleHit ray_segment_exact(const Vec3f& o, const Vec3f& d, float tmax, const Vec3f& p, const Vec3f& q,
                                        const Triangle& tri) {
    const EPoint dd = exact_point(d), w = exact_sub(q, p), op = exact_sub(p, o);
    if (d[0] == 0 && d[1] == 0 && d[2] == 0) {  // the point o: on [p, q], hit at t = 0
        const Expansion k = -exact_dot(op, w), ww = exact_dot(w, w);
        if (!exact_zero(exact_cross(op, w)) || k.sign() < 0 || (ww - k).sign() < 0) return {};
        if (ww.sign() == 0 && !exact_zero(op)) return {};
        return hit_at(0, o, d, tri);
    }
    const EPoint dw = exact_cross(dd, w);
    const bool bounded = !std::isinf(tmax);
    if (!exact_zero(dw)) {
        if (exact_dot(op, dw).sign() != 0) return {};  // skew lines
        const Expansion n2 = exact_dot(dw, dw), t = exact_dot(exact_cross(op, w), dw);
        const Expansion sp = exact_dot(exact_cross(op, dd), dw);
        if (sp.sign() < 0 || (n2 - sp).sign() < 0 || t.sign() < 0) return {};
        if (bounded && (Expansion(tmax) * n2 - t).sign() < 0) return {};
        return hit_at(t.estimate() / n2.estimate(), o, d, tri);
    }
    if (!exact_zero(exact_cross(op, dd))) return {};  // parallel lines apart
    // Along the line: every parameter over the same denominator d . d.
    const Expansion den = exact_dot(dd, dd);
    Expansion tp = exact_dot(op, dd), tq = exact_dot(exact_sub(exact_point(q), exact_point(o)), dd);
    if ((tp - tq).sign() > 0) std::swap(tp, tq);
    const Expansion lo = tp.sign() > 0 ? tp : Expansion(0);
    Expansion hi = tq;
    if (bounded && (Expansion(tmax) * den - hi).sign() < 0) hi = Expansion(tmax) * den;
    if ((lo - hi).sign() > 0) return {};
    return hit_at(lo.estimate() / den.estimate(), o, d, tri);
}

/// ray_triangle exactly where det = 0 or the filter could not decide.
inline RayTriangleHit ray_triangle_exact_slow(const Vec3f& o, const Vec3f& d, float tmax, const Triangle& tri) {
    ++exact::fallbacks;
    const Vec3f& a = tri.v[0];
    const exact::DifferenceVec e1 = exact::difference(tri.v[1], a), e2 = exact::difference(tri.v[2], a),
                               s = exact::difference(o, a), dd = exact::difference(d, Vec3f{0, 0, 0});
    const EPoint n = exact::cross(e1, e2);
    const bool bounded = !std::isinf(tmax);
    if (exact_zero(n)) {  // degenerate: the longest edge, or a point
        const EPoint f1 = exact_sub(tri.v[1], a), f2 = exact_sub(tri.v[2], a), bc = exact_sub(tri.v[2], tri.v[1]);
        const Expansion l01 = exact_dot(f1, f1), l02 = exact_dot(f2, f2), l12 = exact_dot(bc, bc);
        if ((l12 - l01).sign() >= 0 && (l12 - l02).sign() >= 0) return ray_segment_exact(o, d, tmax, tri.v[1], tri.v[2], tri);
        if ((l02 - l01).sign() >= 0) return ray_segment_exact(o, d, tmax, a, tri.v[2], tri);
        return ray_segment_exact(o, d, tmax, a, tri.v[1], tri);
    }
    const Expansion det = -exact::dot(dd, n), t = exact::dot(s, n);
    if (det.sign() != 0) {
        const int ds = det.sign();
        const Expansion u = -exact::dot(dd, exact::cross(s, e2)), v = -exact::dot(dd, exact::cross(e1, s));
        const auto negative = [ds](const Expansion& x) { return x.sign() * ds < 0; };
        if (negative(u) || negative(v) || negative(det - u - v) || negative(t)) return {};
        if (bounded && negative(det.scaled(tmax) - t)) return {};
        RayTriangleHit r;
        r.hit = true;
        const double dt = det.estimate();
        r.t = t.estimate() / dt;
        r.u = u.estimate() / dt;
        r.v = v.estimate() / dt;
        return r;
    }
    if (t.sign() != 0) return {};  // parallel, off the plane
    // In the plane. For vectors A, B in the plane, A x B = lambda n, so
    // (A x B) . n has the sign of lambda |n|^2 and any ratio of two such is
    // the ratio of their components along an axis k where n_k != 0:
    // alpha = (edge x (o - p)) . n and beta = (edge x d) . n become the k-th
    // components of the cross products times sign(n_k) (degree 2).
    int k = 0;
    while (n[size_t(k)].sign() == 0) ++k;
    const int nk = n[size_t(k)].sign();
    const size_t i = size_t((k + 1) % 3), j = size_t((k + 2) % 3);
    const auto cross_k = [&](const exact::DifferenceVec& x, const exact::DifferenceVec& y) {
        exact::Terms terms;  // 16 terms: x_i y_j - x_j y_i
        terms.add_product(x[i], y[j]);
        terms.add_product(-x[j], y[i]);
        const Expansion c = terms.expansion();
        return nk > 0 ? c : -c;
    };
    ExactFrac lo{Expansion(0), Expansion(1)};
    std::optional<ExactFrac> hi;
    if (bounded) hi = ExactFrac{Expansion(tmax), Expansion(1)};
    for (int m = 0; m < 3; ++m) {
        const Vec3f& p = tri.v[m];
        const exact::DifferenceVec edge = exact::difference(tri.v[(m + 1) % 3], p);
        const Expansion alpha = cross_k(edge, exact::difference(o, p)), beta = cross_k(edge, dd);
        if (beta.sign() == 0) {
            if (alpha.sign() < 0) return {};
            continue;
        }
        const ExactFrac root = beta.sign() > 0 ? ExactFrac{-alpha, beta} : ExactFrac{alpha, -beta};
        if (beta.sign() > 0) {
            if (compare(root, lo) > 0) lo = root;
        } else if (!hi || compare(root, *hi) < 0) {
            hi = root;
        }
        if (hi && compare(lo, *hi) > 0) return {};
    }
    return hit_at(value(lo), o, d, tri);
}

/// Which of ray_triangle_exact's signs its filter left undecided.
enum Undecided : unsigned { kU = 1, kV = 2, kW = 4, kT = 8, kTmax = 16 };

/// Where det's sign ds is certain: whether the undecided signs allow a hit,
/// each evaluated on its own. With A, B, C the vertices relative to o, the
/// numerators are u = d . (A x C), v = d . (B x A), w = d . (C x B) and
/// t det = -C . (A x B) (expanding e1 = B - A, e2 = C - A, s = -A), so a ray
/// through an edge or a vertex costs one or two exact triple products, not
/// all of them. Each is degree 3 in differences of floats (exact.hpp).
inline bool undecided_signs_allow_hit(const Vec3f& o, const Vec3f& d, float tmax, const Triangle& tri, int ds,
                                      unsigned undecided) {
    using exact::cross;
    using exact::dot;
    const exact::DifferenceVec A = exact::difference(tri.v[0], o), B = exact::difference(tri.v[1], o),
                               C = exact::difference(tri.v[2], o), D = exact::difference(d, Vec3f{0, 0, 0});
    const auto negative = [ds](const Expansion& x) { return x.sign() * ds < 0; };
    if ((undecided & kU) && negative(dot(D, cross(A, C)))) return false;
    if ((undecided & kV) && negative(dot(D, cross(B, A)))) return false;
    if ((undecided & kW) && negative(dot(D, cross(C, B)))) return false;
    if (!(undecided & (kT | kTmax))) return true;
    const Expansion t = -dot(C, cross(A, B));
    if ((undecided & kT) && negative(t)) return false;
    if (!(undecided & kTmax)) return true;
    const Expansion det = dot(D, cross(A, C)) + dot(D, cross(B, A)) + dot(D, cross(C, B));
    return !negative(det.scaled(tmax) - t);
}

}  // namespace detail

/// Ray vs closed triangle decided exactly (the reference's semantics,
/// degenerate triangles and rays in the plane included). exact.
inline RayTriangleHit ray_triangle_exact(const Vec3f& o, const Vec3f& d, float tmax, const Triangle& tri) {
    const Vec3f& a = tri.v[0];
    const Vec3d e1 = sub(tri.v[1], a), e2 = sub(tri.v[2], a), s = sub(o, a);
    const Vec3d dir{d[0], d[1], d[2]};
    // Bounds from the permanents: the same products with absolute values.
    // Each sign certain beyond its bound, else the exact path decides. A
    // sign certain for a miss ends it at once (most rays miss); an uncertain
    // one is left for the exact path.
    const auto certain = [](double x, double b) { return x > b || x < -b; };
    const Vec3d p = cross(dir, e2), ap = abs_cross(dir, e2);
    const double det = dot(e1, p), bdet = gamma(10) * abs_dot(e1, ap);
    // Outside the domain (a NaN, an infinity but tmax's) no exact path is
    // taken: it would only carry the NaN through long expansions. A miss.
    const auto in_domain = [&] { return all_finite(o) && all_finite(d) && all_finite(tri) && !std::isnan(tmax); };
    if (!certain(det, bdet)) return in_domain() ? detail::ray_triangle_exact_slow(o, d, tmax, tri) : RayTriangleHit{};
    const double ds = det > 0 ? 1 : -1;
    unsigned undecided = 0;
    const auto misses = [&](double x, double b, unsigned which) {
        if (!certain(x, b)) undecided |= which;
        else if (x * ds < 0) return true;
        return false;
    };
    const double u = dot(s, p), bu = gamma(10) * abs_dot(s, ap);
    if (misses(u, bu, detail::kU)) return {};
    const Vec3d q = cross(s, e1), aq = abs_cross(s, e1);
    const double v = dot(dir, q), bv = gamma(10) * abs_dot(dir, aq);
    if (misses(v, bv, detail::kV)) return {};
    const double w = det - u - v, bw = bdet + bu + bv + gamma(2) * (std::fabs(det) + std::fabs(u) + std::fabs(v));
    if (misses(w, bw, detail::kW)) return {};
    const double t = dot(e2, q), bt = gamma(10) * abs_dot(e2, aq);
    if (misses(t, bt, detail::kT)) return {};
    if (!std::isinf(tmax)) {
        const double m = double(tmax) * det - t, bm = double(tmax) * bdet + bt + gamma(2) * (std::fabs(double(tmax) * det) + std::fabs(t));
        if (misses(m, bm, detail::kTmax)) return {};
    }
    if (undecided) {
        if (!in_domain()) return {};
        ++exact::fallbacks;
        if (!detail::undecided_signs_allow_hit(o, d, tmax, tri, det > 0 ? 1 : -1, undecided)) return {};
    }
    RayTriangleHit r;
    r.hit = true;
    r.t = t / det;
    r.u = u / det;
    r.v = v / det;
    return r;
}

}  // namespace isect
