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

/// The margins' Lipschitz bound, the box moving by delta_p, n by delta_n
/// and d by delta_d (each number by its role: delta[i]):
///   delta_d + sum_i (|n_i| delta_p + max(|lo_i|, |hi_i|) delta_n + delta_p delta_n).
template <class Ops> typename Ops::NT margin_bound(const double* in, const double* delta) {
    using K = PlaneKeys;
    using NT = typename Ops::NT;
    NT l = Ops::of(delta[K::d]);
    for (size_t i = 0; i < 3; ++i) {
        const NT dp = Ops::of(std::max(delta[K::lo + i], delta[K::hi + i])), dn = Ops::of(delta[K::n + i]);
        l = l + Ops::of(std::fabs(in[K::n + i])) * dp + Ops::of(std::max(std::fabs(in[K::lo + i]), std::fabs(in[K::hi + i]))) * dn +
            dp * dn;
    }
    return l;
}

/// |x| <= l, from signs.
template <class Ops> bool within(const typename Ops::NT& x, const typename Ops::NT& l) {
    return Ops::sgn(l - x) >= 0 && Ops::sgn(l + x) >= 0;
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

/// Both answers are decided by the signs of minD - d and maxD - d. Moving
/// the box by delta_p (K u M), n by delta_n (K u |n|_inf) and d by delta_d
/// (K u |d|) changes n_i x_i by at most |n_i| delta_p + |x_i| delta_n +
/// delta_p delta_n and d by delta_d, so each margin moves by at most L
/// (margin_bound).
/// When both margins exceed L in magnitude no answer can change; the band is
/// "some margin within L" (K > 0), a superset of the inputs whose answer can
/// flip, so it never flags a kernel that keeps tolerant=K.
template <class Ops> struct AabbPlaneBand {
    static bool run(const double* in, int /*exact_answer*/, const double* delta) {
        typename Ops::NT lo, hi;
        margins<Ops>(in, lo, hi);
        const auto l = margin_bound<Ops>(in, delta);
        return within<Ops>(lo, l) || within<Ops>(hi, l);
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
/// move by at most L (margin_bound), and s = n . dir by at most L_s =
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
        const NT l = margin_bound<Ops>(in, delta);
        NT ls(0);
        for (size_t i = 0; i < 3; ++i) {
            const NT dn = Ops::of(delta[K::n + i]), dd = Ops::of(delta[K::dir + i]);
            ls = ls + Ops::of(std::fabs(in[K::n + i])) * dd + Ops::of(std::fabs(in[K::dir + i])) * dn + dn * dd;
        }
        const NT s = dot3<Ops>(in + PlaneKeys::n, in + PlaneKeys::dir);
        const bool here = hit(Ops::sgn(lo), Ops::sgn(hi), Ops::sgn(s));
        // The signs each can take within its reach.
        const auto reach = [](const NT& x, const NT& r) { return Bounds<Ops>{NT(x - r), NT(x + r)}.sign_bits(); };
        const int ca = reach(lo, l), cb = reach(hi, l), cs = reach(s, ls);
        for (int a = -1; a <= 1; ++a)
            for (int b = a; b <= 1; ++b)
                for (int t = -1; t <= 1; ++t)
                    if ((ca >> (a + 1) & 1) && (cb >> (b + 1) & 1) && (cs >> (t + 1) & 1) && hit(a, b, t) != here) return true;
        return false;
    }
};

}  // namespace isect::ref::fast::detail
