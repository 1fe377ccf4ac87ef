// ray_sphere on a number type: the oracle body and the band.
//
// With f = o - c, a = d . d, b = d . f and k = f . f - r^2, the ray is in the
// ball where a t^2 + 2 b t + k <= 0 (isect/ref/ray_sphere.hpp). Every
// decision is the sign of a polynomial in the inputs; the roots are enclosed
// in interval arithmetic from exact (or interval) coefficients, by the stable
// pair q / a, k / q with q = -(b + sign(b) sqrt(b^2 - a k)).
#pragma once

#include "isect/ref/ray_sphere.hpp"
#include "numbers.hpp"

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

template <class Ops> struct RaySphereBody {
    using NT = typename Ops::NT;

    static Result run(const double* in) {
        const RaySphereQuadratic<Ops> q(in);
        const double tmax = in[RaySphereKeys::tmax];
        const bool bounded = !std::isinf(tmax);
        Result out;
        if (Ops::sgn(q.a) == 0) {  // the point o
            if (Ops::sgn(q.k) > 0) return out;
            out.answer = 1;
            push_exact(out, 0);
            push_exact(out, tmax);
            return out;
        }
        const NT disc = q.b * q.b - q.a * q.k;
        const int sb = Ops::sgn(q.b), sk = Ops::sgn(q.k);
        if (Ops::sgn(disc) < 0 || (sb > 0 && sk > 0)) return out;
        const NT t_max = Ops::of(bounded ? tmax : 0.0);
        const int s_end = bounded ? Ops::sgn(q.at(t_max)) : 1;
        if (bounded && Ops::sgn(q.b + q.a * t_max) < 0 && s_end > 0) return out;
        out.answer = 1;
        // The roots: q / a and k / q; b >= 0 makes q <= 0 and q / a the lesser.
        IA lesser(0), greater(0);
        if (sb != 0 || Ops::sgn(disc) != 0) {
            const IA root = Ops::root(disc), b = Ops::interval(q.b);
            const IA qq = sb >= 0 ? IA(-(b + root)) : IA(root - b);
            const IA q_over_a = qq / Ops::interval(q.a), k_over_q = Ops::interval(q.k) / qq;
            lesser = sb >= 0 ? q_over_a : k_over_q;
            greater = sb >= 0 ? k_over_q : q_over_a;
        }
        if (sk <= 0) push_exact(out, 0);
        else push(out, lesser);
        if (bounded && s_end <= 0) push_exact(out, tmax);
        else push(out, greater);
        return out;
    }
};

/// ray_sphere's band. Moving every input by at most delta moves c by at
/// most sqrt(3) delta, r by delta, and the point o + t d (for one t) by
/// sqrt(3) delta (1 + t); a finite tmax moves by delta, which stretches or
/// shrinks the segment by at most sqrt(3) delta (|d|_inf + delta). Only
/// t <= T matters: T = tmax + delta for a segment; for a ray, a point
/// within r + delta of the moved centre has t |d'| <= |f| + 2 sqrt(3) delta
/// + r + delta, so T = (sqrt(3) (|o|_inf + |c|_inf) + 2 sqrt(3) delta + r +
/// delta) / (|d|_inf - sqrt(3) delta). So the distance D from c to the
/// query moves by at most
///   W = delta (sqrt(3) (2 + T) + 1 [+ sqrt(3) (|d|_inf + delta) for a segment])
/// against r, and the answer can flip only where |D - r| <= W. Decided on
/// squares, T's denominator multiplied through: every test a sign of a
/// polynomial. A ray whose direction delta can zero (|d|_inf <= sqrt(3)
/// delta) can point anywhere: in the band unless its origin is in the ball
/// with room to spare. sqrt(3) is taken as 1.7321, above it.
template <class Ops> struct RaySphereBand {
    using NT = typename Ops::NT;

    static bool run(const double* in, int exact_answer, double delta) {
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
        const NT dl = Ops::of(delta), s3 = Ops::of(1.7321), r = Ops::of(in[K::r]), one(1), two(2);
        // W = V / e: e = 1 for a segment, T's denominator for a ray.
        NT e = one, v;
        if (bounded) {
            v = dl * (s3 * (two + Ops::of(tmax) + dl) + one + s3 * (Ops::of(dmax) + dl));
        } else {
            e = Ops::of(dmax) - s3 * dl;
            if (Ops::sgn(e) <= 0) {
                if (exact_answer == 0) return true;
                const NT room = r - dl * (two * s3 + one);  // o in the ball with room: every ray from it hits
                const NT f2 = dot(q.f, q.f);
                return !(Ops::sgn(room) >= 0 && Ops::sgn(room * room - f2) >= 0);
            }
            const NT n = s3 * (Ops::of(omax) + Ops::of(cmax)) + two * s3 * dl + r + dl;
            v = dl * (two * s3 + one) * e + dl * s3 * n;
        }
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
        if (Ops::sgn(pe2 - hi * hi * w) > 0) return false;
        return Ops::sgn(lo) <= 0 || Ops::sgn(pe2 - lo * lo * w) >= 0;
    }
};

}  // namespace isect::ref::fast::detail
