// The staged filter the exact kernels that compute (not only decide) run
// their algorithm through: one algorithm written once over a number type
// with +, - and *, run first on doubles that carry a bound on their error,
// then on the same with exact values kept exact, then on exact numbers of a
// fixed width (wide.hpp: every value of float input fits), and only where
// none settles every sign on expansions (exact.hpp). Header-only, no
// dependencies beyond exact.hpp and wide.hpp.
#pragma once

#include <cmath>

#include "isect/exact.hpp"
#include "isect/wide.hpp"

namespace isect::detail {

/// Expansions as the algorithm's number type: exact signs.
struct ExpansionOps {
    using NT = exact::Expansion;
    static exact::Expansion of(double x) { return exact::Expansion(x); }
    static int sgn(const exact::Expansion& x) { return x.sign(); }
};

/// The filters in front of the expansions: a double and a bound on its
/// distance from the exact value, carried through +, - and * (each bound
/// covers the operands' bounds, the rounding of the result, and, with a
/// margin of 2^-50 of itself and 2^-1060, the rounding of the bound's own
/// arithmetic and underflow). A sign the bound cannot settle sets
/// filter_failed, and the computation goes on to an answer that is then
/// thrown away: cheaper than an exception, which half the degenerate inputs
/// would raise. A number that left the double range has an infinite or NaN
/// bound, which settles no sign and passes no hand-out check. With Track, exact
/// operands whose result rounds to nothing stay exact (bound 0), checked
/// with an error-free sum or product: the degenerate inputs (crossing,
/// touching, collinear) are mostly small integers and dyadic fractions, and
/// a filter that can prove their 0s keeps them off the expansions. That
/// costs a two-product per product, so it is the second filter, run where
/// the first could not decide.
inline thread_local bool filter_failed = false;

template <bool Track> struct Bounded {
    double v = 0, e = 0;
    static Bounded rounded(double v, double e) {
        // No finiteness test here: a value that overflowed has an infinite
        // or NaN bound, and sgn (and every hand-out check) fails on that.
        return {v, (e + std::fabs(v) * 0x1p-53) * (1 + 0x1p-50) + 0x1p-1060};
    }
    friend Bounded operator+(const Bounded& a, const Bounded& b) {
        if (Track && a.e == 0 && b.e == 0) {
            double s, err;
            exact::two_sum(a.v, b.v, s, err);
            if (err == 0 && std::isfinite(s)) return {s, 0};
        }
        return rounded(a.v + b.v, a.e + b.e);
    }
    friend Bounded operator-(const Bounded& a) { return {-a.v, a.e}; }
    friend Bounded operator-(const Bounded& a, const Bounded& b) { return a + (-b); }
    friend Bounded operator*(const Bounded& a, const Bounded& b) {
        if (Track && a.e == 0 && b.e == 0) {
            double p, err;
            exact::two_product(a.v, b.v, p, err);
            // two_product is exact while nothing underflows: a nonzero
            // product at least 2^-960 in magnitude, or an exact 0.
            if (err == 0 && std::isfinite(p) && (p == 0 ? (a.v == 0 || b.v == 0) : std::fabs(p) >= 0x1p-960)) return {p, 0};
        }
        return rounded(a.v * b.v, std::fabs(a.v) * b.e + std::fabs(b.v) * a.e + a.e * b.e);
    }
};
template <bool Track> struct BoundedOps {
    using NT = Bounded<Track>;
    static NT of(double x) { return {x, 0}; }
    static int sgn(const NT& x) {
        if (x.v == 0 && x.e == 0) return 0;
        if (x.e < std::fabs(x.v)) return x.v > 0 ? 1 : -1;
        filter_failed = true;
        return 0;
    }
};

/// Set when the wide stage took a NaN or an infinity: input outside every
/// kernel's domain ("an answer, not a promise"), which no exact stage can
/// settle, so the filter hands out what that stage made instead of running
/// expansions on it (NaN components are never eliminated: they grow long).
inline thread_local bool nonfinite_input = false;

/// Exact numbers of a fixed width: exact signs while every value fits
/// (always, for values of degree 12 or less in float input); one that does
/// not fit sets filter_failed, like a sign the filters cannot settle.
struct WideOps {
    using NT = exact::Wide;
    static exact::Wide of(double x) {
        if (!std::isfinite(x)) nonfinite_input = true;
        return exact::Wide(x);
    }
    static int sgn(const exact::Wide& x) {
        if (x.exact()) return x.sign();
        filter_failed = true;
        return 0;
    }
};

/// Runs fn(ops) with BoundedOps<false>, then BoundedOps<true>, then
/// WideOps, then ExpansionOps, each where the one before set filter_failed
/// (fn may set it too: numbers not accurate enough); counts a fallback when
/// an exact stage ran.
template <class Fn> auto filtered(const Fn& fn) {
    filter_failed = false;
    auto first = fn(BoundedOps<false>{});
    if (!filter_failed) return first;
    filter_failed = false;
    auto second = fn(BoundedOps<true>{});
    if (!filter_failed) return second;
    ++exact::fallbacks;
    filter_failed = false;
    nonfinite_input = false;
    auto third = fn(WideOps{});
    if (!filter_failed || nonfinite_input) return third;
    return fn(ExpansionOps{});
}

/// The magnitude of a number of any stage, and whether it is exactly 0.
inline double value_of(const exact::Expansion& x) { return x.estimate(); }
inline double value_of(const exact::Wide& x) { return x.estimate(); }
template <bool Track> double value_of(const Bounded<Track>& x) { return x.v; }

}  // namespace isect::detail
