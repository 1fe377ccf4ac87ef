#include <boost/multiprecision/mpfr.hpp>
#include <limits>

#include "fast/ray_sphere.hpp"
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

RaySphereExact ray_sphere_rational(const double* in, bool surface) {
    using namespace fast::detail;
    const ExactResult r = surface ? RaySphereSurfaceBody<RationalOutOps>::run(in) : RaySphereBody<RationalOutOps>::run(in);
    RaySphereExact out;
    out.hit = r.answer == 1;
    if (!out.hit) return out;
    // A t the body gives none of is +inf: beyond the double range, or an
    // unbounded exit (every t >= 0).
    const double inf = std::numeric_limits<double>::infinity();
    out.t_enter = r.known[0] ? to_double(r.values[0]) : inf;
    out.t_exit = r.known[1] ? to_double(r.values[1]) : inf;
    return out;
}

RaySphereSigns ray_sphere_signs(const double* in) {
    using namespace fast::detail;
    // Asked of every violation a kernel makes (its class names it): on
    // intervals where they decide every sign, exactly where they do not.
    const double tmax = in[RaySphereKeys::tmax];
    {
        Upward upward;
        try {
            using Body = RaySphereBody<IntervalOps>;
            const Body::Decision d = Body::decide(RaySphereQuadratic<IntervalOps>(in), tmax);
            return {d.verdict, d.sdisc, d.sk};
        } catch (const Undecided&) {
        }
    }
    using Body = RaySphereBody<RationalOutOps>;
    const Body::Decision d = Body::decide(RaySphereQuadratic<RationalOutOps>(in), tmax);
    return {d.verdict, d.sdisc, d.sk};
}

}  // namespace isect::ref
