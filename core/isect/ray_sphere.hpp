// Ray vs closed ball: the points o + t d, t in [0, tmax] (tmax may be +inf),
// against { x : |x - c| <= r }, r >= 0. On a hit: t_enter, the least such t
// (0 when o is in the ball), and t_exit, the greatest (tmax when the ball
// holds o + tmax d) - the convention of ray_aabb. With f = o - c, a = d . d,
// b = d . f and k = f . f - r^2, the ray is in the ball where
// a t^2 + 2 b t + k <= 0: between the roots (-b -+ sqrt(b^2 - a k)) / a.
//
// Kernels, each in the arithmetic T of its input (float as engines write
// them, or double):
//  - ray_sphere_textbook: the quadratic as textbooks write it, b' = 2 d . f,
//    discriminant b'^2 - 4 a k, roots (-b' -+ sqrt(disc)) / 2a. For a far
//    origin and a small ball b'^2 and 4 a k agree in almost every digit and
//    the discriminant is rounding noise (Haines, Günther and
//    Akenine-Möller, "Precision Improvements for Ray/Sphere Intersection",
//    Ray Tracing Gems, chapter 7).
//  - ray_sphere_rtg: that chapter's form. The discriminant from the
//    closest-approach vector l = f - (b / a) d: r^2 - |l|^2, times a,
//    without the cancellation; the roots by the stable pair q =
//    -(b + sign(b) sqrt(disc)), t = q / a and t = k / q, never a difference
//    of nearly equal numbers. sign(0) is +1: q is 0 only when disc is 0 and
//    b is 0, a grazing ray through the centre's foot, handled apart. One
//    guard of ours: k / q is held to |q / a| (see the code).
//  - ray_sphere_exact: hit or miss decided exactly, as the references
//    define it: every test is the sign of a polynomial of degree at most 4
//    in the inputs (the discriminant b^2 - a k; b; k; f(tmax) and b +
//    a tmax for a finite tmax), settled by the staged filter of filter.hpp
//    (a double with a running error bound, then exact values kept exact,
//    then expansions). Its t's come from the chapter-7 formulas in double.
//    Float input.
//
// A zero direction is the point o: a hit at t = 0 (t_exit = tmax) when o is
// in the ball. Domain: finite values but tmax (+inf allowed), tmax >= 0,
// r >= 0. NaN gives an answer, not a promise.
//
// The `surface` convention (isect check --convention surface): the sphere
// |x - c| = r, not the ball. A hit is a crossing in [0, tmax]: t_enter the
// first, t_exit the last, so from inside the ball t_enter is the exit, as
// glm, three.js, raylib and most ray tracers answer; a query inside the ball
// throughout misses.
//  - ray_sphere_rtg_surface: ray_sphere_rtg's roots, kept where they lie in
//    [0, tmax].
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "isect/exact.hpp"
#include "isect/filter.hpp"
#include "isect/fp.hpp"

namespace isect {

/// A hit: t_enter <= t_exit.
struct RaySphereHit {
    bool hit = false;
    double t_enter = 0, t_exit = 0;
};

namespace detail {

/// The roots' interval [t0, t1] clipped to [0, tmax]; a miss when empty.
inline RaySphereHit ray_sphere_clip(double t0, double t1, double tmax) {
    RaySphereHit h;
    if (!(t1 >= 0) || !(t0 <= tmax)) return h;
    h.hit = true;
    h.t_enter = t0 > 0 ? t0 : 0;
    h.t_exit = t1 < tmax ? t1 : tmax;
    return h;
}

/// The roots t0 <= t1 that lie in [0, tmax], as the sphere's first and last
/// crossings; a miss when neither does.
inline RaySphereHit ray_sphere_surface_clip(double t0, double t1, double tmax) {
    RaySphereHit h;
    const bool in0 = t0 >= 0 && t0 <= tmax, in1 = t1 >= 0 && t1 <= tmax;
    if (!in0 && !in1) return h;
    h.hit = true;
    h.t_enter = in0 ? t0 : t1;
    h.t_exit = in1 ? t1 : t0;
    return h;
}

/// The point o (a zero direction): in the ball or not.
template <class T> inline RaySphereHit ray_sphere_point(T k, T tmax) {
    RaySphereHit h;
    if (!(k <= 0)) return h;
    h.hit = true;
    h.t_exit = double(tmax);
    return h;
}

}  // namespace detail

/// The textbook quadratic in T's arithmetic.
template <class T>
inline RaySphereHit ray_sphere_textbook(const std::array<T, 3>& o, const std::array<T, 3>& d, T tmax,
                                        const std::array<T, 3>& c, T r) {
    const T fx = o[0] - c[0], fy = o[1] - c[1], fz = o[2] - c[2];
    const T a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    const T b = 2 * (d[0] * fx + d[1] * fy + d[2] * fz);
    const T k = fx * fx + fy * fy + fz * fz - r * r;
    if (a == 0) return detail::ray_sphere_point(k, tmax);
    const T disc = b * b - 4 * a * k;
    if (disc < 0) return {};
    const T s = std::sqrt(disc);
    return detail::ray_sphere_clip((-b - s) / (2 * a), (-b + s) / (2 * a), tmax);
}

namespace detail {

/// Ray Tracing Gems chapter 7's roots t0 <= t1 in T's arithmetic; false
/// when the line misses the sphere. k = |o - c|^2 - r^2 and a = d . d are
/// returned for the zero direction (a == 0: no roots).
template <class T>
inline bool ray_sphere_rtg_roots(const std::array<T, 3>& o, const std::array<T, 3>& d, const std::array<T, 3>& c, T r,
                                 T& a, T& k, double& t0, double& t1) {
    const T fx = o[0] - c[0], fy = o[1] - c[1], fz = o[2] - c[2];
    a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    k = fx * fx + fy * fy + fz * fz - r * r;
    if (a == 0) return false;
    const T b = d[0] * fx + d[1] * fy + d[2] * fz;
    const T s = b / a;  // the foot of the centre on the line is o - s d
    const T lx = fx - s * d[0], ly = fy - s * d[1], lz = fz - s * d[2];
    const T disc = a * (r * r - (lx * lx + ly * ly + lz * lz));
    if (disc < 0) return false;
    const T q = -(b + std::copysign(std::sqrt(disc), b));
    if (q == 0) {  // b = 0 and disc = 0: the ray grazes at t = 0
        t0 = t1 = 0;
        return true;
    }
    // q / a is the root of larger magnitude. Near a tangent with o near the
    // sphere, disc is rounding noise while k is not: k / q can then come out
    // far larger than q / a, which the true roots never allow; it is held to
    // |q / a| (as published, the exit of such a ray came back as tmax, some
    // 800 units of its condition scale off).
    t0 = double(q) / a;
    t1 = double(k) / q;
    if (std::fabs(t1) > std::fabs(t0)) t1 = std::copysign(std::fabs(t0), t1);
    if (t0 > t1) std::swap(t0, t1);
    return true;
}

}  // namespace detail

/// Ray Tracing Gems chapter 7: the closest-approach discriminant and the
/// stable roots, in T's arithmetic.
template <class T>
inline RaySphereHit ray_sphere_rtg(const std::array<T, 3>& o, const std::array<T, 3>& d, T tmax,
                                   const std::array<T, 3>& c, T r) {
    T a, k;
    double t0 = 0, t1 = 0;
    if (!detail::ray_sphere_rtg_roots(o, d, c, r, a, k, t0, t1)) return a == 0 ? detail::ray_sphere_point(k, tmax) : RaySphereHit{};
    return detail::ray_sphere_clip(t0, t1, tmax);
}

/// The same roots under the `line` convention: the whole line o + t d, t
/// over all reals (tmax is not read), its two roots unclamped (glm's
/// intersectLineSphere, Irrlicht's line3d tests, Open Inventor's SbLine). A
/// zero direction is no line: a miss.
template <class T>
inline RaySphereHit line_sphere_rtg(const std::array<T, 3>& o, const std::array<T, 3>& d, T /*tmax*/,
                                    const std::array<T, 3>& c, T r) {
    T a, k;
    double t0 = 0, t1 = 0;
    if (!detail::ray_sphere_rtg_roots(o, d, c, r, a, k, t0, t1)) return {};
    return RaySphereHit{true, t0, t1};
}

/// The same roots under the `surface` convention: the sphere's first and
/// last crossings in [0, tmax]. A zero direction is the point o: on the
/// sphere (a hit over all of [0, tmax]) or not.
template <class T>
inline RaySphereHit ray_sphere_rtg_surface(const std::array<T, 3>& o, const std::array<T, 3>& d, T tmax,
                                           const std::array<T, 3>& c, T r) {
    T a, k;
    double t0 = 0, t1 = 0;
    if (!detail::ray_sphere_rtg_roots(o, d, c, r, a, k, t0, t1)) {
        if (a != 0 || k != 0) return {};
        return RaySphereHit{true, 0, double(tmax)};
    }
    return detail::ray_sphere_surface_clip(t0, t1, tmax);
}

/// Hit or miss decided exactly; the numbers from the chapter-7 formulas in
/// double. Float input: every test is the sign of a polynomial of degree 4
/// at most in the inputs, settled by the staged filter (filter.hpp): a
/// double with a running error bound, then exact values kept exact, then
/// expansions. Nothing overflows or underflows on the way for float input
/// (degree 4 of floats stays within 2^-600:2^520).
inline RaySphereHit ray_sphere_exact(const Vec3f& o, const Vec3f& d, float tmax, const Vec3f& c, float r) {
    struct Decision {
        bool point = false, hit = false, inside = false;  ///< a zero direction; the hit; o in the ball
        double a = 0, b = 0;                              ///< estimates, for a tangent's foot
    };
    const Decision dec = detail::filtered([&](auto ops) {
        using Ops = decltype(ops);
        using NT = typename Ops::NT;
        NT a = Ops::of(0.0), b = Ops::of(0.0), k = Ops::of(0.0);
        for (size_t i = 0; i < 3; ++i) {
            const NT f = NT(Ops::of(o[i]) - Ops::of(c[i])), di = Ops::of(d[i]);
            a = NT(a + di * di);
            b = NT(b + f * di);
            k = NT(k + f * f);
        }
        k = NT(k - Ops::of(r) * Ops::of(r));
        Decision out;
        out.inside = Ops::sgn(k) <= 0;
        out.a = detail::value_of(a);
        out.b = detail::value_of(b);
        if (Ops::sgn(a) == 0) {
            out.point = true;
            return out;
        }
        // Real roots, and the later one not behind o (b <= 0: the ray heads
        // to the centre's foot; else o must be inside).
        out.hit = Ops::sgn(NT(b * b - a * k)) >= 0 && (Ops::sgn(b) <= 0 || out.inside);
        if (out.hit && std::isfinite(tmax)) {
            // And the earlier one not past tmax: the foot is at or beyond
            // tmax's point, or that point is in the ball.
            const NT at = NT(a * Ops::of(tmax));
            out.hit = Ops::sgn(NT(b + at)) >= 0 ||
                      Ops::sgn(NT(at * Ops::of(tmax) + Ops::of(2.0) * b * Ops::of(tmax) + k)) <= 0;
        }
        return out;
    });
    if (dec.point) return detail::ray_sphere_point(dec.inside ? 0.0 : 1.0, double(tmax));
    if (!dec.hit) return {};
    RaySphereHit out = ray_sphere_rtg<double>({o[0], o[1], o[2]}, {d[0], d[1], d[2]}, tmax, {c[0], c[1], c[2]}, r);
    if (!out.hit) {  // a tangent the double discriminant missed: its foot, clamped
        const double foot = std::min(std::max(-dec.b / dec.a, 0.0), double(tmax));
        out = {true, foot, foot};
    }
    if (dec.inside) out.t_enter = 0;
    return out;
}

}  // namespace isect
