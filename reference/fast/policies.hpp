// The number policies the fast oracles, the bands and most rational
// references are written over, once:
// each family's body (reference/fast/FAMILY.hpp) is a template on a policy
// and runs unchanged on
//   - IntervalOps: CGAL's Interval_nt under upward rounding, the fast stage;
//     a sign it cannot decide throws Undecided;
//   - MpzfOps: CGAL's Mpzf, exact, where the intervals cannot decide;
//   - RationalOutOps: Mpzf arithmetic with a body's numbers given exactly,
//     as rationals: the rational references;
//   - RationalOps: GMP rationals (Boost.Multiprecision), exact, the bands'
//     exact instantiation (isect check --oracle slow, and the properties
//     that hold the fast stages to it);
//   - DoubleOps: plain double rounding to nearest, what a fast oracle must
//     not be: the planted wrong oracles and bands.
// Also Bounds<Ops>, the one interval type of the bands (a rational interval
// whose ends are numbers of a policy), and small vector helpers.
// Included only by reference/'s own translation units (fast_oracles.cpp,
// the rational references that run a body): IntervalOps needs the rounding
// mode upward (two_stage sets it).
#pragma once

#include <CGAL/Gmpq.h>
#include <CGAL/Interval_nt.h>
#include <CGAL/Mpzf.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "isect/ref/exact.hpp"
#include "isect/ref/fast.hpp"

namespace isect::ref::fast::detail {

using IA = CGAL::Interval_nt_advanced;
using Upward = CGAL::Protect_FPU_rounding<true>;

constexpr int kUnknown = 2;

/// -1, 0, 1, or kUnknown when the interval straddles 0 (0 only for the point 0).
inline int sign_of(const IA& x) {
    if (x.inf() > 0) return 1;
    if (x.sup() < 0) return -1;
    if (x.inf() == 0 && x.sup() == 0) return 0;
    return kUnknown;
}

struct Undecided {};  // thrown inside an oracle where an interval cannot decide

inline int sign(const IA& x) {
    const int s = sign_of(x);
    if (s == kUnknown) throw Undecided{};
    return s;
}

/// What the oracles need of a number type: doubles in, exact signs (or
/// Undecided), a number as an interval, an interval enclosing a quotient or
/// a square root, and the least and greatest
/// of four numbers (for an interval, an enclosure of the least and of the
/// greatest of the numbers it encloses).
struct IntervalOps {
    using NT = IA;
    static IA of(double x) { return IA(x); }
    static int sgn(const IA& x) { return sign(x); }
    /// Whether x is certainly 0 (never throws: an interval that merely holds
    /// 0 is not).
    static bool certainly_zero(const IA& x) { return x.inf() == 0 && x.sup() == 0; }
    static IA interval(const IA& x) { return x; }
    static IA enclose(const IA& num, const IA& den) { return num / den; }
    static IA root(const IA& x) { return CGAL::sqrt(x); }
    static IA least(const IA (&p)[4]) { return extreme(p, [](double a, double b) { return std::min(a, b); }); }
    static IA greatest(const IA (&p)[4]) { return extreme(p, [](double a, double b) { return std::max(a, b); }); }
    /// The least (or greatest) of the lower ends, and of the upper ends.
    template <class Pick> static IA extreme(const IA (&p)[4], Pick pick) {
        double lo = p[0].inf(), hi = p[0].sup();
        for (const IA& x : p) {
            lo = pick(lo, x.inf());
            hi = pick(hi, x.sup());
        }
        return IA(lo, hi);
    }
};
struct MpzfOps {
    using NT = CGAL::Mpzf;
    static CGAL::Mpzf of(double x) { return CGAL::Mpzf(x); }
    static int sgn(const CGAL::Mpzf& x) { return int(x.sign()); }
    static bool certainly_zero(const CGAL::Mpzf& x) { return x.sign() == 0; }
    /// x as an interval. Mpzf::to_interval must run rounding to nearest: it
    /// scales with std::ldexp(1.0, e), which under upward rounding turns a
    /// scale below 2^-1074 into 2^-1074, and so a number below the double
    /// range into a wrong point interval (the oracle property found a
    /// barycentric of 1/2 enclosed in [1, 1] that way).
    static IA interval(const CGAL::Mpzf& x) {
        std::pair<double, double> i;
        {
            CGAL::Protect_FPU_rounding<true> nearest(CGAL_FE_TONEAREST);
            i = x.to_interval();
        }
        return IA(i.first, i.second);
    }
    /// |x| to double, rounding to nearest: 0 below the double range, inf above.
    static double magnitude(const CGAL::Mpzf& x) {
        CGAL::Protect_FPU_rounding<true> nearest(CGAL_FE_TONEAREST);
        return std::fabs(x.to_double());
    }
    /// 2^k exactly (|k| <= 1000).
    static CGAL::Mpzf pow2(int k) { return CGAL::Mpzf(std::ldexp(1.0, k)); }
    /// Scales x (and y alike) by powers of two until x is inside
    /// [2^-500, 2^500], so that converting them loses nothing to under- or
    /// overflow; returns the total exponent applied.
    static int normalise(CGAL::Mpzf& x, CGAL::Mpzf& y) {
        int applied = 0;
        for (int step = 0; step < 8 && !x.is_zero(); ++step) {
            const double m = magnitude(x);
            const int k = m < 0x1p-500 ? 600 : m > 0x1p500 ? -600 : 0;
            if (k == 0) break;
            x = x * pow2(k);
            y = y * pow2(k);
            applied += k;
        }
        return applied;
    }
    static IA enclose(CGAL::Mpzf num, CGAL::Mpzf den) {
        normalise(den, num);
        return interval(num) / interval(den);
    }
    static IA root(CGAL::Mpzf x) {
        // sqrt(x 2^2k) = sqrt(x) 2^k: scale by even powers only.
        int applied = 0;
        for (int step = 0; step < 8 && !x.is_zero(); ++step) {
            const double m = magnitude(x);
            const int k = m < 0x1p-500 ? 600 : m > 0x1p500 ? -600 : 0;
            if (k == 0) break;
            x = x * pow2(k);
            applied += k;
        }
        IA r = CGAL::sqrt(interval(x));
        for (int left = -applied / 2; left != 0;) {
            const int k = std::max(-1000, std::min(1000, left));
            r = r * IA(std::ldexp(1.0, k));
            left -= k;
        }
        return r;
    }
    static CGAL::Mpzf least(const CGAL::Mpzf (&p)[4]) {
        const CGAL::Mpzf* m = &p[0];
        for (const CGAL::Mpzf& x : p)
            if (x < *m) m = &x;
        return *m;
    }
    static CGAL::Mpzf greatest(const CGAL::Mpzf (&p)[4]) {
        const CGAL::Mpzf* m = &p[0];
        for (const CGAL::Mpzf& x : p)
            if (*m < x) m = &x;
        return *m;
    }
};

/// The rational references' policy: MpzfOps' arithmetic (Mpzf, exact,
/// without the gcd that makes GMP's rationals ten times slower), and a
/// body's numbers given exactly, as rationals, not enclosed. A family's
/// rational reference is its fast body run on this policy: the rule is
/// written once, and CGAL stays the independent reference.
struct RationalOutOps : MpzfOps {
    static constexpr bool exact_out = true;
};

/// Every sign decided in plain double, rounding to nearest: what a fast
/// oracle must not be. The planted wrong oracles of the properties.
struct DoubleOps {
    using NT = double;
    static double of(double x) { return x; }
    static int sgn(double x) { return (x > 0) - (x < 0); }
    static bool certainly_zero(double x) { return x == 0; }
    static IA interval(double x) { return IA(x); }
    static IA enclose(double num, double den) { return IA(num / den); }
    static IA root(double x) { return IA(std::sqrt(x)); }
    static double least(const double (&p)[4]) { return std::min({p[0], p[1], p[2], p[3]}); }
    static double greatest(const double (&p)[4]) { return std::max({p[0], p[1], p[2], p[3]}); }
};

/// GMP rationals: every sign exact, with no interval stage in front. The
/// bands' exact instantiation; it has no enclose or root (the oracles'
/// numbers come from the rational references, not from this policy).
/// Expression templates off: a body's `auto` then holds a number, never an
/// expression referring to temporaries.
struct RationalOps {
    using NT = boost::multiprecision::number<boost::multiprecision::gmp_rational, boost::multiprecision::et_off>;
    static NT of(double x) { return NT(x); }
    static int sgn(const NT& x) { return x.sign(); }
    static bool certainly_zero(const NT& x) { return x.sign() == 0; }
    static NT least(const NT (&p)[4]) { return std::min({p[0], p[1], p[2], p[3]}); }
    static NT greatest(const NT (&p)[4]) { return std::max({p[0], p[1], p[2], p[3]}); }
};

/// Runs an oracle body on intervals, and where they cannot decide, on Mpzf.
template <class T, template <class> class Body> std::optional<T> two_stage(const double* in) {
    Upward upward;
    try {
        return Body<IntervalOps>::run(in);
    } catch (const Undecided&) {
        return Body<MpzfOps>::run(in);
    }
}

/// A band body (static bool run(in, exact_answer, delta)) on intervals,
/// and where they cannot decide, on Mpzf: the fast band, exact wherever it
/// answers (each delta is a double, exact in both).
template <template <class> class Band> bool fast_band(const double* in, int exact_answer, const double* delta) {
    Upward upward;
    try {
        return Band<IntervalOps>::run(in, exact_answer, delta);
    } catch (const Undecided&) {
        return Band<MpzfOps>::run(in, exact_answer, delta);
    }
}

/// The same band on rationals: the exact instantiation.
template <template <class> class Band> bool exact_band(const double* in, int exact_answer, const double* delta) {
    return Band<RationalOps>::run(in, exact_answer, delta);
}

/// A first-order band's directions (isect/ref/fast.hpp), from its body on
/// plain double rounding to nearest.
template <template <class> class Band> Directions band_directions(const double* in, int exact_answer, const double* delta) {
    CGAL::Protect_FPU_rounding<true> nearest(CGAL_FE_TONEAREST);
    Directions out;
    Band<DoubleOps>::directions(in, exact_answer, delta, out);
    return out;
}

/// The same band in plain double: a planted wrong band.
template <template <class> class Band> bool double_band(const double* in, int exact_answer, const double* delta) {
    return Band<DoubleOps>::run(in, exact_answer, delta);
}

/// A body's answer and numbers on RationalOutOps: each number exactly, or
/// none (known false: a degenerate triangle's barycentrics).
struct ExactResult {
    int answer = 0;
    int count = 0;
    std::array<Rational, 12> values;
    std::array<bool, 12> known{};
    /// A number that is a root (put_root): values holds its square, sign
    /// its sign (-1, 0 or 1).
    std::array<bool, 12> squared{};
    std::array<signed char, 12> sign{};
};

/// What a body yields on policy Ops: enclosures (Result) on the oracle's
/// stages, exact rationals (ExactResult) on RationalOutOps.
template <class Ops, class = void> struct OutOf {
    using type = Result;
};
template <class Ops> struct OutOf<Ops, std::void_t<decltype(Ops::exact_out)>> {
    using type = ExactResult;
};
template <class Ops> using Out = typename OutOf<Ops>::type;

inline Rational to_rational(const CGAL::Mpzf& x) { return Rational(CGAL::Gmpq(x).mpq()); }

inline void push_pair(Result& r, double lo, double hi) {
    r.lo[r.count] = lo;
    r.hi[r.count] = hi;
    ++r.count;
}
inline void push(Result& r, const IA& x) { push_pair(r, x.inf(), x.sup()); }
inline void push_exact(Result& r, double x) { push_pair(r, x, x); }

/// A body's number num / den (den != 0): enclosed, or exactly.
template <class Ops> void put_quotient(Out<Ops>& r, const typename Ops::NT& num, const typename Ops::NT& den) {
    if constexpr (std::is_same_v<Out<Ops>, ExactResult>) {
        r.values[size_t(r.count)] = to_rational(num) / to_rational(den);
        r.known[size_t(r.count++)] = true;
    } else {
        push(r, Ops::enclose(num, den));
    }
}
/// A body's number that is a double as it is (a box's corner).
template <class Ops> void put_double(Out<Ops>& r, double x) {
    if constexpr (std::is_same_v<Out<Ops>, ExactResult>) {
        r.values[size_t(r.count)] = Rational(x);
        r.known[size_t(r.count++)] = true;
    } else {
        push_exact(r, x);
    }
}
/// A body's number sign * sqrt(num / den) (den > 0, num >= 0) on the exact
/// policy: its square and its sign, exactly (a root is no rational; the
/// nearest double is taken where the truth is formed). The interval stages
/// enclose their roots as each body writes them.
template <class Ops> void put_root(ExactResult& r, const typename Ops::NT& num, const typename Ops::NT& den, int sign) {
    r.values[size_t(r.count)] = to_rational(num) / to_rational(den);
    r.squared[size_t(r.count)] = true;
    r.sign[size_t(r.count)] = static_cast<signed char>(r.values[size_t(r.count)] == 0 ? 0 : sign);
    r.known[size_t(r.count++)] = true;
}
/// A place for a number the body does not have (NaN in an enclosure).
template <class Ops> void put_none(Out<Ops>& r) {
    if constexpr (std::is_same_v<Out<Ops>, ExactResult>) {
        r.known[size_t(r.count++)] = false;
    } else {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        push_pair(r, nan, nan);
    }
}

/// In the interval stage, an enclosure wider than `width` goes to the exact
/// stage (throws Undecided): a quotient that cancels can be too wide for
/// the judges, which hold numbers to a few units of their rounding. The
/// exact stages keep theirs.
template <class Ops> void narrow_or_exact(const IA& x, double width) {
    if constexpr (std::is_same_v<Ops, IntervalOps>)
        if (x.sup() - x.inf() > width) throw Undecided{};
}

/// A parameter t = num / den with den > 0.
template <class NT> struct Frac {
    NT num;
    NT den;
};

template <class Ops> std::array<typename Ops::NT, 3> point_of(const double* p) {
    return {Ops::of(p[0]), Ops::of(p[1]), Ops::of(p[2])};
}
/// Vector arithmetic on points of any stage's numbers: the number types
/// (intervals, Mpzf, rationals) and the bands' intervals (Bounds) alike.
template <class T> std::array<T, 3> sub(const std::array<T, 3>& a, const std::array<T, 3>& b) {
    return {T(a[0] - b[0]), T(a[1] - b[1]), T(a[2] - b[2])};
}
template <class T> T dot(const std::array<T, 3>& a, const std::array<T, 3>& b) {
    return T(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
}
template <class T> std::array<T, 3> cross(const std::array<T, 3>& a, const std::array<T, 3>& b) {
    return {T(a[1] * b[2] - a[2] * b[1]), T(a[2] * b[0] - a[0] * b[2]), T(a[0] * b[1] - a[1] * b[0])};
}

/// The exact moves' bands (aabb_triangle, triangle_triangle, ray_triangle)
/// on an axis L: |L|_1, the coordinate axis i, and the least and greatest
/// of a triangle's projections on L. On intervals none of them decides a
/// sign (an enclosure of the least, of the greatest), and soft_sign says
/// kUnknown where an exact policy's sign would be needed: a band that asks
/// many independent tests then throws Undecided only where its answer turns
/// on one it could not decide, not at the first.
template <class Ops> int soft_sign(const typename Ops::NT& x) {
    if constexpr (std::is_same_v<typename Ops::NT, IA>) return sign_of(x);
    else return Ops::sgn(x);
}
template <class Ops> typename Ops::NT norm1(const std::array<typename Ops::NT, 3>& L) {
    using NT = typename Ops::NT;
    NT r(0);
    for (size_t i = 0; i < 3; ++i) {
        if constexpr (std::is_same_v<NT, IA>) r = r + CGAL::abs(L[i]);
        else r = r + (Ops::sgn(L[i]) < 0 ? NT(-L[i]) : L[i]);
    }
    return r;
}
template <class NT> std::array<NT, 3> unit_axis(size_t i) {
    std::array<NT, 3> u{NT(0), NT(0), NT(0)};
    u[i] = NT(1);
    return u;
}
/// The lesser and the greater of a and b (enclosures of each, on intervals).
template <class Ops> typename Ops::NT lesser(const typename Ops::NT& a, const typename Ops::NT& b) {
    if constexpr (std::is_same_v<typename Ops::NT, IA>) return (CGAL::min)(a, b);
    else return Ops::sgn(typename Ops::NT(b - a)) < 0 ? b : a;
}
template <class Ops> typename Ops::NT greater(const typename Ops::NT& a, const typename Ops::NT& b) {
    if constexpr (std::is_same_v<typename Ops::NT, IA>) return (CGAL::max)(a, b);
    else return Ops::sgn(typename Ops::NT(b - a)) > 0 ? b : a;
}
template <class Ops>
void projection_span(const std::array<typename Ops::NT, 3>& L, const std::array<typename Ops::NT, 3> (&v)[3],
                     typename Ops::NT& lo, typename Ops::NT& hi) {
    lo = hi = dot(L, v[0]);
    for (int k = 1; k < 3; ++k) {
        const typename Ops::NT x = dot(L, v[k]);
        lo = lesser<Ops>(lo, x);
        hi = greater<Ops>(hi, x);
    }
}

/// The 26 nonzero sign patterns of -1, 0, 1 on the three axes: the
/// translations the moves' bands give the witnessed-K search.
inline std::vector<std::array<signed char, 3>> nonzero_sign_patterns() {
    std::vector<std::array<signed char, 3>> out;
    for (int code = 0; code < 27; ++code)
        if (code != 13)  // no move
            out.push_back({static_cast<signed char>(code % 3 - 1), static_cast<signed char>(code / 3 % 3 - 1),
                           static_cast<signed char>(code / 9 - 1)});
    return out;
}

template <class Ops> std::array<typename Ops::NT, 3> scaled_point(const double* p, const typename Ops::NT& scale) {
    return {scale * Ops::of(p[0]), scale * Ops::of(p[1]), scale * Ops::of(p[2])};
}

/// The bands' interval arithmetic: a rational interval [lo, hi] enclosing
/// a polynomial of the inputs over the delta-box, each end held as a number
/// of Ops: on rationals and Mpzf the end itself, exactly; on intervals an
/// enclosure of the end (the band's decisions are the ends' signs, certain
/// where these decide them).
template <class Ops> struct Bounds {
    using NT = typename Ops::NT;
    NT lo, hi;
    friend Bounds operator+(const Bounds& a, const Bounds& b) { return {a.lo + b.lo, a.hi + b.hi}; }
    friend Bounds operator-(const Bounds& a, const Bounds& b) { return {a.lo - b.hi, a.hi - b.lo}; }
    friend Bounds operator-(const Bounds& a) { return {-a.hi, -a.lo}; }
    friend Bounds operator*(const Bounds& a, const Bounds& b) {
        if constexpr (std::is_same_v<Ops, IntervalOps>) {
            // Where each factor's sign is certain, which product is an end
            // is known (two products, not four and their extremes): the
            // same rational ends, enclosed as well to within rounding (a
            // sign either enclosure leaves open goes to the exact stage, as
            // always). Most of a band's multiplications are of this kind.
            const int sa = a.certain_sign(), sb = b.certain_sign();
            if (sa != kUnknown && sb != kUnknown) {
                if (sa >= 0 && sb >= 0) return {a.lo * b.lo, a.hi * b.hi};
                if (sa >= 0) return {a.hi * b.lo, a.lo * b.hi};
                if (sb >= 0) return {a.lo * b.hi, a.hi * b.lo};
                return {a.hi * b.hi, a.lo * b.lo};
            }
        }
        // The rational ends are the least and greatest of the four products.
        const NT p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
        return {Ops::least(p), Ops::greatest(p)};
    }
    /// On intervals: 1 where every number of [lo, hi] is certainly >= 0, -1
    /// where certainly <= 0, kUnknown otherwise.
    int certain_sign() const {
        if (lo.inf() >= 0) return 1;
        if (hi.sup() <= 0) return -1;
        return kUnknown;
    }
    /// Whether the rational interval holds 0 (lo <= 0 <= hi).
    bool holds_zero() const { return Ops::sgn(lo) <= 0 && Ops::sgn(hi) >= 0; }
    /// The signs a number in [lo, hi] can have, as bits: 1 for -, 2 for 0,
    /// 4 for + (for the bands that try each sign their functions can take).
    int sign_bits() const { return (Ops::sgn(lo) < 0 ? 1 : 0) | (holds_zero() ? 2 : 0) | (Ops::sgn(hi) > 0 ? 4 : 0); }
};

template <class Ops> using BPoint = std::array<Bounds<Ops>, 3>;
template <class Ops> BPoint<Ops> operator-(const BPoint<Ops>& a, const BPoint<Ops>& b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
template <class Ops> BPoint<Ops> widened(const double* p, const typename Ops::NT& delta) {
    BPoint<Ops> r;
    for (size_t i = 0; i < 3; ++i) r[i] = {Ops::of(p[i]) - delta, Ops::of(p[i]) + delta};
    return r;
}
/// The point at p, each coordinate widened by its own delta (delta[i] for p[i]).
template <class Ops> BPoint<Ops> widened(const double* p, const double* delta) {
    BPoint<Ops> r;
    for (size_t i = 0; i < 3; ++i) r[i] = {Ops::of(p[i]) - Ops::of(delta[i]), Ops::of(p[i]) + Ops::of(delta[i])};
    return r;
}

}  // namespace isect::ref::fast::detail
