#include <boost/multiprecision/mpfr.hpp>
#include <limits>

#include "isect/ref/ray_sphere.hpp"

namespace isect::ref {

namespace {

using Mp = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<120>>;

/// sqrt(x) exactly, when x is the square of a rational.
std::optional<Rational> exact_root(const Rational& x) {
    using boost::multiprecision::mpz_int;
    const mpz_int n = boost::multiprecision::numerator(x), d = boost::multiprecision::denominator(x);
    const mpz_int rn = boost::multiprecision::sqrt(n), rd = boost::multiprecision::sqrt(d);
    if (rn * rn != n || rd * rd != d) return std::nullopt;
    return Rational(rn, rd);
}

Mp mp(const Rational& x) {
    return Mp(Mp(boost::multiprecision::numerator(x)) / Mp(boost::multiprecision::denominator(x)));
}

}  // namespace

double root_to_double(const Rational& p, int s, const Rational& x, const Rational& q) {
    if (const auto root = exact_root(x)) return to_double((p + s * *root) / q);
    return Mp((mp(p) + s * sqrt(mp(x))) / mp(q)).convert_to<double>();
}

double root_quotient_to_double(const Rational& n, const Rational& p, int s, const Rational& x) {
    if (const auto root = exact_root(x)) return to_double(n / (p + s * *root));
    return Mp(mp(n) / (mp(p) + s * sqrt(mp(x)))).convert_to<double>();
}

namespace {
RaySphereExact ball_rational(const Point& o, const Point& d, const std::optional<Rational>& tmax, const Point& c,
                             const Rational& r) {
    const Point f = sub(o, c);
    const Rational a = dot(d, d), b = dot(d, f), k = dot(f, f) - r * r;
    const double t_max = tmax ? to_double(*tmax) : std::numeric_limits<double>::infinity();
    RaySphereExact out;
    if (a == 0) {  // the point o
        out.hit = k <= 0;
        out.t_exit = out.hit ? t_max : 0;
        return out;
    }
    const Rational disc = b * b - a * k;
    if (disc < 0 || (b > 0 && k > 0)) return out;  // no real roots, or both behind the origin
    const auto f_at = [&](const Rational& t) { return a * t * t + 2 * b * t + k; };
    if (tmax && b + a * *tmax < 0 && f_at(*tmax) > 0) return out;  // both beyond tmax
    out.hit = true;
    // The roots (-b -+ sqrt(disc)) / a as the stable pair: q = -(b + sign(b)
    // sqrt(disc)), one root q / a, the other k / q. q = 0 only for b = 0 =
    // disc, the double root 0.
    const int sb = b >= 0 ? 1 : -1;
    const auto q_over_a = [&] { return root_to_double(-b, -sb, disc, a); };
    const auto k_over_q = [&]() -> double {
        if (b == 0 && disc == 0) return 0;
        // k / q = (-b + sb sqrt(disc)) / a by the conjugate; as the quotient
        // k / (-b - sb sqrt(disc)) it cancels nothing.
        return root_quotient_to_double(k, -b, -sb, disc);
    };
    // b >= 0: q <= 0 and q / a is the lesser root; b < 0: the greater.
    const double lesser = sb > 0 ? q_over_a() : k_over_q(), greater = sb > 0 ? k_over_q() : q_over_a();
    out.t_enter = k <= 0 ? 0 : lesser;
    out.t_exit = tmax && f_at(*tmax) <= 0 ? t_max : greater;
    return out;
}
}  // namespace

RaySphereExact ray_sphere_rational(const Point& o, const Point& d, const std::optional<Rational>& tmax, const Point& c,
                                   const Rational& r, bool surface) {
    const RaySphereExact ball = ball_rational(o, d, tmax, c, r);
    if (!surface) return ball;
    // The signs of the quadratic at 0 and at tmax: strictly inside is < 0.
    const Point f = sub(o, c);
    const Rational a = dot(d, d), b = dot(d, f), k = dot(f, f) - r * r;
    const bool origin_inside = k < 0;
    const bool end_inside = a == 0 ? origin_inside : tmax && a * *tmax * *tmax + 2 * b * *tmax + k < 0;
    return sphere_surface(ball, origin_inside, end_inside);
}

}  // namespace isect::ref
