// ray_sphere on a number type: the oracle body and the band.
//
// With f = o - c, a = d . d, b = d . f and k = f . f - r^2, the ray is in the
// ball where a t^2 + 2 b t + k <= 0 (isect/ref/ray_sphere.hpp). Every
// decision is the sign of a polynomial in the inputs; the roots are enclosed
// in interval arithmetic from exact (or interval) coefficients, by the stable
// pair q / a, k / q with q = -(b + sign(b) sqrt(b^2 - a k)).
#pragma once

#include "isect/ref/ray_sphere.hpp"
#include "policies.hpp"
#include "slope.hpp"

namespace isect::ref {
/// root_to_double and root_quotient_to_double (isect/ref/ray_sphere.hpp) on
/// Mpzf coefficients, as the exact body has them.
double root_to_double(const CGAL::Mpzf& p, int s, const CGAL::Mpzf& x, const CGAL::Mpzf& q);
double root_quotient_to_double(const CGAL::Mpzf& n, const CGAL::Mpzf& p, int s, const CGAL::Mpzf& x);
}  // namespace isect::ref

namespace isect::ref::fast::detail {

/// The ray and the ball, by key.
struct RaySphereKeys {
    static constexpr size_t org = ray_sphere_input.at("org"), dir = ray_sphere_input.at("dir");
    static constexpr size_t tmax = ray_sphere_input.at("tmax"), c = ray_sphere_input.at("c"), r = ray_sphere_input.at("r");
};

/// The quadratic's coefficients, exact (or enclosed) in Ops.
template <class Ops> struct RaySphereQuadratic {
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;
    P f, d;
    NT a, b, k;
    explicit RaySphereQuadratic(const double* in) {
        using K = RaySphereKeys;
        d = point_of<Ops>(in + K::dir);
        f = sub(point_of<Ops>(in + K::org), point_of<Ops>(in + K::c));
        const NT r = Ops::of(in[K::r]);
        a = dot(d, d);
        b = dot(d, f);
        k = NT(dot(f, f) - r * r);
    }
    /// a t^2 + 2 b t + k.
    NT at(const NT& t) const { return NT(a * t * t + NT(2) * b * t + k); }
};

/// The two roots of q, the lesser first, by the stable pair q / a and k / q
/// (q = -(b + sign(b) sqrt(disc)); b >= 0 makes q <= 0 and q / a the lesser):
/// on exact numbers (RationalOutOps) the nearest doubles, else enclosures.
/// Both 0 where b and disc are 0 (the double root 0). sb and sdisc are the
/// signs of b and disc (disc >= 0).
template <class Ops> auto stable_roots(const RaySphereQuadratic<Ops>& q, const typename Ops::NT& disc, int sb, int sdisc) {
    using NT = typename Ops::NT;
    if constexpr (std::is_same_v<Out<Ops>, ExactResult>) {
        const int s = sb >= 0 ? 1 : -1;
        double q_over_a = 0, k_over_q = 0;
        if (sb != 0 || sdisc != 0) {
            const NT minus_b = -q.b;
            q_over_a = root_to_double(minus_b, -s, disc, q.a);
            k_over_q = root_quotient_to_double(q.k, minus_b, -s, disc);
        }
        return s > 0 ? std::pair{q_over_a, k_over_q} : std::pair{k_over_q, q_over_a};
    } else {
        IA lesser(0), greater(0);
        if (sb != 0 || sdisc != 0) {
            const IA root = Ops::root(disc), b = Ops::interval(q.b);
            const IA qq = sb >= 0 ? IA(-(b + root)) : IA(root - b);
            const IA q_over_a = qq / Ops::interval(q.a), k_over_q = Ops::interval(q.k) / qq;
            lesser = sb >= 0 ? q_over_a : k_over_q;
            greater = sb >= 0 ? k_over_q : q_over_a;
        }
        return std::pair{lesser, greater};
    }
}

template <class Ops> struct RaySphereBody {
    using NT = typename Ops::NT;
    static constexpr bool exact_out = std::is_same_v<Out<Ops>, ExactResult>;

    /// t_enter, t_exit; on exact numbers each the double nearest the root
    /// (MPFR), and none for +inf (a root beyond the double range, an
    /// unbounded exit: a rational has no inf).
    /// The ball's answer, by the signs of the quadratic: which test decided
    /// and what each took (disc and the signs are left unset for the point o).
    struct Decision {
        SphereVerdict verdict = SphereVerdict::meets;
        NT disc;
        int sb = 0, sk = 0, sdisc = 0, s_end = 1;
    };
    static Decision decide(const RaySphereQuadratic<Ops>& q, double tmax) {
        Decision d;
        if (Ops::sgn(q.a) == 0) {  // the point o
            d.sk = Ops::sgn(q.k);
            d.verdict = d.sk > 0 ? SphereVerdict::point_outside : SphereVerdict::point_inside;
            return d;
        }
        d.disc = q.b * q.b - q.a * q.k;
        d.sb = Ops::sgn(q.b);
        d.sk = Ops::sgn(q.k);
        d.sdisc = Ops::sgn(d.disc);
        if (d.sdisc < 0) d.verdict = SphereVerdict::beside;
        else if (d.sb > 0 && d.sk > 0) d.verdict = SphereVerdict::behind;
        if (d.verdict != SphereVerdict::meets || std::isinf(tmax)) return d;
        const NT t_max = Ops::of(tmax);
        d.s_end = Ops::sgn(q.at(t_max));
        if (Ops::sgn(q.b + q.a * t_max) < 0 && d.s_end > 0) d.verdict = SphereVerdict::past_end;
        return d;
    }

    static Out<Ops> run(const double* in) {
        const RaySphereQuadratic<Ops> q(in);
        const double tmax = in[RaySphereKeys::tmax];
        const bool bounded = !std::isinf(tmax);
        Out<Ops> out;
        const auto put_t = [&out](double t) {
            if constexpr (exact_out) {
                if (std::isinf(t)) return put_none<Ops>(out);
            }
            put_double<Ops>(out, t);
        };
        const Decision dec = decide(q, tmax);
        if (dec.verdict == SphereVerdict::point_inside) {
            out.answer = 1;
            put_t(0);
            put_t(tmax);
            return out;
        }
        if (dec.verdict != SphereVerdict::meets) return out;
        const int sk = dec.sk, s_end = dec.s_end;
        out.answer = 1;
        const auto [lesser, greater] = stable_roots<Ops>(q, dec.disc, dec.sb, dec.sdisc);
        if constexpr (exact_out) {
            put_t(sk <= 0 ? 0.0 : lesser);
            put_t(bounded && s_end <= 0 ? tmax : greater);
        } else {
            if (sk <= 0) push_exact(out, 0);
            else push(out, lesser);
            if (bounded && s_end <= 0) push_exact(out, tmax);
            else push(out, greater);
        }
        return out;
    }
};

/// ray_sphere's wide band, in closed form: cheap, and up to a few times
/// wider than the inputs that flip. RaySphereBand asks it first: where it
/// says no flip, there is none. o, c and r move by delta_p (K u M, M the largest
/// magnitude of o, c and r), d by delta_d (K u |d|_inf) and a finite tmax
/// by delta_t (K u tmax). That moves c by at most sqrt(3) delta_p, r by
/// delta_p, and the point o + t d (for one t) by sqrt(3) (delta_p + t
/// delta_d). Only t <= T matters. For a ray, a point within r + delta_p of
/// the moved centre has t |d'| <= |f| + 2 sqrt(3) delta_p + r + delta_p,
/// so T_ray = (sqrt(3) (|o|_inf + |c|_inf) + 2 sqrt(3) delta_p + r +
/// delta_p) / (|d|_inf - delta_d); for a segment T = min(tmax + delta_t,
/// T_ray), so that a tmax of FLT_MAX (an unbounded ray, as engines pass
/// it) reaches no further than the ball. The distance D from c to the query
/// moves by at most
///   W = delta_p (2 sqrt(3) + 1) + sqrt(3) T delta_d
///       [+ sqrt(3) delta_t (|d|_inf + delta_d) for a segment whose moved
///        end, tmax - delta_t, can fall before T_ray]
/// against r, and the answer can flip only where |D - r| <= W. Decided on
/// squares, T's denominator multiplied through: every test a sign of a
/// polynomial. A zero direction is the point o (delta_d = 0, W =
/// delta_p (2 sqrt(3) + 1)). A ray whose direction delta_d can zero (|d|_inf
/// <= delta_d, K >= 1/u) can point anywhere: in band unless its origin is in
/// the ball with room to spare. sqrt(3) is taken as 1.7321, above it.
///
/// It also names inputs certainly in band, by one move the box allows: the
/// radius alone, shrunk by its delta (to 0 at least) under a hit or grown
/// under a miss, against the same D; where that alone flips the answer no
/// slope is needed (inside_is_miss's run of 100,000 cases: 4,183 of the
/// 37,165 hits asked of the band settled so).
enum class WideVerdict { no_flip, flips, maybe };
template <class Ops> struct RaySphereWideBand {
    using NT = typename Ops::NT;

    static WideVerdict run(const double* in, int exact_answer, const double* delta) {
        using K = RaySphereKeys;
        const RaySphereQuadratic<Ops> q(in);
        const double tmax = in[K::tmax];
        const bool bounded = !std::isinf(tmax);
        double dmax = 0, omax = 0, cmax = 0;
        for (size_t i = 0; i < 3; ++i) {
            dmax = std::max(dmax, std::fabs(in[K::dir + i]));
            omax = std::max(omax, std::fabs(in[K::org + i]));
            cmax = std::max(cmax, std::fabs(in[K::c + i]));
        }
        const NT dp = Ops::of(delta[K::org]), dd = Ops::of(delta[K::dir]), dt = Ops::of(bounded ? delta[K::tmax] : 0.0);
        const NT s3 = Ops::of(1.7321), r = Ops::of(in[K::r]), one(1), two(2);
        // T = tn / e, the furthest t that matters; W = v / e. The end of a
        // segment counts where it can fall before T_ray.
        NT tn(0), e = one;
        bool end_counts = bounded;
        const NT reach = Ops::of(bounded ? tmax : 0.0) + dt;
        if (dmax > 0) {
            const NT e_ray = Ops::of(dmax) - dd;
            if (Ops::sgn(e_ray) > 0) {
                tn = s3 * (Ops::of(omax) + Ops::of(cmax)) + two * s3 * dp + r + dp;
                e = e_ray;
                if (bounded && Ops::sgn(reach * e - tn) < 0) {
                    tn = reach;
                    e = one;
                } else if (bounded) {
                    end_counts = Ops::sgn((Ops::of(tmax) - dt) * e - tn) <= 0;
                }
            } else if (bounded) {
                tn = reach;
            } else {
                if (exact_answer == 0) return WideVerdict::maybe;
                const NT room = r - dp * (two * s3 + one);  // o in the ball with room: every ray from it hits
                const NT f2 = dot(q.f, q.f);
                return Ops::sgn(room) >= 0 && Ops::sgn(room * room - f2) >= 0 ? WideVerdict::no_flip : WideVerdict::maybe;
            }
        }
        NT v = dp * (two * s3 + one) * e + s3 * tn * dd;
        if (end_counts) v = v + s3 * dt * (Ops::of(dmax) + dd) * e;
        // D^2 = p / w: the distance from c to the nearest point of the query.
        NT p, w = one;
        const NT t_max = Ops::of(bounded ? tmax : 0.0);
        if (Ops::sgn(q.b) >= 0) {
            p = dot(q.f, q.f);  // nearest at t = 0
        } else if (bounded && Ops::sgn(q.b + q.a * t_max) <= 0) {
            p = q.at(t_max) + r * r;  // nearest at tmax: |f + tmax d|^2
        } else {
            p = q.a * dot(q.f, q.f) - q.b * q.b;  // the foot on the line, at t = -b / a
            w = q.a;
        }
        // |D - r| <= V / e, as D e in [r e - V, r e + V].
        const NT pe2 = p * e * e, lo = r * e - v, hi = r * e + v;
        if (Ops::sgn(pe2 - hi * hi * w) > 0) return WideVerdict::no_flip;
        if (!(Ops::sgn(lo) <= 0 || Ops::sgn(pe2 - lo * lo * w) >= 0)) return WideVerdict::no_flip;
        // The radius alone: a hit is a miss once r' < D (r' = r - delta_r,
        // 0 at least), a miss a hit once r' = r + delta_r >= D.
        const double dr = delta[K::r];
        if (!(in[K::r] >= 0)) return WideVerdict::maybe;
        if (exact_answer == 1) {
            const NT moved = Ops::of(in[K::r]) - Ops::of(dr);
            const NT r2 = Ops::sgn(moved) <= 0 ? NT(0) : NT(moved * moved);
            if (Ops::sgn(r2 * w - p) < 0) return WideVerdict::flips;
        } else if (exact_answer == 0) {
            const NT moved = Ops::of(in[K::r]) + Ops::of(dr);
            if (Ops::sgn(moved * moved * w - p) >= 0) return WideVerdict::flips;
        }
        return WideVerdict::maybe;
    }
};

/// ray_sphere's band. The ball's answer is a function of the signs of six
/// polynomials (RaySphereBody::decide): a = d . d, b, k, the discriminant
/// b^2 - a k and, for a segment, the end's q(tmax) and b + a tmax. Each is
/// enclosed to first order over the delta-box (Slope), which gives the
/// signs it can take there; the answer can flip where some choice of those
/// signs decides another answer (a superset: the signs are taken as
/// independent). A tmax of inf does not move; one of FLT_MAX is a number
/// like any other.
template <class Ops> struct RaySphereBand {
    static constexpr size_t N = ray_sphere_input.size();
    using S = Slope<Ops, N>;
    using B = Bounds<Ops>;

    /// The ball's quadratic on slopes. `partly`: a, b and k only, the
    /// discriminant and the end's two at the input alone (as numbers that do
    /// not move: one sign each, the one the input has): a cheaper first look,
    /// whose every choice of signs the whole quadratic's allows too;
    /// complete() then adds their slopes, a, b and k as they are.
    struct Quadratic {
        S a, b, k, disc, end, h;
        bool bounded = false, end_at_origin = false;
        const double* input = nullptr;
        Quadratic(const double* in, const double* delta, bool partly = false) : input(in) {
            using K = RaySphereKeys;
            const auto o = S::input_point(in, delta, K::org);
            d_ = S::input_point(in, delta, K::dir);
            r_ = S::input(in[K::r], delta[K::r], K::r);
            f_ = sub(o, S::input_point(in, delta, K::c));
            a = dot(d_, d_);
            b = dot(d_, f_);
            k = dot(f_, f_) - r_ * r_;
            bounded = !std::isinf(in[K::tmax]);
            end_at_origin = in[K::tmax] == 0;  // tmax 0 moves by K u 0
            if (!partly) {
                complete(delta);
                return;
            }
            const auto fixed = [&](size_t at) {
                return std::array<S, 3>{S::constant(in[at]), S::constant(in[at + 1]), S::constant(in[at + 2])};
            };
            const auto d0 = fixed(K::dir), f0 = sub(fixed(K::org), fixed(K::c));
            const S r0 = S::constant(in[K::r]);
            rest(d0, f0, r0, S::constant(bounded ? in[K::tmax] : 0), dot(d0, d0), dot(d0, f0), dot(f0, f0) - r0 * r0);
        }
        /// The discriminant's and the end's slopes over the box.
        void complete(const double* delta) {
            using K = RaySphereKeys;
            rest(d_, f_, r_, bounded ? S::input(input[K::tmax], delta[K::tmax], K::tmax) : S::constant(0), a, b, k);
        }

    private:
        std::array<S, 3> d_, f_;  ///< the direction and o - c, moving
        S r_;
        /// The discriminant, and for a segment the end's two, from d, f, r,
        /// t and their a, b and k.
        void rest(const std::array<S, 3>& d, const std::array<S, 3>& f, const S& r, const S& t, const S& qa, const S& qb,
                  const S& qk) {
            // b^2 - a k as a r^2 - |d x f|^2 (Lagrange's identity): the
            // same polynomial without the cancellation of b^2 against a |f|^2,
            // whose partials over the box are then far narrower.
            const auto m = cross(d, f);
            disc = qa * r * r - dot(m, m);
            if (bounded) {
                h = qb + qa * t;
                end = (qa * t + qb + qb) * t + qk;
            }
        }
    };
    /// The ball's answer from the signs of a, b, k, disc, end and h, as
    /// RaySphereBody::decide takes it.
    static bool hit(const int (&s)[6], bool bounded) {
        if (s[0] == 0) return s[2] <= 0;  // the point o
        if (s[3] < 0) return false;       // beside
        if (s[1] > 0 && s[2] > 0) return false;  // behind
        return !(bounded && s[5] < 0 && s[4] > 0);  // past the end
    }
    /// Whether `answer` (a function of the six signs) can flip over the box.
    template <class Answer> static bool flips(const Quadratic& q, const double* delta, Answer answer) {
        const S* p[6] = {&q.a, &q.b, &q.k, &q.disc, &q.end, &q.h};
        const int count = q.bounded ? 6 : 4;
        int at[6] = {1, 0, 0, 0, 0, 0}, can[6] = {4, 4, 4, 4, 4, 4};
        int exact[6];
        bool exact_known = false;
        for (int i = 0; i < count; ++i) {
            if constexpr (std::is_same_v<Ops, IntervalOps>) {
                // A sign at the input the intervals leave open (an input
                // that touches: k or b exactly 0) is taken exactly, not by
                // running the whole band again on Mpzf.
                at[i] = sign_of(p[i]->at.lo);
                if (at[i] == kUnknown) {
                    if (!exact_known) exact_signs(q.input, exact);
                    exact_known = true;
                    at[i] = exact[i];
                }
            } else {
                at[i] = Ops::sgn(p[i]->at.lo);
            }
            can[i] = p[i]->over(delta).sign_bits();
        }
        const bool here = answer(at);
        // Every choice of signs the box allows: each function's in turn, the
        // rest at the input's (most allow one sign, and then one choice).
        int choices[6][3], counts[6], s[6];
        for (int i = 0; i < 6; ++i) {
            counts[i] = 0;
            for (int v = -1; v <= 1; ++v)
                if (i < count ? (can[i] >> (v + 1) & 1) : v == at[i]) choices[i][counts[i]++] = v;
            if (counts[i] == 0) return true;  // (never: an enclosure holds some sign; in band if it did not)
        }
        int pick[6] = {0, 0, 0, 0, 0, 0};
        for (;;) {
            for (int i = 0; i < 6; ++i) s[i] = choices[i][pick[i]];
            // A segment of length 0 ends where it starts: q(tmax) is k, and
            // b + a tmax is b.
            const bool allowed = !q.end_at_origin || (s[4] == s[2] && s[5] == s[1]);
            if (allowed && answer(s) != here) return true;
            int i = 0;
            while (i < 6 && ++pick[i] == counts[i]) pick[i++] = 0;
            if (i == 6) break;
        }
        return false;
    }
    /// The six functions' signs at the input, exactly (on Mpzf).
    static void exact_signs(const double* in, int (&out)[6]) {
        using M = MpzfOps;
        const RaySphereQuadratic<M> q(in);
        out[0] = M::sgn(q.a);
        out[1] = M::sgn(q.b);
        out[2] = M::sgn(q.k);
        out[3] = M::sgn(q.b * q.b - q.a * q.k);
        if (std::isinf(in[RaySphereKeys::tmax])) return;
        const CGAL::Mpzf t = M::of(in[RaySphereKeys::tmax]);
        out[4] = M::sgn(q.at(t));
        out[5] = M::sgn(q.b + q.a * t);
    }
    /// The wide band's verdict; on intervals, on Mpzf where they cannot
    /// decide it (and the slopes still on intervals).
    static WideVerdict wide(const double* in, int exact_answer, const double* delta) {
        if constexpr (std::is_same_v<Ops, IntervalOps>) {
            try {
                return RaySphereWideBand<Ops>::run(in, exact_answer, delta);
            } catch (const Undecided&) {
                return RaySphereWideBand<MpzfOps>::run(in, exact_answer, delta);
            }
        } else {
            return RaySphereWideBand<Ops>::run(in, exact_answer, delta);
        }
    }
    static bool run(const double* in, int exact_answer, const double* delta) {
        // Most wrong answers of a broken kernel are far outside: the closed
        // form says so for a fraction of the slopes' cost.
        switch (wide(in, exact_answer, delta)) {
            case WideVerdict::no_flip: return false;
            case WideVerdict::flips: return true;
            case WideVerdict::maybe: break;
        }
        // A flip the moving a, b and k show alone (the origin leaving the
        // ball, the ball falling behind it) needs no discriminant's slope.
        const auto answer = [](const Quadratic& q) { return [&q](const int(&s)[6]) { return hit(s, q.bounded); }; };
        Quadratic q(in, delta, true);
        if (flips(q, delta, answer(q))) return true;
        q.complete(delta);
        return flips(q, delta, answer(q));
    }
    /// Towards each deciding function's 0 (the ball's and the surface's).
    static void directions(const double* in, int /*exact_answer*/, const double* delta, Directions& out) {
        const Quadratic q(in, delta);
        for (const S* g : {&q.disc, &q.k, &q.b}) towards_zero(*g, out);
        if (q.bounded)
            for (const S* g : {&q.end, &q.h}) towards_zero(*g, out);
    }
};

/// The `line` convention: the whole line o + t d against the closed ball,
/// tmax ignored (d != 0: the convention's domain). Hit iff b^2 - a k >= 0;
/// t_enter and t_exit the lesser and the greater root, by the stable pair q
/// / a, k / q, neither clamped.
template <class Ops> struct RaySphereLineBody {
    using NT = typename Ops::NT;
    static constexpr bool exact_out = std::is_same_v<Out<Ops>, ExactResult>;
    static Out<Ops> run(const double* in) {
        const RaySphereQuadratic<Ops> q(in);
        Out<Ops> out;
        if (Ops::sgn(q.a) == 0) return out;  // no line: outside the convention's domain
        const NT disc = q.b * q.b - q.a * q.k;
        const int sdisc = Ops::sgn(disc), sb = Ops::sgn(q.b);
        if (sdisc < 0) return out;
        out.answer = 1;
        const auto [lesser, greater] = stable_roots<Ops>(q, disc, sb, sdisc);
        if constexpr (exact_out) {
            // A root beyond the doubles' range as a rational beyond it, of
            // its sign (its nearest double is inf).
            for (const double t : {lesser, greater}) {
                if (std::isinf(t)) {
                    out.values[size_t(out.count)] = Rational(t > 0 ? DBL_MAX : -DBL_MAX) * 2;
                    out.known[size_t(out.count++)] = true;
                } else {
                    put_double<Ops>(out, t);
                }
            }
        } else {
            push(out, lesser);
            push(out, greater);
        }
        return out;
    }
};

/// The `line` convention's band: the answer is the sign of the discriminant
/// (or, where d can reach 0, of k: the point o), each enclosed to first order
/// over the delta-box (RaySphereBand's quadratic, with no end).
template <class Ops> struct RaySphereLineBand {
    using Ball = RaySphereBand<Ops>;
    /// The input with tmax unbounded: a line has no end.
    struct Unbounded {
        std::array<double, ray_sphere_input.size()> in;
        explicit Unbounded(const double* x) {
            std::copy(x, x + in.size(), in.begin());
            in[RaySphereKeys::tmax] = std::numeric_limits<double>::infinity();
        }
    };
    static bool hit(const int (&s)[6]) { return s[0] == 0 ? s[2] <= 0 : s[3] >= 0; }
    static bool run(const double* in, int /*exact_answer*/, const double* delta) {
        const Unbounded u(in);
        const typename Ball::Quadratic q(u.in.data(), delta);
        return Ball::flips(q, delta, [](const int(&s)[6]) { return hit(s); });
    }
    static void directions(const double* in, int /*exact_answer*/, const double* delta, Directions& out) {
        const Unbounded u(in);
        const typename Ball::Quadratic q(u.in.data(), delta);
        for (const auto* g : {&q.disc, &q.k}) towards_zero(*g, out);
    }
};

/// The `surface` convention (isect/ref/ray_sphere.hpp's sphere_surface):
/// the ball's answer, then the origin's and the end's sides of the sphere,
/// each the sign of the quadratic at 0 or at tmax.
template <class Ops> struct RaySphereSurfaceBody {
    static Out<Ops> run(const double* in) {
        const Out<Ops> ball = RaySphereBody<Ops>::run(in);
        if (ball.answer == 0) return ball;
        const RaySphereQuadratic<Ops> q(in);
        const double tmax = in[RaySphereKeys::tmax];
        const bool origin_inside = Ops::sgn(q.k) < 0;
        const bool end_inside = Ops::sgn(q.a) == 0 ? origin_inside : !std::isinf(tmax) && Ops::sgn(q.at(Ops::of(tmax))) < 0;
        if (origin_inside && end_inside) return Out<Ops>{};
        Out<Ops> out;
        out.answer = 1;
        out.count = 2;
        const int first = origin_inside ? 1 : 0, last = end_inside ? 0 : 1;
        for (const auto& [to, from] : {std::pair{0, first}, std::pair{1, last}}) {
            if constexpr (std::is_same_v<Out<Ops>, ExactResult>) {
                out.values[size_t(to)] = ball.values[size_t(from)];
                out.known[size_t(to)] = ball.known[size_t(from)];
            } else {
                out.lo[to] = ball.lo[from];
                out.hi[to] = ball.hi[from];
            }
        }
        return out;
    }
};

/// The `surface` convention's band: its answer is the ball's, but a miss
/// where the origin and the end are both inside (RaySphereSurfaceBody),
/// which the signs of k and q(tmax) say: the same six signs decide it.
template <class Ops> struct RaySphereSurfaceBand {
    static bool run(const double* in, int /*exact_answer*/, const double* delta) {
        using Ball = RaySphereBand<Ops>;
        const typename Ball::Quadratic q(in, delta);
        return Ball::flips(q, delta, [&q](const int(&s)[6]) {
            const bool end_inside = s[0] == 0 ? s[2] < 0 : q.bounded && s[4] < 0;
            return Ball::hit(s, q.bounded) && !(s[2] < 0 && end_inside);
        });
    }
    static void directions(const double* in, int exact_answer, const double* delta, Directions& out) {
        RaySphereBand<Ops>::directions(in, exact_answer, delta, out);
    }
};

}  // namespace isect::ref::fast::detail
