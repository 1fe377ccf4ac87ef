// ray_triangle on a number type: the oracle body and the band.
#pragma once

#include "isect/ref/ray_triangle.hpp"
#include "policies.hpp"
#include "slope.hpp"

namespace isect::ref::fast::detail {

/// The ray and the triangle, by key (the vertices a, b, c are tri's three points).
struct RayTriangleKeys {
    static constexpr size_t org = ray_triangle_input.at("org"), dir = ray_triangle_input.at("dir");
    static constexpr size_t tmax = ray_triangle_input.at("tmax"), tri = ray_triangle_input.at("tri");
};

/// The ray and the triangle as Cramer's rule takes them: o + t d = a + u e1
/// + v e2, e1 = b - a, e2 = c - a, s = o - a, n = e1 x e2. Where det = -d . n
/// is not 0, t, u and v are num / det with the numerators numerators() gives:
/// the one statement of the rule, for the body and for the test that
/// decides a case (check/families/ray_triangle.cpp).
template <class Ops> struct RayTriangleFrame {
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;
    P o, d, a, b, c, e1, e2, s, n;

    static RayTriangleFrame of(const double* in) {
        using K = RayTriangleKeys;
        RayTriangleFrame f;
        f.o = point_of<Ops>(in + K::org);
        f.d = point_of<Ops>(in + K::dir);
        f.a = point_of<Ops>(in + K::tri);
        f.b = point_of<Ops>(in + K::tri + 3);
        f.c = point_of<Ops>(in + K::tri + 6);
        f.e1 = sub(f.b, f.a);
        f.e2 = sub(f.c, f.a);
        f.s = sub(f.o, f.a);
        f.n = cross(f.e1, f.e2);
        return f;
    }
    /// det = -d . n.
    NT det() const { return -dot(d, n); }
    /// The numerators of t, u and v over det.
    void numerators(NT& t, NT& u, NT& v) const {
        t = dot(s, n);
        u = -dot(d, cross(s, e2));
        v = -dot(d, cross(e1, s));
    }
};

/// ray_triangle on a number type, the fast oracle's stages and the rational
/// reference alike: Cramer's rule; a ray in the triangle's plane clipped by
/// its three edges; a degenerate triangle as its longest edge (or a point).
/// Line: the `line` convention, t over all reals (no t >= 0, tmax not read;
/// a zero direction is outside its domain), t the least t where the line
/// meets the triangle.
template <bool Line> struct RayTriangleOf {
template <class Ops> struct Body {
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;

    static bool zero(const P& p) { return Ops::sgn(p[0]) == 0 && Ops::sgn(p[1]) == 0 && Ops::sgn(p[2]) == 0; }
    /// sign(a / b - c / d) for b, d > 0.
    static int compare(const Frac<NT>& a, const Frac<NT>& b) { return Ops::sgn(a.num * b.den - b.num * a.den); }
    /// The fraction x / y with a positive denominator (y != 0).
    static Frac<NT> frac(const NT& x, const NT& y) { return Ops::sgn(y) > 0 ? Frac<NT>{x, y} : Frac<NT>{-x, -y}; }

    using R = Out<Ops>;

    static R hit(const Frac<NT>& t) {
        R r;
        r.answer = 1;
        put_quotient<Ops>(r, t.num, t.den);
        for (int i = 0; i < 2; ++i) put_none<Ops>(r);  // no barycentrics for a degenerate triangle
        return r;
    }

    /// The ray against the segment [p, q] (a point when p == q).
    static R segment(const P& o, const P& d, const std::optional<NT>& tmax, const P& p, const P& q) {
        const P w = sub(q, p), op = sub(p, o);
        if (zero(d)) {  // the query is the point o: on [p, q], hit at t = 0
            const NT k = -dot(op, w), ww = dot(w, w);
            if (!zero(cross(op, w)) || Ops::sgn(k) < 0 || Ops::sgn(ww - k) < 0) return R{};
            if (Ops::sgn(ww) == 0 && !zero(op)) return R{};
            return hit({NT(0), NT(1)});
        }
        const P dw = cross(d, w);
        if (!zero(dw)) {
            if (Ops::sgn(dot(op, dw)) != 0) return R{};  // skew lines
            const NT n2 = dot(dw, dw), t = dot(cross(op, w), dw), sp = dot(cross(op, d), dw);
            if (Ops::sgn(sp) < 0 || Ops::sgn(n2 - sp) < 0 || (!Line && Ops::sgn(t) < 0)) return R{};
            if (tmax && Ops::sgn(*tmax * n2 - t) < 0) return R{};
            return hit({t, n2});
        }
        if (!zero(cross(op, d))) return R{};  // parallel lines apart
        const NT dd = dot(d, d);
        Frac<NT> tp{dot(op, d), dd}, tq{dot(sub(q, o), d), dd};
        if (compare(tp, tq) > 0) std::swap(tp, tq);
        Frac<NT> lo{NT(0), NT(1)};
        if (Line || compare(tp, lo) > 0) lo = tp;
        Frac<NT> hi = tq;
        if (tmax && compare(Frac<NT>{*tmax, NT(1)}, hi) < 0) hi = Frac<NT>{*tmax, NT(1)};
        if (compare(lo, hi) > 0) return R{};
        return hit(lo);
    }

    static R run(const double* in) {
        using K = RayTriangleKeys;
        const RayTriangleFrame<Ops> f = RayTriangleFrame<Ops>::of(in);
        const P &o = f.o, &d = f.d, &a = f.a, &b = f.b, &c = f.c, &e1 = f.e1, &e2 = f.e2, &s = f.s, &n = f.n;
        const double tmax_in = Line ? INFINITY : in[K::tmax];
        const std::optional<NT> tmax = std::isinf(tmax_in) ? std::nullopt : std::optional<NT>(Ops::of(tmax_in));
        if (zero(n)) {  // degenerate: the longest edge, or a point
            const P bc = sub(c, b);
            const NT l01 = dot(e1, e1), l02 = dot(e2, e2), l12 = dot(bc, bc);
            if (Ops::sgn(l12 - l01) >= 0 && Ops::sgn(l12 - l02) >= 0) return segment(o, d, tmax, b, c);
            if (Ops::sgn(l02 - l01) >= 0) return segment(o, d, tmax, a, c);
            return segment(o, d, tmax, a, b);
        }
        const NT dn = dot(d, n);
        R r;
        if (Ops::sgn(dn) != 0) {
            // o + t d = a + u e1 + v e2, by Cramer's rule on [-d, e1, e2].
            const NT det = -dn;
            NT t, u, v;
            f.numerators(t, u, v);
            const int ds = Ops::sgn(det);
            const auto negative = [ds](const NT& x) { return Ops::sgn(x) * ds < 0; };
            if (negative(u) || negative(v) || negative(det - u - v) || (!Line && negative(t))) return r;
            if (tmax && negative(*tmax * det - t)) return r;
            r.answer = 1;
            put_quotient<Ops>(r, t, det);
            put_quotient<Ops>(r, u, det);
            put_quotient<Ops>(r, v, det);
            return r;
        }
        if (Ops::sgn(dot(s, n)) != 0) return r;  // parallel, off the plane
        // In the plane: inside iff ((p_k+1 - p_k) x (x - p_k)) . n >= 0 for
        // each edge, alpha + t beta >= 0 along the ray (a line: from -inf).
        std::optional<Frac<NT>> lo;
        if (!Line) lo = Frac<NT>{NT(0), NT(1)};
        std::optional<Frac<NT>> hi;
        if (tmax) hi = Frac<NT>{*tmax, NT(1)};
        const P* tri[3] = {&a, &b, &c};
        for (int k = 0; k < 3; ++k) {
            const P& p = *tri[k];
            const P edge = sub(*tri[(k + 1) % 3], p);
            const NT alpha = dot(cross(edge, sub(o, p)), n), beta = dot(cross(edge, d), n);
            if (Ops::sgn(beta) == 0) {
                if (Ops::sgn(alpha) < 0) return r;
                continue;
            }
            const Frac<NT> root = frac(-alpha, beta);
            if (Ops::sgn(beta) > 0) {
                if (!lo || compare(root, *lo) > 0) lo = root;
            } else if (!hi || compare(root, *hi) < 0) {
                hi = root;
            }
            if (lo && hi && compare(*lo, *hi) > 0) return r;
        }
        // A line in the plane crosses some edge with beta != 0 (the
        // triangle has area), so it has a least t; none only for d = 0,
        // outside the line's domain.
        if (!lo) return r;
        // Barycentrics of x = o + t d, t = lo = num / den: with
        // den x - den a = den s + num d, u = ((den s + num d) x e2) . n / (den nn).
        const NT nn = dot(n, n);
        const Frac<NT> first = *lo;
        P ap;
        for (size_t i = 0; i < 3; ++i) ap[i] = first.den * s[i] + first.num * d[i];
        r.answer = 1;
        put_quotient<Ops>(r, first.num, first.den);
        put_quotient<Ops>(r, dot(cross(ap, e2), n), first.den * nn);
        put_quotient<Ops>(r, dot(cross(e1, ap), n), first.den * nn);
        return r;
    }
};
};
template <class Ops> using RayTriangleBody = RayTriangleOf<false>::Body<Ops>;
template <class Ops> using RayTriangleLineBody = RayTriangleOf<true>::Body<Ops>;

/// Whether a ray (or segment) and a proper triangle can change answers when
/// o and the vertices move by at most dp (the positions' delta, o's plus a
/// vertex's: only their difference matters), d by at most dd and tmax by
/// at most dt, decided exactly or nearly so.
/// - A hit parts iff some translation pattern does: for one separating
///   direction L (sign pattern s), every point o + t d of the ray is lowest
///   along L with o moved by -dp s and d by -dd s (t >= 0), and the
///   vertices highest moved by +dp s, and the shortest ray (tmax - dt) is
///   lowest too. So a hit parts iff for one of the eight s the segment from
///   o - dp s along d - dd s misses the triangle, decided by separating
///   axes complete for a segment (or a point) against a proper triangle:
///   the normal, the direction crossed with each edge, the normal crossed
///   with each edge and with the direction; the coordinate axes too. An
///   axis that separates is a move that flips; the set is complete, so the
///   test is exact.
/// - A miss joins iff some t in [0, tmax + dt] and p of the triangle have
///   |o + t d - p| <= dp + t dd on each axis (move o, d and the vertices
///   towards each other at that t), i.e. the triangle meets the hull of the
///   cubes of half-width dp at o and dp + T dd at o + T d (unbounded for
///   a ray). That hull's projection on L is linear in t, so an axis
///   separates it from the triangle where both ends (or a direction of
///   growth) stay clear. Axes: the normal, the coordinate axes, each
///   coordinate axis and each edge crossed with the hull's edges (d +- dd
///   along each sign pattern) and with each other, the normal crossed with
///   each edge. An axis that separates proves no move joins them; a missing
///   one could only widen the band, so it stays a superset (tight where
///   the set is complete, as generic inputs make it).
template <class Ops> struct RayTriangleMoves {
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;
    using K = RayTriangleKeys;

    static NT norm1(const P& L) { return detail::norm1<Ops>(L); }
    static void span(const P& L, const P (&v)[3], NT& lo, NT& hi) { projection_span<Ops>(L, v, lo, hi); }
    static P unit(size_t i) { return unit_axis<NT>(i); }

    /// A proper triangle (a nonzero normal), for which both tests hold.
    static bool proper(const double* in) {
        const P a = point_of<Ops>(in + K::tri), b = point_of<Ops>(in + K::tri + 3), c = point_of<Ops>(in + K::tri + 6);
        const P n = cross(sub(b, a), sub(c, a));
        bool open = false;
        for (size_t i = 0; i < 3; ++i) {
            const int s = soft_sign<Ops>(n[i]);
            if (s == 1 || s == -1) return true;
            open = open || s == kUnknown;
        }
        if (open) throw Undecided{};
        return false;
    }

    /// Whether L separates [lo, hi] (an end open where it grows without
    /// bound) from the triangle's [tlo, thi]: 1, 0, or kUnknown (intervals
    /// that cannot tell).
    static int apart(const NT& lo, const NT& hi, bool lo_open, bool hi_open, const NT& tlo, const NT& thi) {
        const int above = hi_open ? 0 : soft_sign<Ops>(NT(tlo - hi)), below = lo_open ? 0 : soft_sign<Ops>(NT(lo - thi));
        if (above == 1 || below == 1) return 1;
        return above == kUnknown || below == kUnknown ? kUnknown : 0;
    }

    static bool hit_parts(const double* in, const double* delta) {
        const P v[3] = {point_of<Ops>(in + K::tri), point_of<Ops>(in + K::tri + 3), point_of<Ops>(in + K::tri + 6)};
        const P e[3] = {sub(v[1], v[0]), sub(v[2], v[1]), sub(v[0], v[2])};
        const P n = cross(e[0], e[1]);
        const NT dp = Ops::of(delta[K::org]) + Ops::of(delta[K::tri]), dd = Ops::of(delta[K::dir]);
        const double tmax = in[K::tmax];
        const bool ray = std::isinf(tmax);
        const NT T = ray || !(tmax > delta[K::tmax]) ? NT(0) : NT(Ops::of(tmax) - Ops::of(delta[K::tmax]));
        bool open = false;  // a test intervals could not decide
        for (int pattern = 0; pattern < 8; ++pattern) {
            P o, d;
            for (size_t i = 0; i < 3; ++i) {
                const NT s = (pattern >> i & 1) ? NT(1) : NT(-1);
                o[i] = Ops::of(in[K::org + i]) - dp * s;
                d[i] = Ops::of(in[K::dir + i]) - dd * s;
            }
            // The last seven are perpendicular to d: their slope is 0
            // exactly, where intervals would enclose a cancellation.
            P axes[14] = {n, cross(n, e[0]), cross(n, e[1]), cross(n, e[2]), unit(0), unit(1), unit(2),
                          cross(d, e[0]), cross(d, e[1]), cross(d, e[2]), cross(n, d), cross(unit(0), d),
                          cross(unit(1), d), cross(unit(2), d)};
            for (size_t x = 0; x < 14; ++x) {
                const P& L = axes[x];
                if (soft_sign<Ops>(norm1(L)) == 0) continue;
                NT tlo, thi;
                span(L, v, tlo, thi);
                const NT at = dot(L, o), slope = x >= 7 ? NT(0) : NT(dot(L, d));
                // The ray's projection, an end open where it grows without bound.
                const int ss = ray ? soft_sign<Ops>(slope) : 0;
                if (ss == kUnknown) {
                    open = true;
                    continue;
                }
                const NT far = ray ? at : NT(at + T * slope);
                const int a = apart(lesser<Ops>(at, far), greater<Ops>(at, far), ss < 0, ss > 0, tlo, thi);
                if (a == 1) return true;
                open = open || a == kUnknown;
            }
        }
        if (open) throw Undecided{};
        return false;
    }

    static bool miss_joins(const double* in, const double* delta) {
        const P v[3] = {point_of<Ops>(in + K::tri), point_of<Ops>(in + K::tri + 3), point_of<Ops>(in + K::tri + 6)};
        const P e[3] = {sub(v[1], v[0]), sub(v[2], v[1]), sub(v[0], v[2])};
        const P n = cross(e[0], e[1]);
        const P o = point_of<Ops>(in + K::org), d = point_of<Ops>(in + K::dir);
        const NT r0 = Ops::of(delta[K::org]) + Ops::of(delta[K::tri]), dd = Ops::of(delta[K::dir]);
        const double tmax = in[K::tmax];
        const bool ray = std::isinf(tmax);
        const NT T = ray ? NT(0) : NT(Ops::of(tmax) + Ops::of(delta[K::tmax]));
        const auto separates = [&](const P& L, const NT& slope) {  // slope: L . d
            const NT l1 = norm1(L);
            if (soft_sign<Ops>(l1) == 0) return 0;
            NT tlo, thi;
            span(L, v, tlo, thi);
            const NT at = dot(L, o), grow = dd * l1, reach = r0 * l1;
            // The hull's least and greatest projection: at t = 0 or at T,
            // growing with t at the slopes up and down.
            const NT up = slope + grow, down = slope - grow;
            const int su = soft_sign<Ops>(up), sd = soft_sign<Ops>(down);
            const auto with = [&](bool rises, bool falls) {
                NT lo = at - reach, hi = at + reach;
                if (!ray && rises) hi = hi + T * up;
                if (!ray && falls) lo = lo + T * down;
                return apart(lo, hi, ray && falls, ray && rises, tlo, thi);
            };
            if (su != kUnknown && sd != kUnknown) return with(su > 0, sd < 0);
            // A slope that intervals cannot sign (it is 0 where d's moves
            // can turn it exactly parallel to L, as at K u = 1 for a
            // direction of equal components): the answer where both of its
            // signs give the same one.
            int out = kUnknown;
            for (const bool rises : {false, true})
                for (const bool falls : {false, true}) {
                    if ((su != kUnknown && rises != (su > 0)) || (sd != kUnknown && falls != (sd < 0))) continue;
                    const int a = with(rises, falls);
                    if (a == kUnknown || (out != kUnknown && a != out)) return kUnknown;
                    out = a;
                }
            return out;
        };
        bool open = false;
        const auto settled = [&](const P& L, const NT& slope) {
            const int a = separates(L, slope);
            open = open || a == kUnknown;
            return a == 1;
        };
        const auto plain = [&](const P& L) { return settled(L, dot(L, d)); };
        if (plain(n)) return false;
        for (size_t i = 0; i < 3; ++i)
            if (plain(unit(i))) return false;
        for (size_t k = 0; k < 3; ++k) {
            if (plain(cross(n, e[k]))) return false;
            for (size_t i = 0; i < 3; ++i)
                if (plain(cross(unit(i), e[k]))) return false;
        }
        for (int pattern = 0; pattern < 8; ++pattern) {
            P g, sd;  // an edge of the hull, d + dd s; and s x d
            P sign;
            for (size_t i = 0; i < 3; ++i) sign[i] = (pattern >> i & 1) ? NT(1) : NT(-1);
            for (size_t i = 0; i < 3; ++i) g[i] = d[i] + dd * sign[i];
            sd = cross(sign, d);
            // (b x g) . d = b . (g x d) = dd b . (s x d): no cancellation.
            for (size_t i = 0; i < 3; ++i)
                if (settled(cross(unit(i), g), NT(dd * sd[i])) || settled(cross(e[i], g), NT(dd * dot(e[i], sd))))
                    return false;
        }
        if (open) throw Undecided{};
        return true;
    }

    /// The translations both tests take, for the witnessed-K search: o and
    /// d along a pattern s, the triangle against it, tmax with the ray's
    /// part (longer to join, shorter to part), for the 26 nonzero patterns
    /// of -1, 0, 1.
    static void directions(int exact_answer, Directions& out) {
        constexpr size_t N = ray_triangle_input.size();
        for (const std::array<signed char, 3>& s : nonzero_sign_patterns()) {
            Direction m(N, 0);
            for (size_t i = 0; i < 3; ++i) {
                m[K::org + i] = s[i];
                m[K::dir + i] = s[i];
                for (size_t k = 0; k < 3; ++k) m[K::tri + 3 * k + i] = -s[i];
            }
            m[K::tmax] = exact_answer == 1 ? -1 : 1;
            out.push_back(std::move(m));
        }
    }
};

/// Each input number moves by at most its own delta (the direction by K u
/// |d|, tmax by K u tmax, the positions by K u M). Cramer's rule decides the
/// answer from the signs of det = -d . n and of u, v, det - u - v, t and
/// tmax det - t (numerators, scaled by sign(det)); each is a polynomial in
/// the inputs, enclosed over the delta-box to first order (Slope: its value
/// at the input and its partials over the box; the partials of a triple
/// product are cross products, so the form is what moving each number by
/// its delta the right way changes).
/// For a proper triangle the moves' test (RayTriangleMoves, above) is
/// asked first. In the first-order stage, if det's enclosure holds 0, any
/// answer is taken as reachable (parallel, coplanar and degenerate
/// configurations): in band. Otherwise a condition certainly
/// < 0 is a miss no move changes, and every condition certainly >= 0 a hit
/// no move changes. A hit flips where one condition can fall below 0. A
/// miss flips only where every condition can be >= 0 at once: near an edge
/// and the end of a segment, or two edges at a vertex, two conditions that
/// each can be crossed may not be crossed together. For each pair, a
/// weighted sum g_i + mu g_j (mu >= 0) that is certainly < 0 over the box
/// shows that they cannot (the dual of the linear program the first-order
/// forms pose: any mu is sound; mu is taken where the sum's first-order
/// reach is least, which makes the pair's band as tight as the program).
/// Line: the `line` convention, whose conditions are u, v and det - u - v
/// alone (no t >= 0, no tmax).
template <bool Line> struct RayTriangleBandOf {
template <class Ops> struct Body {
    static constexpr size_t N = ray_triangle_input.size();
    using S = Slope<Ops, N>;
    using B = Bounds<Ops>;
    using P = std::array<S, 3>;

    /// det and the conditions of a hit (not yet signed by det).
    struct Conditions {
        S det;
        S c[5];
        int count = 4;
        Conditions(const double* in, const double* delta) {
            using K = RayTriangleKeys;
            const P o = S::input_point(in, delta, K::org), d = S::input_point(in, delta, K::dir),
                    a = S::input_point(in, delta, K::tri), b = S::input_point(in, delta, K::tri + 3),
                    cc = S::input_point(in, delta, K::tri + 6);
            const P e1 = sub(b, a), e2 = sub(cc, a), s = sub(o, a), n = cross(e1, e2);
            det = -dot(d, n);
            c[0] = -dot(d, cross(s, e2));
            c[1] = -dot(d, cross(e1, s));
            c[2] = det - c[0] - c[1];
            if (Line) {
                count = 3;
                return;
            }
            c[3] = dot(s, n);
            if (!std::isinf(in[K::tmax])) {
                c[4] = S::input(in[K::tmax], delta[K::tmax], K::tmax) * det - c[3];
                count = 5;
            }
        }
    };

    /// The mu >= 0 at which g + mu h reaches least far up over the box, to
    /// first order (the least of a convex piecewise linear function of mu:
    /// 0 or one of its breakpoints), from g and h in plain double rounded to
    /// nearest: the same mu in every stage, so that each decides alike (0
    /// where no breakpoint reaches less far than g alone).
    using Approx = Slope<DoubleOps, N>;
    static double weight(const Approx& g, const Approx& h, const double* delta) {
        std::array<double, N> pg{}, ph{};
        for (size_t i = 0; i < N; ++i) {
            if (delta[i] == 0) continue;
            if (g.has(i)) pg[i] = 0.5 * (g.d[i].lo + g.d[i].hi) * delta[i];
            if (h.has(i)) ph[i] = 0.5 * (h.d[i].lo + h.d[i].hi) * delta[i];
        }
        const auto reach = [&](double mu) {
            double r = g.at.lo + mu * h.at.lo;
            for (size_t i = 0; i < N; ++i) r += std::fabs(pg[i] + mu * ph[i]);
            return r;
        };
        double best = 0, least = reach(0);
        for (size_t i = 0; i < N; ++i) {
            if (ph[i] == 0) continue;
            const double mu = -pg[i] / ph[i];
            if (!(mu > 0) || !std::isfinite(mu)) continue;
            if (const double r = reach(mu); r < least) {
                least = r;
                best = mu;
            }
        }
        return best;
    }

    /// Whether det is certainly 0 at the input, or every condition of a hit
    /// holds there and one of them is certainly 0 (an exact touch): any
    /// delta > 0 can then flip the answer (a superset where a partial
    /// happens to vanish). Never throws Undecided: what intervals cannot
    /// settle is left to the mean-value form.
    static bool touches(const double* in) {
        using NT = typename Ops::NT;
        using K = RayTriangleKeys;
        const auto o = point_of<Ops>(in + K::org), d = point_of<Ops>(in + K::dir), a = point_of<Ops>(in + K::tri),
                   b = point_of<Ops>(in + K::tri + 3), c = point_of<Ops>(in + K::tri + 6);
        const auto e1 = sub(b, a), e2 = sub(c, a), s = sub(o, a), n = cross(e1, e2);
        const NT det = -dot(d, n);
        if (Ops::certainly_zero(det)) return true;
        const NT u = -dot(d, cross(s, e2)), v = -dot(d, cross(e1, s)), t = dot(s, n);
        NT conditions[5] = {u, v, det - u - v, t, t};
        const double tmax = in[K::tmax];
        const int count = Line ? 3 : std::isinf(tmax) ? 4 : 5;
        if (count == 5) conditions[4] = Ops::of(tmax) * det - t;
        bool zero = false;
        for (int i = 0; i < count; ++i) {
            if (Ops::certainly_zero(conditions[i])) {
                zero = true;
                continue;
            }
            // Certainly >= 0 relative to det's sign, or no hit to touch.
            if (!certainly_positive(NT(conditions[i] * det))) return false;
        }
        return zero;
    }
    /// Whether x is certainly > 0 (never throws Undecided).
    static bool certainly_positive(const typename Ops::NT& x) {
        if constexpr (std::is_same_v<Ops, IntervalOps>) return x.inf() > 0;
        else return Ops::sgn(x) > 0;
    }


    /// Whether plain interval arithmetic over the box settles the answer
    /// (det of one sign, and some condition certainly < 0 or all certainly
    /// >= 0): no move flips it. A fraction of the slopes' cost, and what a
    /// broken kernel's wrong answers far outside the band need.
    static bool settled_over_box(const double* in, const double* delta) {
        using K = RayTriangleKeys;
        const BPoint<Ops> o = widened<Ops>(in + K::org, delta + K::org), d = widened<Ops>(in + K::dir, delta + K::dir),
                          a = widened<Ops>(in + K::tri, delta + K::tri), b = widened<Ops>(in + K::tri + 3, delta + K::tri + 3),
                          c = widened<Ops>(in + K::tri + 6, delta + K::tri + 6);
        const BPoint<Ops> e1 = b - a, e2 = c - a, s = o - a, n = cross(e1, e2);
        const B det = -dot(d, n);
        if (det.holds_zero()) return false;
        const bool negative = Ops::sgn(det.hi) < 0;
        const B u = -dot(d, cross(s, e2)), v = -dot(d, cross(e1, s)), t = dot(s, n);
        B conditions[5] = {u, v, det - u - v, t, t};
        int count = Line ? 3 : 4;
        if (!Line && !std::isinf(in[K::tmax])) {
            const B tmax{Ops::of(in[K::tmax]) - Ops::of(delta[K::tmax]), Ops::of(in[K::tmax]) + Ops::of(delta[K::tmax])};
            conditions[count++] = tmax * det - t;
        }
        bool all_hold = true;
        for (int i = 0; i < count; ++i) {
            const B x = negative ? -conditions[i] : conditions[i];
            if (Ops::sgn(x.hi) < 0) return true;
            if (Ops::sgn(x.lo) < 0) all_hold = false;
        }
        return all_hold;
    }
    /// The first-order stage, asked of every vertex order (three rotations,
    /// either way round) and in band where any says so: each order's is a
    /// superset whose width depends on which vertex comes first, so their
    /// union is a superset and the same for every order. Most wrong answers
    /// a holding kernel gives touch exactly: in band, with nothing to
    /// enclose; a broken one's are mostly settled by plain intervals.
    /// The input with its vertices in order `order`: 0 to 2 rotated that
    /// many places (the winding kept), 3 to 5 the same reversed.
    static void in_order(const double* in, int order, double* out) {
        using K = RayTriangleKeys;
        std::copy(in, in + N, out);
        const int r = order % 3;
        for (int k = 0; k < 3; ++k) {
            const int from = order >= 3 ? (3 + r - k) % 3 : (k + r) % 3;
            for (size_t i = 0; i < 3; ++i) out[K::tri + 3 * size_t(k) + i] = in[K::tri + 3 * size_t(from) + i];
        }
    }
    static bool first_order_in_any_order(const double* in, const double* delta) {
        double moved[N];
        for (int order = 0; order < 6; ++order) {
            in_order(in, order, moved);
            if (touches(moved)) return true;
            if (!settled_over_box(moved, delta) && flips(moved, Conditions(moved, delta), delta)) return true;
        }
        return false;
    }
    /// The moves' test first (RayTriangleMoves, the same for every vertex
    /// order, asked once): exact for a hit on a proper triangle; for a miss a
    /// superset, kept beside the first-order one (so is where both say so).
    static bool run(const double* in, int exact_answer, const double* delta) {
        // A hit that touches exactly is in band at any delta (most of a
        // holding kernel's wrong answers): in every vertex order, as the
        // tests below would find.
        if (exact_answer == 1 && touches(in)) return true;
        using M = RayTriangleMoves<Ops>;
        if (M::proper(in)) {
            if constexpr (!Line) {
                // Exact, so a hit plain intervals settle (most of a broken
                // kernel's) is settled in every vertex order too.
                if (exact_answer == 1) return !settled_over_box(in, delta) && M::hit_parts(in, delta);
                if (!M::miss_joins(in, delta)) return false;
            } else if (exact_answer == 0) {
                // A line is two rays from o, along d and along -d: a miss
                // joins only where one of them can.
                std::array<double, N> ray;
                std::copy(in, in + N, ray.begin());
                ray[RayTriangleKeys::tmax] = std::numeric_limits<double>::infinity();
                const bool forward = M::miss_joins(ray.data(), delta);
                for (size_t i = 0; i < 3; ++i) ray[RayTriangleKeys::dir + i] = -ray[RayTriangleKeys::dir + i];
                if (!forward && !M::miss_joins(ray.data(), delta)) return false;
            }
        }
        return first_order_in_any_order(in, delta);
    }
    /// det towards 0; for a hit each condition down; for a miss each
    /// condition below 0 up, alone and weighted with each other (as the
    /// certificates weigh them).
    static void directions(const double* in, int exact_answer, const double* delta, Directions& out) {
        RayTriangleMoves<Ops>::directions(exact_answer, out);
        const Conditions q(in, delta);
        towards_zero(q.det, out);
        const bool negative = q.det.at.lo < 0;
        S g[5];
        bool hit = true;
        for (int i = 0; i < q.count; ++i) {
            g[i] = negative ? -q.c[i] : q.c[i];
            hit = hit && g[i].at.lo >= 0;
        }
        for (int i = 0; i < q.count; ++i) {
            if (hit) out.push_back(steepest(g[i], false));
            if (hit || g[i].at.lo >= 0) continue;
            out.push_back(steepest(g[i], true));
            for (int j = 0; j < q.count; ++j)
                if (j != i)
                    if (const double mu = weight(g[i], g[j], delta); mu > 0)
                        out.push_back(steepest(g[i] + g[j] * S::constant(mu), true));
        }
    }
    static bool flips(const double* in, const Conditions& q, const double* delta) {
        const B det = q.det.over(delta);
        if (det.holds_zero()) return true;
        const bool negative = Ops::sgn(det.hi) < 0;
        S g[5];
        B e[5];
        bool certain_hit = true, hit_here = true;
        for (int i = 0; i < q.count; ++i) {
            g[i] = negative ? -q.c[i] : q.c[i];
            e[i] = g[i].over(delta);
            if (Ops::sgn(e[i].hi) < 0) return false;  // certainly a miss
            if (Ops::sgn(e[i].lo) < 0) certain_hit = false;
            if (Ops::sgn(g[i].at.lo) < 0) hit_here = false;
        }
        if (certain_hit) return false;
        if (hit_here) return true;  // some condition can fall below 0
        // A miss: can every condition be >= 0 at once?
        std::optional<typename Body<DoubleOps>::Conditions> approx;
        {
            CGAL::Protect_FPU_rounding<true> nearest(CGAL_FE_TONEAREST);
            approx.emplace(in, delta);
        }
        const auto approx_g = [&](int i) { return negative ? -approx->c[i] : approx->c[i]; };
        for (int i = 0; i < q.count; ++i)
            for (int j = 0; j < q.count; ++j) {
                if (i == j || Ops::sgn(e[i].lo) >= 0 || Ops::sgn(e[j].lo) >= 0) continue;
                double mu;
                {
                    CGAL::Protect_FPU_rounding<true> nearest(CGAL_FE_TONEAREST);
                    mu = weight(approx_g(i), approx_g(j), delta);
                }
                if (mu > 0 && Ops::sgn((g[i] + g[j] * S::constant(mu)).over(delta).hi) < 0) return false;
            }
        return true;
    }
};
};
template <class Ops> using RayTriangleBand = RayTriangleBandOf<false>::Body<Ops>;
template <class Ops> using RayTriangleLineBand = RayTriangleBandOf<true>::Body<Ops>;

/// The `cull_back` convention: a hit needs d . n < 0 (the front face of
/// the counter-clockwise winding); otherwise as the two-sided body.
template <class Ops> struct RayTriangleCullBody {
    static Out<Ops> run(const double* in) {
        using K = RayTriangleKeys;
        const auto d = point_of<Ops>(in + K::dir), a = point_of<Ops>(in + K::tri), b = point_of<Ops>(in + K::tri + 3),
                   c = point_of<Ops>(in + K::tri + 6);
        if (Ops::sgn(dot(d, cross(sub(b, a), sub(c, a)))) >= 0) return Out<Ops>{};
        return RayTriangleBody<Ops>::run(in);
    }
};

/// Its band: a face certainly turned away (det < 0 over the whole box) is
/// a miss no move changes; a face certainly turned towards the ray has the
/// two-sided band (its moves' test included). Where det = -d . n can reach
/// 0 the face can turn: a hit parts, and a miss joins only where a move
/// can give det > 0 and every condition of a hit >= 0 (each on its own, a
/// necessary condition: a back-face hit whose origin lies well off the
/// plane does not turn into a front-face one) and the moves' hull meets
/// the triangle. det and the conditions are enclosed to first order, in
/// each of the three rotations of the vertices (the winding kept), and the
/// input is in band where any rotation says so: the same in every order.
template <class Ops> struct RayTriangleCullBand {
    using Two = RayTriangleBand<Ops>;
    static constexpr size_t N = ray_triangle_input.size();
    /// -1: in no rotation can det reach 0; 0: it can, but no move gives a
    /// front-face hit; 1: a move may.
    static int turning(const double* in, int exact_answer, const double* delta) {
        int out = -1;
        double moved[N];
        for (int r = 0; r < 3; ++r) {
            Two::in_order(in, r, moved);
            const typename Two::Conditions q(moved, delta);
            if (!q.det.over(delta).holds_zero()) continue;
            if (exact_answer == 1) return 1;
            out = 0;
            bool reach = true;
            for (int i = 0; i < q.count && reach; ++i) reach = Ops::sgn(q.c[i].over(delta).hi) >= 0;
            if (reach) return 1;
        }
        return out;
    }
    static bool run(const double* in, int exact_answer, const double* delta) {
        using K = RayTriangleKeys;
        const auto d = point_of<Ops>(in + K::dir), a = point_of<Ops>(in + K::tri), b = point_of<Ops>(in + K::tri + 3),
                   c = point_of<Ops>(in + K::tri + 6);
        const int turns = turning(in, exact_answer, delta);
        if (turns == 0) return false;
        if (turns == 1) {
            using M = RayTriangleMoves<Ops>;
            return exact_answer == 1 || !M::proper(in) || M::miss_joins(in, delta);
        }
        // det keeps its sign: turned away, a miss for every move; facing,
        // the two-sided answer and band.
        if (Ops::sgn(dot(d, cross(sub(b, a), sub(c, a)))) >= 0) return false;
        return Two::run(in, exact_answer, delta);
    }
    static void directions(const double* in, int exact_answer, const double* delta, Directions& out) {
        Two::directions(in, exact_answer, delta, out);
    }
};

}  // namespace isect::ref::fast::detail
