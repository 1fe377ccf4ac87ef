// Exact references for the ray o + t d, t in [0, tmax], against the closed
// ball |x - c| <= r: hit or miss, and t_enter and t_exit (0 when o is in the
// ball; tmax when the ball holds o + tmax d), each the double nearest the
// exact value. Cross-checked on every input:
//  - ray_sphere_rational: the fast oracle's body (reference/fast/
//    ray_sphere.hpp) on exact numbers. With f = o - c, a = d . d, b = d . f
//    and k = f . f - r^2, the ray is in the ball where a t^2 + 2 b t + k <= 0;
//    every decision is the sign of a polynomial (the discriminant b^2 - a k,
//    b, k, f(tmax), b + a tmax), and the roots (-b -+ sqrt(b^2 - a k)) / a
//    are taken exactly where the discriminant is a rational square, else
//    with MPFR at 400 bits in the stable pair q / a, k / q
//    (q = -(b + sign(b) sqrt(disc))), which cancels nothing.
//  - ray_sphere_cgal: CGAL on an exact rational kernel. Hit iff the squared
//    distance from c to the query (a Point_3, Segment_3 or Ray_3) is at most
//    r^2; the roots from the foot of c on the ray's line (Line_3::projection)
//    at parameter t0 and the half chord's square h^2 = r^2 - dist^2(c, line):
//    t0 -+ sqrt(h^2 / a), the one nearer zero by its conjugate, MPFR at 400
//    bits. Independent of the quadratic's coefficients: a slip in either
//    route shows as a mismatch.
#pragma once

#include <optional>

#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: the ray org + t dir, t in [0, tmax], and the closed ball of centre c and radius r.
inline constexpr auto ray_sphere_input = layout(Key{"org", 3, Role::point}, Key{"dir", 3, Role::direction},
                                                Key{"tmax", 1, Role::parameter}, Key{"c", 3, Role::point},
                                                Key{"r", 1, Role::length});

struct RaySphereExact {
    bool hit = false;
    double t_enter = 0, t_exit = 0;  ///< the doubles nearest the exact values (t_exit may be +inf)
};

/// The sphere's crossings instead of the ball's (the `surface` convention,
/// as glm, three.js, raylib and WickedEngine answer: from inside the ball,
/// the exit): hit iff some point of the query lies on the sphere, t_enter
/// the first such t and t_exit the last. From the ball's answer and whether
/// the query's origin and its end (o + tmax d; o itself for a zero
/// direction; none for an unbounded ray) lie strictly inside the ball: a
/// crossing is an end of the ball's [t_enter, t_exit] that is not such a
/// point. Each reference decides the two sides itself.
inline RaySphereExact sphere_surface(const RaySphereExact& ball, bool origin_inside, bool end_inside) {
    if (!ball.hit || (origin_inside && end_inside)) return RaySphereExact{};
    RaySphereExact out;
    out.hit = true;
    out.t_enter = origin_inside ? ball.t_exit : ball.t_enter;
    out.t_exit = end_inside ? ball.t_enter : ball.t_exit;
    return out;
}

/// tmax: nullopt for +inf. surface: the sphere's crossings (sphere_surface)
/// instead of the closed ball's.
RaySphereExact ray_sphere_rational(const double* in, bool surface = false);

/// The `line` convention: the whole line o + t d, t over all reals (tmax
/// ignored; d != 0, which the convention's domain requires): hit iff it
/// meets the closed ball, t_enter the lesser root and t_exit the greater
/// (both may be negative).
RaySphereExact ray_sphere_line_rational(const double* in);
RaySphereExact ray_sphere_line_cgal(const Point& o, const Point& d, const Point& c, const Rational& r);

/// Which of the body's tests decided the ball's answer (reference/fast/
/// ray_sphere.hpp), and the signs it took: for failure classes.
enum class SphereVerdict : unsigned char {
    point_inside,   ///< a zero direction: the point o, in the ball
    point_outside,  ///< a zero direction, o outside
    beside,         ///< b^2 - a k < 0: the line misses the ball
    behind,         ///< b > 0 and k > 0: the ball is behind the origin
    past_end,       ///< the ball lies beyond tmax
    meets,
};
struct RaySphereSigns {
    SphereVerdict verdict = SphereVerdict::meets;
    int disc = 0, k = 0;  ///< the signs of b^2 - a k and of k = |o - c|^2 - r^2
};
RaySphereSigns ray_sphere_signs(const double* in);
RaySphereExact ray_sphere_cgal(const Point& o, const Point& d, const std::optional<Rational>& tmax, const Point& c,
                               const Rational& r, bool surface = false);

/// (p + s sqrt(x)) / q, s in {-1, 1}, as the nearest double (ties to even),
/// decided exactly: the candidates next to a double estimate compared with
/// v in exact arithmetic; where the estimate is too far, with MPFR at 400
/// bits (x >= 0, q != 0), exact where x is a rational square.
double root_to_double(const Rational& p, int s, const Rational& x, const Rational& q);
/// n / (p + s sqrt(x)), s in {-1, 1}, likewise (p + s sqrt(x) != 0): a root
/// by its conjugate, where p and s sqrt(x) have one sign and nothing cancels.
double root_quotient_to_double(const Rational& n, const Rational& p, int s, const Rational& x);

}  // namespace isect::ref
