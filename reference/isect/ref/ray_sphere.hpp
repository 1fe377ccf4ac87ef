// Exact references for the ray o + t d, t in [0, tmax], against the closed
// ball |x - c| <= r: hit or miss, and t_enter and t_exit (0 when o is in the
// ball; tmax when the ball holds o + tmax d), each the double nearest the
// exact value. Cross-checked on every input:
//  - ray_sphere_rational: GMP rationals. With f = o - c, a = d . d, b = d . f
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

/// tmax: nullopt for +inf.
RaySphereExact ray_sphere_rational(const Point& o, const Point& d, const std::optional<Rational>& tmax, const Point& c,
                                   const Rational& r);
RaySphereExact ray_sphere_cgal(const Point& o, const Point& d, const std::optional<Rational>& tmax, const Point& c,
                               const Rational& r);

/// (p + s sqrt(x)) / q, s in {-1, 1}, as the nearest double, taken with MPFR
/// at 400 bits (x >= 0, q != 0). Exact where x is a rational square.
double root_to_double(const Rational& p, int s, const Rational& x, const Rational& q);
/// n / (p + s sqrt(x)), s in {-1, 1}, likewise (p + s sqrt(x) != 0): a root
/// by its conjugate, where p and s sqrt(x) have one sign and nothing cancels.
double root_quotient_to_double(const Rational& n, const Rational& p, int s, const Rational& x);

}  // namespace isect::ref
