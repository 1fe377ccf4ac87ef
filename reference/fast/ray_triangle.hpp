// ray_triangle on a number type: the oracle body and the band.
#pragma once

#include "isect/ref/ray_triangle.hpp"
#include "policies.hpp"

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
template <class Ops> struct RayTriangleBody {
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
            if (Ops::sgn(sp) < 0 || Ops::sgn(n2 - sp) < 0 || Ops::sgn(t) < 0) return R{};
            if (tmax && Ops::sgn(*tmax * n2 - t) < 0) return R{};
            return hit({t, n2});
        }
        if (!zero(cross(op, d))) return R{};  // parallel lines apart
        const NT dd = dot(d, d);
        Frac<NT> tp{dot(op, d), dd}, tq{dot(sub(q, o), d), dd};
        if (compare(tp, tq) > 0) std::swap(tp, tq);
        Frac<NT> lo{NT(0), NT(1)};
        if (compare(tp, lo) > 0) lo = tp;
        Frac<NT> hi = tq;
        if (tmax && compare(Frac<NT>{*tmax, NT(1)}, hi) < 0) hi = Frac<NT>{*tmax, NT(1)};
        if (compare(lo, hi) > 0) return R{};
        return hit(lo);
    }

    static R run(const double* in) {
        using K = RayTriangleKeys;
        const RayTriangleFrame<Ops> f = RayTriangleFrame<Ops>::of(in);
        const P &o = f.o, &d = f.d, &a = f.a, &b = f.b, &c = f.c, &e1 = f.e1, &e2 = f.e2, &s = f.s, &n = f.n;
        const double tmax_in = in[K::tmax];
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
            if (negative(u) || negative(v) || negative(det - u - v) || negative(t)) return r;
            if (tmax && negative(*tmax * det - t)) return r;
            r.answer = 1;
            put_quotient<Ops>(r, t, det);
            put_quotient<Ops>(r, u, det);
            put_quotient<Ops>(r, v, det);
            return r;
        }
        if (Ops::sgn(dot(s, n)) != 0) return r;  // parallel, off the plane
        // In the plane: inside iff ((p_k+1 - p_k) x (x - p_k)) . n >= 0 for
        // each edge, alpha + t beta >= 0 along the ray.
        Frac<NT> lo{NT(0), NT(1)};
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
                if (compare(root, lo) > 0) lo = root;
            } else if (!hi || compare(root, *hi) < 0) {
                hi = root;
            }
            if (hi && compare(lo, *hi) > 0) return r;
        }
        // Barycentrics of x = o + t d, t = lo = num / den: with
        // den x - den a = den s + num d, u = ((den s + num d) x e2) . n / (den nn).
        const NT nn = dot(n, n);
        P ap;
        for (size_t i = 0; i < 3; ++i) ap[i] = lo.den * s[i] + lo.num * d[i];
        r.answer = 1;
        put_quotient<Ops>(r, lo.num, lo.den);
        put_quotient<Ops>(r, dot(cross(ap, e2), n), lo.den * nn);
        put_quotient<Ops>(r, dot(cross(e1, ap), n), lo.den * nn);
        return r;
    }
};

/// Each input number moves by at most its own delta (the direction by K u
/// |d|, tmax by K u tmax, the positions by K u M). Cramer's rule decides the
/// answer from the signs of det = -d . n and of u, v, det - u - v, t and
/// tmax det - t (numerators, scaled by sign(det)); each is a polynomial in
/// the inputs, enclosed over the whole delta-box twice, and the narrower
/// of the two kept (both are sound):
///  - evaluated in interval arithmetic over the box. Each vertex appears in
///    several factors (a in s = o - a, e1 and e2), which interval arithmetic
///    takes as independent: several times too wide near an edge;
///  - in mean-value form: its exact value at the input plus, for each number
///    x_i, its partial derivative enclosed over the box times [-delta_i,
///    delta_i] (the mean value theorem). The partials of the triple products
///    are cross products ([x, y, z] = x . (y x z) has gradients y x z, z x x
///    and x x y), so the form is as tight as a first-order perturbation: what
///    moving each number by its delta the right way changes.
/// If det's enclosure holds 0, any answer is reachable (parallel, coplanar
/// and degenerate configurations): in band. Otherwise the answer is
/// certainly a hit when every condition's enclosure is >= 0, certainly a
/// miss when some condition's is < 0, and in band otherwise: a superset of
/// the inputs whose answer can flip (a miss outside two edges at once counts
/// as reachable when each edge alone can be crossed).
template <class Ops> struct RayTriangleBand {
    using B = Bounds<Ops>;
    using NT = typename Ops::NT;
    using V = BPoint<Ops>;
    /// A condition's partials, by input key (o, d, a, b, c), over the box.
    struct Gradient {
        V o, d, a, b, c;
        Gradient operator-(const Gradient& g) const { return {o - g.o, d - g.d, a - g.a, b - g.b, c - g.c}; }
    };
    static V neg(const V& x) { return {-x[0], -x[1], -x[2]}; }
    static V plus(const V& x, const V& y) { return {x[0] + y[0], x[1] + y[1], x[2] + y[2]}; }
    static V times(const B& k, const V& x) { return {k * x[0], k * x[1], k * x[2]}; }
    /// max |x| over the enclosure.
    static NT magnitude(const B& x) {
        const NT p[4] = {x.hi, -x.lo, x.hi, -x.lo};
        return Ops::greatest(p);
    }
    /// sum_i max |g_i| delta_i: how far the condition moves over the box.
    static NT reach(const V& g, const double* delta) {
        return magnitude(g[0]) * Ops::of(delta[0]) + magnitude(g[1]) * Ops::of(delta[1]) + magnitude(g[2]) * Ops::of(delta[2]);
    }
    static NT reach(const Gradient& g, const double* delta) {
        using K = RayTriangleKeys;
        return reach(g.o, delta + K::org) + reach(g.d, delta + K::dir) + reach(g.a, delta + K::tri) +
               reach(g.b, delta + K::tri + 3) + reach(g.c, delta + K::tri + 6);
    }
    /// The narrower of the box enclosure and the mean-value one around `at`.
    static B narrowed(const B& box, const B& at, const NT& r) {
        const NT lo[4] = {box.lo, at.lo - r, box.lo, at.lo - r}, hi[4] = {box.hi, at.hi + r, box.hi, at.hi + r};
        return {Ops::greatest(lo), Ops::least(hi)};
    }

    /// Whether conditions whose signs decide a hit (all >= 0) leave the
    /// answer open: in band. False where they settle it (some certainly < 0,
    /// or all certainly >= 0).
    static bool open(const B* conditions, int count) {
        bool certain_hit = true;
        for (int i = 0; i < count; ++i) {
            if (Ops::sgn(conditions[i].hi) < 0) return false;  // certainly a miss
            if (Ops::sgn(conditions[i].lo) < 0) certain_hit = false;
        }
        return !certain_hit;
    }

    /// Whether det is certainly 0 at the input, or every condition of a hit
    /// holds there and one of them is certainly 0 (an exact touch): any
    /// delta > 0 can then flip the answer (a superset where a partial
    /// happens to vanish). Never throws Undecided: what intervals cannot
    /// settle is left to the mean-value form.
    static bool touches(const double* in) {
        using K = RayTriangleKeys;
        const auto o = point_of<Ops>(in + K::org), d = point_of<Ops>(in + K::dir), a = point_of<Ops>(in + K::tri),
                   b = point_of<Ops>(in + K::tri + 3), c = point_of<Ops>(in + K::tri + 6);
        const auto e1 = sub(b, a), e2 = sub(c, a), s = sub(o, a), n = cross(e1, e2);
        const NT det = -dot(d, n);
        if (Ops::certainly_zero(det)) return true;
        const NT u = -dot(d, cross(s, e2)), v = -dot(d, cross(e1, s)), t = dot(s, n);
        NT conditions[5] = {u, v, det - u - v, t, t};
        const double tmax = in[K::tmax];
        const int count = std::isinf(tmax) ? 4 : 5;
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
    static bool certainly_positive(const NT& x) {
        if constexpr (std::is_same_v<Ops, IntervalOps>) return x.inf() > 0;
        else return Ops::sgn(x) > 0;
    }

    static bool run(const double* in, int /*exact_answer*/, const double* delta) {
        using K = RayTriangleKeys;
        const double tmax = in[K::tmax];
        const bool bounded = !std::isinf(tmax);
        // tmax over the box (a finite one: rationals hold no inf).
        const B T = bounded ? B{Ops::of(tmax) - Ops::of(delta[K::tmax]), Ops::of(tmax) + Ops::of(delta[K::tmax])}
                            : B{Ops::of(0), Ops::of(0)};
        // Where the input touches (det, or a condition of a hit, exactly 0),
        // moving it can flip the answer: in band, with nothing to enclose
        // (most wrong answers a holding kernel gives are such).
        if (touches(in)) return true;
        // Over the box: where it settles the answer, the narrower form does.
        const V o = widened<Ops>(in + K::org, delta + K::org), d = widened<Ops>(in + K::dir, delta + K::dir);
        const V a = widened<Ops>(in + K::tri, delta + K::tri), b = widened<Ops>(in + K::tri + 3, delta + K::tri + 3),
                c = widened<Ops>(in + K::tri + 6, delta + K::tri + 6);
        const V e1 = b - a, e2 = c - a, s = o - a, n = cross(e1, e2);
        const B det_box = -dot(d, n), u_box = -dot(d, cross(s, e2)), v_box = -dot(d, cross(e1, s)), t_box = dot(s, n);
        if (!det_box.holds_zero()) {
            const bool negative = Ops::sgn(det_box.hi) < 0;
            const auto signed_b = [negative](const B& x) { return negative ? -x : x; };
            const B box[5] = {signed_b(u_box), signed_b(v_box), signed_b(det_box - u_box - v_box), signed_b(t_box),
                              signed_b(T * det_box - t_box)};
            if (!open(box, bounded ? 5 : 4)) return false;
        }
        // In mean-value form, around the input itself.
        const double none[3] = {0, 0, 0};
        const V o0 = widened<Ops>(in + K::org, none), d0 = widened<Ops>(in + K::dir, none), a0 = widened<Ops>(in + K::tri, none),
                b0 = widened<Ops>(in + K::tri + 3, none), c0 = widened<Ops>(in + K::tri + 6, none);
        const V e10 = b0 - a0, e20 = c0 - a0, s0 = o0 - a0, n0 = cross(e10, e20);
        // The partials of det = -[d, e1, e2], u = -[d, s, e2], v = -[d, e1, s]
        // and t = [s, e1, e2] (s = o - a, e1 = b - a, e2 = c - a).
        const V e2xd = cross(e2, d), dxe1 = cross(d, e1), dxs = cross(d, s), sxd = neg(dxs), e2xs = cross(e2, s),
                sxe1 = cross(s, e1);
        const V zero{B{Ops::of(0), Ops::of(0)}, B{Ops::of(0), Ops::of(0)}, B{Ops::of(0), Ops::of(0)}};
        const Gradient g_det{zero, neg(n), plus(e2xd, dxe1), neg(e2xd), neg(dxe1)};
        const B det_at = -dot(d0, n0);
        const B det = narrowed(det_box, det_at, reach(g_det, delta));
        if (det.holds_zero()) return true;
        const Gradient g_u{neg(e2xd), neg(cross(s, e2)), plus(e2xd, dxs), zero, neg(dxs)};
        const Gradient g_v{neg(dxe1), neg(cross(e1, s)), plus(dxe1, sxd), neg(sxd), zero};
        const Gradient g_t{n, zero, neg(plus(n, plus(e2xs, sxe1))), e2xs, sxe1};
        const bool negative = Ops::sgn(det.hi) < 0;
        const auto signed_b = [negative](const B& x) { return negative ? -x : x; };
        const B u_at = -dot(d0, cross(s0, e20)), v_at = -dot(d0, cross(e10, s0)), t_at = dot(s0, n0);
        B conditions[5] = {signed_b(narrowed(u_box, u_at, reach(g_u, delta))),
                           signed_b(narrowed(v_box, v_at, reach(g_v, delta))),
                           signed_b(narrowed(det_box - u_box - v_box, det_at - u_at - v_at, reach(g_det - g_u - g_v, delta))),
                           signed_b(narrowed(t_box, t_at, reach(g_t, delta))), B{}};
        if (bounded) {
            // tmax det - t: partials T g_det - g_t, and det for tmax itself.
            const Gradient g{times(T, g_det.o) - g_t.o, times(T, g_det.d) - g_t.d, times(T, g_det.a) - g_t.a,
                             times(T, g_det.b) - g_t.b, times(T, g_det.c) - g_t.c};
            const B at = B{Ops::of(tmax), Ops::of(tmax)} * det_at - t_at;
            const NT r = reach(g, delta) + magnitude(det_box) * Ops::of(delta[K::tmax]);
            conditions[4] = signed_b(narrowed(T * det_box - t_box, at, r));
        }
        return open(conditions, bounded ? 5 : 4);
    }
};

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

/// Its band: where det = -d . n can reach 0 the face can turn (in band, as
/// for two-sided triangles); a face certainly turned away (det < 0 over the
/// whole box) is a miss no move changes; a face certainly turned towards
/// the ray has the two-sided band.
template <class Ops> struct RayTriangleCullBand {
    static bool run(const double* in, int exact_answer, const double* delta) {
        using K = RayTriangleKeys;
        const BPoint<Ops> d = widened<Ops>(in + K::dir, delta + K::dir);
        const BPoint<Ops> a = widened<Ops>(in + K::tri, delta + K::tri), b = widened<Ops>(in + K::tri + 3, delta + K::tri + 3),
                          c = widened<Ops>(in + K::tri + 6, delta + K::tri + 6);
        const Bounds<Ops> det = -dot(d, cross(b - a, c - a));
        if (det.holds_zero()) return true;
        if (Ops::sgn(det.hi) < 0) return false;
        return RayTriangleBand<Ops>::run(in, exact_answer, delta);
    }
};

}  // namespace isect::ref::fast::detail
