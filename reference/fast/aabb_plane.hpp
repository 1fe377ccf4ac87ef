// A box against a plane n . x = d on a number type: the bodies of
// aabb_plane, aabb_plane_overlap and moving_aabb_plane, and their bands.
#pragma once

#include "isect/ref/aabb_plane.hpp"
#include "isect/ref/moving_aabb.hpp"
#include "policies.hpp"

namespace isect::ref::fast::detail {

/// The box and the plane, by key: the same offsets in aabb_plane's input and
/// in moving_aabb_plane's (whose motion dir follows them).
struct PlaneKeys {
    static constexpr size_t lo = aabb_plane_input.at("box.lo"), hi = aabb_plane_input.at("box.hi");
    static constexpr size_t n = aabb_plane_input.at("n"), d = aabb_plane_input.at("d");
    static constexpr size_t dir = moving_aabb_plane_input.at("dir");
    static_assert(lo == moving_aabb_plane_input.at("box.lo") && hi == moving_aabb_plane_input.at("box.hi") &&
                  n == moving_aabb_plane_input.at("n") && d == moving_aabb_plane_input.at("d"));
};

/// Least and greatest n . x over the box of the input, minus d.
template <class Ops> void margins(const double* in, typename Ops::NT& lo, typename Ops::NT& hi) {
    using K = PlaneKeys;
    lo = hi = -Ops::of(in[K::d]);
    for (size_t i = 0; i < 3; ++i) {
        const auto a = Ops::of(in[K::n + i]) * Ops::of(in[K::lo + i]), b = Ops::of(in[K::n + i]) * Ops::of(in[K::hi + i]);
        const bool a_low = Ops::sgn(b - a) > 0;
        lo = lo + (a_low ? a : b);
        hi = hi + (a_low ? b : a);
    }
}

template <class Ops> typename Ops::NT dot3(const double* a, const double* b) {
    return Ops::of(a[0]) * Ops::of(b[0]) + Ops::of(a[1]) * Ops::of(b[1]) + Ops::of(a[2]) * Ops::of(b[2]);
}

template <class Ops> struct AabbPlaneBody {
    static Out<Ops> run(const double* in) {
        typename Ops::NT lo, hi;
        margins<Ops>(in, lo, hi);
        Out<Ops> r;
        r.answer = Ops::sgn(lo) >= 0 ? 2 : Ops::sgn(hi) <= 0 ? 0 : 1;  // front, back, straddle
        return r;
    }
};

/// The `touching_straddles` convention: a box that touches the plane (or
/// lies in it) is on both sides, a side only where every corner is strictly
/// on it (Ogre's Plane::getSide with a box).
template <class Ops> struct AabbPlaneTouchingBody {
    static Out<Ops> run(const double* in) {
        typename Ops::NT lo, hi;
        margins<Ops>(in, lo, hi);
        Out<Ops> r;
        r.answer = Ops::sgn(lo) > 0 ? 2 : Ops::sgn(hi) < 0 ? 0 : 1;  // front, back, straddle
        return r;
    }
};

template <class Ops> struct AabbPlaneOverlapBody {
    static Out<Ops> run(const double* in) {
        typename Ops::NT lo, hi;
        margins<Ops>(in, lo, hi);
        Out<Ops> r;
        r.answer = Ops::sgn(lo) <= 0 && Ops::sgn(hi) >= 0 ? 1 : 0;
        return r;
    }
};

/// aabb_plane's band (and aabb_plane_overlap's, and under
/// touching_straddles: the same margins decide). Every answer is a function
/// of the signs of the margins min_x (n . x) - d and max_x (n . x) - d over
/// the box, and one flips only where a margin's reach over the moves
/// touches 0: front needs the least margin >= 0, back the greatest <= 0.
/// Each margin is a sum over the axes of min (or max) of n_i lo_i and
/// n_i hi_i, less d, and each axis moves on its own (n_i by delta_n, lo_i
/// and hi_i by delta_p, lo_i <= hi_i kept), so its reach is the sum of each
/// axis's exact reach (margin_reach): the band is exact. (It was a
/// Lipschitz bound, max(|lo_i|, |hi_i|) delta_n on every axis whatever n_i's
/// part: a plane's tilt along an axis it is normal to cannot help a box
/// leave it.)
template <class Ops> struct AabbPlaneBand {
    static bool run(const double* in, int /*exact_answer*/, const double* delta) {
        Bounds<Ops> least, greatest;
        margin_reach(in, delta, least, greatest);
        return least.holds_zero() || greatest.holds_zero();
    }
    /// The least and the greatest margin's reach over the moves, exactly.
    static void margin_reach(const double* in, const double* delta, Bounds<Ops>& least, Bounds<Ops>& greatest) {
        using NT = typename Ops::NT;
        using K = PlaneKeys;
        const NT d = Ops::of(in[K::d]), dd = Ops::of(delta[K::d]);
        least = greatest = Bounds<Ops>{NT(-(d + dd)), NT(-(d - dd))};
        for (size_t i = 0; i < 3; ++i) {
            NT a, b, c, e;
            axis_reach(in, delta, i, a, b, c, e);
            least = Bounds<Ops>{NT(least.lo + a), NT(least.hi + b)};
            greatest = Bounds<Ops>{NT(greatest.lo + c), NT(greatest.hi + e)};
        }
    }
    /// Axis i's part of the least margin, min(n lo, n hi), over the moves:
    /// from min_lo to min_hi; and of the greatest, max(n lo, n hi): from
    /// max_lo to max_hi. The least of either is a product of extremes (n at
    /// n -+ delta_n, x at lo - delta_p or hi + delta_p, both ends moved
    /// out); the greatest of min(n lo, n hi) takes lo up for n >= 0 and hi
    /// down for n <= 0 (n lo' and n hi' are then its value), a function of n
    /// piecewise linear through 0, so at n -+ delta_n or at 0; the least of
    /// the max likewise.
    static void axis_reach(const double* in, const double* delta, size_t i, typename Ops::NT& min_lo, typename Ops::NT& min_hi,
                           typename Ops::NT& max_lo, typename Ops::NT& max_hi) {
        using NT = typename Ops::NT;
        using K = PlaneKeys;
        const NT n = Ops::of(in[K::n + i]), dn = Ops::of(delta[K::n + i]);
        const NT lo = Ops::of(in[K::lo + i]), hi = Ops::of(in[K::hi + i]);
        const NT dlo = Ops::of(delta[K::lo + i]), dhi = Ops::of(delta[K::hi + i]);
        const NT ns[2] = {NT(n - dn), NT(n + dn)};
        const NT out_lo = lo - dlo, out_hi = hi + dhi, in_lo = lo + dlo, in_hi = hi - dhi;
        // The product extremes over n in [n -+ dn], x in [lo - dlo, hi + dhi].
        min_lo = NT(ns[0] * out_lo);
        max_hi = min_lo;
        for (const NT& m : ns)
            for (const NT& x : {out_lo, out_hi}) {
                const NT p = m * x;
                min_lo = lesser<Ops>(min_lo, p);
                max_hi = greater<Ops>(max_hi, p);
            }
        // Through 0 where n can be 0.
        const bool zero = Ops::sgn(ns[0]) <= 0 && Ops::sgn(ns[1]) >= 0;
        const auto lifted = [&](const NT& m) { return Ops::sgn(m) >= 0 ? NT(m * in_lo) : NT(m * in_hi); };
        const auto lowered = [&](const NT& m) { return Ops::sgn(m) >= 0 ? NT(m * in_hi) : NT(m * in_lo); };
        min_hi = greater<Ops>(lifted(ns[0]), lifted(ns[1]));
        max_lo = lesser<Ops>(lowered(ns[0]), lowered(ns[1]));
        if (zero) {
            min_hi = greater<Ops>(min_hi, NT(0));
            max_lo = lesser<Ops>(max_lo, NT(0));
        }
    }
};

template <class Ops> struct MovingAabbPlaneBody {
    static Out<Ops> run(const double* in) {
        typename Ops::NT a, b;
        margins<Ops>(in, a, b);
        const auto s = dot3<Ops>(in + PlaneKeys::n, in + PlaneKeys::dir);
        Out<Ops> r;
        r.answer = 1;
        if (Ops::sgn(a) <= 0 && Ops::sgn(b) >= 0) put_double<Ops>(r, 0);
        else if (Ops::sgn(a) > 0 && Ops::sgn(s) < 0) put_quotient<Ops>(r, -a, s);
        else if (Ops::sgn(b) < 0 && Ops::sgn(s) > 0) put_quotient<Ops>(r, -b, s);
        else r.answer = 0;
        return r;
    }
};

/// moving_aabb_plane's band. a, b (the margins of the box at the start)
/// reach what aabb_plane's band says (margin_reach, exactly), and s = n . dir by at most L_s =
/// sum_i (|n_i| delta_dir + |dir_i| delta_n + delta_n delta_dir), dir a
/// direction (t >= 0) moving by K u |dir|_inf. The answer is a function of the
/// signs of a, b and s (MovingAabbPlaneBody): the band tries every sign
/// each can take within its reach (a <= b kept) and is in band where one
/// choice decides another answer. (It was "some sign within reach", which
/// called a box straddling the plane flippable when only its motion's
/// direction could turn.)
template <class Ops> struct MovingAabbPlaneBand {
    /// The body's answer from the signs of a, b and s.
    static bool hit(int a, int b, int s) { return (a <= 0 && b >= 0) || (a > 0 && s < 0) || (b < 0 && s > 0); }
    static bool run(const double* in, int /*exact_answer*/, const double* delta) {
        using NT = typename Ops::NT;
        using K = PlaneKeys;
        NT lo, hi;
        margins<Ops>(in, lo, hi);
        Bounds<Ops> least, greatest;
        AabbPlaneBand<Ops>::margin_reach(in, delta, least, greatest);
        NT ls(0);
        for (size_t i = 0; i < 3; ++i) {
            const NT dn = Ops::of(delta[K::n + i]), dd = Ops::of(delta[K::dir + i]);
            ls = ls + Ops::of(std::fabs(in[K::n + i])) * dd + Ops::of(std::fabs(in[K::dir + i])) * dn + dn * dd;
        }
        const NT s = dot3<Ops>(in + PlaneKeys::n, in + PlaneKeys::dir);
        const bool here = hit(Ops::sgn(lo), Ops::sgn(hi), Ops::sgn(s));
        // The signs each can take within its reach.
        const auto reach = [](const NT& x, const NT& r) { return Bounds<Ops>{NT(x - r), NT(x + r)}.sign_bits(); };
        const int ca = least.sign_bits(), cb = greatest.sign_bits(), cs = reach(s, ls);
        for (int a = -1; a <= 1; ++a)
            for (int b = a; b <= 1; ++b)
                for (int t = -1; t <= 1; ++t)
                    if ((ca >> (a + 1) & 1) && (cb >> (b + 1) & 1) && (cs >> (t + 1) & 1) && hit(a, b, t) != here) return true;
        return false;
    }
};

}  // namespace isect::ref::fast::detail
