#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <cstring>
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

/// What the nearest-double search needs of an exact number type.
int sign(const Rational& x) { return x.sign(); }
int sign(const CGAL::Mpzf& x) { return int(x.sign()); }
double approx(const Rational& x) { return mpq_get_d(x.backend().data()); }  // truncated: a start, not a value
double approx(const CGAL::Mpzf& x) { return fast::detail::MpzfOps::interval(x).inf(); }

/// The nearest double to v = (a + b sqrt(x)) / (g + e sqrt(x)) (x >= 0, the
/// denominator not 0), ties to even, decided exactly: from a double
/// estimate, each step compares v with the midpoints between the candidate
/// and its neighbours, each comparison the sign of A + B sqrt(x) for exact
/// A and B (A and B^2 x compared by their squares where the signs differ).
/// Nullopt where the estimate is not within a few steps (cancellation, or
/// v beyond the doubles): the caller takes the long way.
template <class NT> class RootRatio {
public:
    RootRatio(NT a, NT b, NT x, NT g, NT e) : a_(std::move(a)), b_(std::move(b)), x_(std::move(x)), g_(std::move(g)), e_(std::move(e)) {
        den_ = sign_of_sum(g_, e_);
    }
    std::optional<double> nearest() const {
        // The estimate: each term in double, a term whose factor is 0 left
        // out (so that a root beyond the doubles' range makes no NaN of it).
        const double root = std::sqrt(approx(x_));
        const auto term = [root](const NT& c) { return sign(c) == 0 ? 0.0 : approx(c) * root; };
        const double start = (approx(a_) + term(b_)) / (approx(g_) + term(e_));
        if (!std::isfinite(start) || den_ == 0) return std::nullopt;
        double c = start;
        for (int step = 0; step < 8; ++step) {
            const double below = std::nextafter(c, -INFINITY), above = std::nextafter(c, INFINITY);
            if (!std::isfinite(below) || !std::isfinite(above)) return std::nullopt;
            const int to_above = versus_midpoint(c, above);
            if (to_above > 0) {
                c = above;
                continue;
            }
            const int to_below = versus_midpoint(c, below);
            if (to_below < 0) {
                c = below;
                continue;
            }
            if (to_above == 0) return even(c, above);
            if (to_below == 0) return even(c, below);
            return c == 0 ? 0.0 : c;
        }
        return std::nullopt;
    }

private:
    /// The sign of A + B sqrt(x).
    int sign_of_sum(const NT& A, const NT& B) const {
        const int sa = sign(A), sb = sign(x_) > 0 ? sign(B) : 0;
        if (sb == 0) return sa;
        if (sa == 0 || sa == sb) return sb;
        const int c = sign(NT(A * A - B * B * x_));
        return c > 0 ? sa : c < 0 ? sb : 0;
    }
    /// The sign of v - (c + n) / 2.
    int versus_midpoint(double c, double n) const {
        const NT m = (NT(c) + NT(n)) * NT(0.5);
        return sign_of_sum(NT(a_ - m * g_), NT(b_ - m * e_)) * den_;
    }
    static double even(double p, double q) {
        uint64_t bits;
        std::memcpy(&bits, &p, sizeof bits);
        return (bits & 1) == 0 ? p : q;
    }
    NT a_, b_, x_, g_, e_;
    int den_ = 0;
};

}  // namespace

double root_to_double(const Rational& p, int s, const Rational& x, const Rational& q) {
    if (const auto v = RootRatio<Rational>(p, Rational(s), x, q, Rational(0)).nearest()) return *v;
    if (const auto root = exact_root(x)) return to_double((p + s * *root) / q);
    return Mp((mp(p) + s * sqrt(mp(x))) / mp(q)).convert_to<double>();
}

double root_quotient_to_double(const Rational& n, const Rational& p, int s, const Rational& x) {
    if (const auto v = RootRatio<Rational>(n, Rational(0), x, p, Rational(s)).nearest()) return *v;
    if (const auto root = exact_root(x)) return to_double(n / (p + s * *root));
    return Mp(mp(n) / (mp(p) + s * sqrt(mp(x)))).convert_to<double>();
}

double root_to_double(const CGAL::Mpzf& p, int s, const CGAL::Mpzf& x, const CGAL::Mpzf& q) {
    if (const auto v = RootRatio<CGAL::Mpzf>(p, CGAL::Mpzf(s), x, q, CGAL::Mpzf(0)).nearest()) return *v;
    return root_to_double(fast::detail::to_rational(p), s, fast::detail::to_rational(x), fast::detail::to_rational(q));
}

double root_quotient_to_double(const CGAL::Mpzf& n, const CGAL::Mpzf& p, int s, const CGAL::Mpzf& x) {
    if (const auto v = RootRatio<CGAL::Mpzf>(n, CGAL::Mpzf(0), x, p, CGAL::Mpzf(s)).nearest()) return *v;
    return root_quotient_to_double(fast::detail::to_rational(n), fast::detail::to_rational(p), s, fast::detail::to_rational(x));
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

RaySphereExact ray_sphere_line_rational(const double* in) {
    const fast::detail::ExactResult r = fast::detail::RaySphereLineBody<fast::detail::RationalOutOps>::run(in);
    RaySphereExact out;
    out.hit = r.answer == 1;
    if (out.hit) {
        out.t_enter = to_double(r.values[0]);
        out.t_exit = to_double(r.values[1]);
    }
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
