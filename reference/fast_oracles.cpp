// The fast exact oracles and bands of every family (fast.hpp), on CGAL's
// Interval_nt. Each function opens one Upward scope: Interval_nt<false>
// needs the rounding mode upward for all its operations, and plain double
// arithmetic inside the scope rounds upward too, so every number computed
// here is an interval, and whatever must round to nearest (the band's delta,
// which the rational bands take as a double) is computed before the scope.
//
// Where intervals straddle, ray_triangle and the slab families run the same
// code again on CGAL's Mpzf, an exact multiprecision float with its limbs on
// the stack: exact signs, and enclosures of its exact numbers, several times
// cheaper than the rational references (Mpzf converts doubles exactly and
// computes in integers, so the rounding mode does not matter to it).
#include "isect/ref/fast.hpp"

#include <CGAL/Interval_nt.h>
#include <CGAL/Mpzf.h>
#include <algorithm>
#include <cmath>
#include <limits>

namespace isect::ref::fast {

namespace {

using IA = CGAL::Interval_nt_advanced;
using Upward = CGAL::Protect_FPU_rounding<true>;

constexpr int kUnknown = 2;


/// -1, 0, 1, or kUnknown when the interval straddles 0 (0 only for the point 0).
int sign_of(const IA& x) {
    if (x.inf() > 0) return 1;
    if (x.sup() < 0) return -1;
    if (x.inf() == 0 && x.sup() == 0) return 0;
    return kUnknown;
}

struct Undecided {};  // thrown inside an oracle where an interval cannot decide

int sign(const IA& x) {
    const int s = sign_of(x);
    if (s == kUnknown) throw Undecided{};
    return s;
}

/// What the oracles need of a number type: doubles in, exact signs (or
/// Undecided), an interval enclosing a quotient, and the least and greatest
/// of four numbers (for an interval, an enclosure of the least and of the
/// greatest of the numbers it encloses).
struct IntervalOps {
    using NT = IA;
    static IA of(double x) { return IA(x); }
    static int sgn(const IA& x) { return sign(x); }
    static IA enclose(const IA& num, const IA& den) { return num / den; }
    static IA root(const IA& x) { return CGAL::sqrt(x); }
    static IA least(const IA (&p)[4]) {
        double lo = p[0].inf(), hi = p[0].sup();
        for (const IA& x : p) {
            lo = std::min(lo, x.inf());
            hi = std::min(hi, x.sup());
        }
        return IA(lo, hi);
    }
    static IA greatest(const IA (&p)[4]) {
        double lo = p[0].inf(), hi = p[0].sup();
        for (const IA& x : p) {
            lo = std::max(lo, x.inf());
            hi = std::max(hi, x.sup());
        }
        return IA(lo, hi);
    }
};
struct ExactOps {
    using NT = CGAL::Mpzf;
    static CGAL::Mpzf of(double x) { return CGAL::Mpzf(x); }
    static int sgn(const CGAL::Mpzf& x) { return int(x.sign()); }
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

/// Every sign decided in plain double, rounding to nearest: what a fast
/// oracle must not be. The planted wrong oracles of the properties.
struct DoubleOps {
    using NT = double;
    static double of(double x) { return x; }
    static int sgn(double x) { return (x > 0) - (x < 0); }
    static IA enclose(double num, double den) { return IA(num / den); }
    static IA root(double x) { return IA(std::sqrt(x)); }
    static double least(const double (&p)[4]) { return std::min({p[0], p[1], p[2], p[3]}); }
    static double greatest(const double (&p)[4]) { return std::max({p[0], p[1], p[2], p[3]}); }
};

/// Runs an oracle body on intervals, and where they cannot decide, on Mpzf.
template <class T, template <class> class Body> std::optional<T> two_stage(const double* in) {
    Upward upward;
    try {
        return Body<IntervalOps>::run(in);
    } catch (const Undecided&) {
        return Body<ExactOps>::run(in);
    }
}

/// The same for a band, with its delta (a double, exact in both).
template <template <class> class Body> std::optional<bool> two_stage_band(const double* in, double delta) {
    Upward upward;
    try {
        return Body<IntervalOps>::run(in, delta);
    } catch (const Undecided&) {
        return Body<ExactOps>::run(in, delta);
    }
}


void push_pair(Result& r, double lo, double hi) {
    r.lo[r.count] = lo;
    r.hi[r.count] = hi;
    ++r.count;
}
void push(Result& r, const IA& x) { push_pair(r, x.inf(), x.sup()); }
void push_exact(Result& r, double x) { push_pair(r, x, x); }

/// Runs an oracle body in an Upward scope; Undecided becomes nullopt.
template <class T, class F> std::optional<T> decided(F body) {
    Upward upward;
    try {
        return body();
    } catch (const Undecided&) {
        return std::nullopt;
    }
}

/// delta = ku M (ku = K u) exactly as the rational bands take it
/// (family.cpp's band_delta: the product rounded to nearest double; inf as
/// the largest double). Computed before any Upward scope.
double band_delta(const double* in, size_t n, double ku) {
    double m = 0;
    for (size_t i = 0; i < n; ++i)
        if (std::isfinite(in[i])) m = std::max(m, std::fabs(in[i]));
    if (m == 0) m = 1;  // all zeros: any delta > 0 gives the same band (family.cpp's band_magnitude)
    const double delta = ku * m;
    return std::isfinite(delta) ? delta : std::numeric_limits<double>::max();
}

// --- Slabs: a segment or ray o + t d against a box ------------------------------

/// A parameter t = num / den with den > 0.
template <class NT> struct Frac {
    NT num;
    NT den;
};

template <class Ops> struct Slabs {
    using NT = typename Ops::NT;
    using Point = std::array<NT, 3>;

    static int compare(const Frac<NT>& a, const Frac<NT>& b) { return Ops::sgn(a.num * b.den - b.num * a.den); }

    struct Result {
        bool hit = false;
        Frac<NT> enter{NT(0), NT(1)}, exit{NT(0), NT(1)};
        bool exit_infinite = false;
        std::array<std::optional<Frac<NT>>, 3> near;
    };

    /// ray_aabb_rational with the box corners lo, hi given as numbers (a
    /// Minkowski difference, a float box), and o, lo, hi all multiplied by
    /// scale > 0 (so that a band's grown box, whose margin is a fraction,
    /// stays exact): the direction is scale d.
    static Result run(const Point& o, const double* d, const Point& lo, const Point& hi, bool segment,
                      const NT& scale = NT(1)) {
        Result r;
        for (int i = 0; i < 3; ++i)
            if (Ops::sgn(hi[size_t(i)] - lo[size_t(i)]) < 0) return r;  // an empty box
        Frac<NT> t0{NT(0), NT(1)};
        std::optional<Frac<NT>> t1;
        if (segment) t1 = Frac<NT>{NT(1), NT(1)};
        for (size_t i = 0; i < 3; ++i) {
            if (d[i] == 0) {
                if (Ops::sgn(o[i] - lo[i]) < 0 || Ops::sgn(hi[i] - o[i]) < 0) return r;
                continue;
            }
            // t = (plane - o) / d, with the sign moved into the numerator.
            const bool up = d[i] > 0;
            const NT den = scale * Ops::of(std::fabs(d[i]));
            const Frac<NT> tn{up ? NT(lo[i] - o[i]) : NT(o[i] - hi[i]), den};
            const Frac<NT> tf{up ? NT(hi[i] - o[i]) : NT(o[i] - lo[i]), den};
            r.near[i] = tn;
            if (compare(tn, t0) > 0) t0 = tn;
            if (!t1 || compare(tf, *t1) < 0) t1 = tf;
        }
        if (t1 && compare(t0, *t1) > 0) return r;
        r.hit = true;
        r.enter = t0;
        if (t1) r.exit = *t1;
        else r.exit_infinite = true;
        return r;
    }
};

template <class Ops> std::array<typename Ops::NT, 3> point_of(const double* p) {
    return {Ops::of(p[0]), Ops::of(p[1]), Ops::of(p[2])};
}
/// Vector arithmetic on points of any stage's numbers: the number types
/// (intervals, Mpzf) and the bands' rational intervals (Bounds) alike.
template <class T> std::array<T, 3> sub(const std::array<T, 3>& a, const std::array<T, 3>& b) {
    return {T(a[0] - b[0]), T(a[1] - b[1]), T(a[2] - b[2])};
}
template <class T> T dot(const std::array<T, 3>& a, const std::array<T, 3>& b) {
    return T(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
}
template <class T> std::array<T, 3> cross(const std::array<T, 3>& a, const std::array<T, 3>& b) {
    return {T(a[1] * b[2] - a[2] * b[1]), T(a[2] * b[0] - a[0] * b[2]), T(a[0] * b[1] - a[1] * b[0])};
}

template <class Ops> std::array<typename Ops::NT, 3> scaled_point(const double* p, const typename Ops::NT& scale) {
    return {scale * Ops::of(p[0]), scale * Ops::of(p[1]), scale * Ops::of(p[2])};
}

/// ray_aabb / segment_aabb on a number type.
template <bool Segment> struct RayAabbBody {
    template <class Ops> struct Body {
        static Result run(const double* in) {
            using S = Slabs<Ops>;
            const auto s = S::run(point_of<Ops>(in), in + 3, point_of<Ops>(in + 6), point_of<Ops>(in + 9), Segment);
            Result r;
            r.answer = s.hit ? 1 : 0;
            if (!s.hit) return r;
            push(r, Ops::enclose(s.enter.num, s.enter.den));
            if (s.exit_infinite) push_exact(r, std::numeric_limits<double>::infinity());
            else push(r, Ops::enclose(s.exit.num, s.exit.den));
            double normal[3] = {0, 0, 0};
            if (Ops::sgn(s.enter.num) > 0)
                for (int i = 0; i < 3; ++i)
                    if (s.near[size_t(i)] && S::compare(*s.near[size_t(i)], s.enter) == 0) {
                        normal[i] = in[3 + i] > 0 ? -1 : 1;
                        break;
                    }
            for (double n : normal) push_exact(r, n);
            return r;
        }
    };
};

/// moving_aabb on a number type: the segment from 0 along d against the
/// Minkowski difference S - M.
template <class Ops> struct MovingAabbBody {
    static Result run(const double* in) {
        std::array<typename Ops::NT, 3> lo, hi, zero;
        for (size_t i = 0; i < 3; ++i) {
            lo[i] = Ops::of(in[i]) - Ops::of(in[9 + i]);
            hi[i] = Ops::of(in[3 + i]) - Ops::of(in[6 + i]);
            zero[i] = typename Ops::NT(0);
        }
        const auto s = Slabs<Ops>::run(zero, in + 12, lo, hi, true);
        Result r;
        r.answer = s.hit ? 1 : 0;
        if (s.hit) push(r, Ops::enclose(s.enter.num, s.enter.den));
        return r;
    }
};


}  // namespace

// --- ray_aabb, segment_aabb -----------------------------------------------------

std::optional<Result> ray_aabb(const double* in, bool segment) {
    return segment ? two_stage<Result, RayAabbBody<true>::Body>(in) : two_stage<Result, RayAabbBody<false>::Body>(in);
}

namespace {

/// ray_aabb's band on a number type: the query against the box grown by g
/// and shrunk by g, g = delta (2 + T). With T = 2 (M + delta) / (dmax -
/// delta) for a ray, g = N / D with N = 2 delta (dmax + M) and D = dmax -
/// delta, so every coordinate is scaled by D and the grown box is exact.
template <bool Segment> struct RayAabbBand {
    template <class Ops> struct Body {
        static bool run(const double* in, double delta) {
            using NT = typename Ops::NT;
            const NT dl = Ops::of(delta);
            NT scale(1), margin = 3 * dl;  // a segment: T = 1, g = 3 delta
            if (!Segment) {
                double dmax = 0, m = 0;
                for (int i = 0; i < 3; ++i) dmax = std::max(dmax, double(std::fabs(in[3 + i])));
                for (int i = 0; i < 12; ++i) m = std::max(m, double(std::fabs(in[i])));
                if (Ops::sgn(Ops::of(dmax) - dl) <= 0) return true;
                scale = Ops::of(dmax) - dl;
                margin = 2 * dl * (Ops::of(dmax) + Ops::of(m));
            }
            auto glo = scaled_point<Ops>(in + 6, scale), ghi = scaled_point<Ops>(in + 9, scale);
            auto slo = glo, shi = ghi;
            for (size_t i = 0; i < 3; ++i) {
                glo[i] = glo[i] - margin;
                ghi[i] = ghi[i] + margin;
                slo[i] = slo[i] + margin;
                shi[i] = shi[i] - margin;
            }
            const auto o = scaled_point<Ops>(in, scale);
            using S = Slabs<Ops>;
            return S::run(o, in + 3, glo, ghi, Segment, scale).hit != S::run(o, in + 3, slo, shi, Segment, scale).hit;
        }
    };
};

}  // namespace

std::optional<bool> ray_aabb_in_band(const double* in, bool segment, double ku) {
    if (!(ku > 0)) return std::nullopt;
    const double delta = band_delta(in, 12, ku);
    return segment ? two_stage_band<RayAabbBand<true>::Body>(in, delta)
                   : two_stage_band<RayAabbBand<false>::Body>(in, delta);
}

// --- moving_aabb -------------------------------------------------------------------


std::optional<Result> moving_aabb(const double* in) { return two_stage<Result, MovingAabbBody>(in); }

namespace {
/// moving_aabb's band: the Minkowski difference grown and shrunk by 3 delta.
template <class Ops> struct MovingAabbBand {
    static bool run(const double* in, double delta) {
        using NT = typename Ops::NT;
        const NT g = 3 * Ops::of(delta);
        std::array<NT, 3> glo, ghi, slo, shi, zero;
        for (size_t i = 0; i < 3; ++i) {
            const NT lo = Ops::of(in[i]) - Ops::of(in[9 + i]), hi = Ops::of(in[3 + i]) - Ops::of(in[6 + i]);
            glo[i] = lo - g;
            ghi[i] = hi + g;
            slo[i] = lo + g;
            shi[i] = hi - g;
            zero[i] = NT(0);
        }
        using S = Slabs<Ops>;
        return S::run(zero, in + 12, glo, ghi, true).hit != S::run(zero, in + 12, slo, shi, true).hit;
    }
};
}  // namespace

std::optional<bool> moving_aabb_in_band(const double* in, double ku) {
    if (!(ku > 0)) return std::nullopt;
    return two_stage_band<MovingAabbBand>(in, band_delta(in, 15, ku));
}

// --- aabb_plane, aabb_plane_overlap, moving_aabb_plane ------------------------------

namespace {

/// Least and greatest n . x over the box, minus d.
template <class Ops>
void margins(const double* box, const double* n, double d, typename Ops::NT& lo, typename Ops::NT& hi) {
    lo = hi = -Ops::of(d);
    for (int i = 0; i < 3; ++i) {
        const auto a = Ops::of(n[i]) * Ops::of(box[i]), b = Ops::of(n[i]) * Ops::of(box[3 + i]);  // exact: float products
        const bool a_low = Ops::sgn(b - a) > 0;
        lo = lo + (a_low ? a : b);
        hi = hi + (a_low ? b : a);
    }
}

/// The margins' Lipschitz bound: delta (1 + sum (|n_i| + max(|lo_i|, |hi_i|))) + 3 delta^2.
template <class Ops> typename Ops::NT margin_bound(const double* box, const double* n, const typename Ops::NT& delta) {
    typename Ops::NT l = delta + 3 * delta * delta;
    for (int i = 0; i < 3; ++i)
        l = l + (Ops::of(std::fabs(double(n[i]))) +
                 Ops::of(std::max(std::fabs(double(box[i])), std::fabs(double(box[3 + i]))))) * delta;
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
    static Result run(const double* in) {
        typename Ops::NT lo, hi;
        margins<Ops>(in, in + 6, in[9], lo, hi);
        Result r;
        r.answer = Ops::sgn(lo) >= 0 ? 2 : Ops::sgn(hi) <= 0 ? 0 : 1;  // front, back, straddle
        return r;
    }
};

template <class Ops> struct AabbPlaneOverlapBody {
    static Result run(const double* in) {
        typename Ops::NT lo, hi;
        margins<Ops>(in, in + 6, in[9], lo, hi);
        Result r;
        r.answer = Ops::sgn(lo) <= 0 && Ops::sgn(hi) >= 0 ? 1 : 0;
        return r;
    }
};

template <class Ops> struct AabbPlaneBand {
    static bool run(const double* in, double delta) {
        typename Ops::NT lo, hi;
        margins<Ops>(in, in + 6, in[9], lo, hi);
        const auto l = margin_bound<Ops>(in, in + 6, Ops::of(delta));
        return within<Ops>(lo, l) || within<Ops>(hi, l);
    }
};

template <class Ops> struct MovingAabbPlaneBody {
    static Result run(const double* in) {
        typename Ops::NT a, b;
        margins<Ops>(in, in + 6, in[9], a, b);
        const auto s = dot3<Ops>(in + 6, in + 10);
        Result r;
        r.answer = 1;
        if (Ops::sgn(a) <= 0 && Ops::sgn(b) >= 0) push_exact(r, 0);
        else if (Ops::sgn(a) > 0 && Ops::sgn(s) < 0) push(r, Ops::enclose(-a, s));
        else if (Ops::sgn(b) < 0 && Ops::sgn(s) > 0) push(r, Ops::enclose(-b, s));
        else r.answer = 0;
        return r;
    }
};

template <class Ops> struct MovingAabbPlaneBand {
    static bool run(const double* in, double delta) {
        using NT = typename Ops::NT;
        const NT dl = Ops::of(delta);
        NT lo, hi;
        margins<Ops>(in, in + 6, in[9], lo, hi);
        const NT l = margin_bound<Ops>(in, in + 6, dl);
        NT ls = 3 * dl * dl;
        for (int i = 0; i < 3; ++i)
            ls = ls + (Ops::of(std::fabs(double(in[6 + i]))) + Ops::of(std::fabs(double(in[10 + i])))) * dl;
        return within<Ops>(lo, l) || within<Ops>(hi, l) || within<Ops>(dot3<Ops>(in + 6, in + 10), ls);
    }
};

// --- aabb_aabb ---------------------------------------------------------------------

template <class Ops> struct AabbAabbBand {
    static bool run(const double* in, double delta) {
        using NT = typename Ops::NT;
        // The exact answer, from float comparisons (the band depends on it).
        bool overlap = true;
        for (int i = 0; i < 3; ++i) overlap = overlap && in[i] <= in[9 + i] && in[6 + i] <= in[3 + i];
        const NT two_delta = 2 * Ops::of(delta);
        bool overlap_flips = false, disjoint_flips = true;
        for (int i = 0; i < 3; ++i)
            for (const NT& diff : {NT(Ops::of(in[9 + i]) - Ops::of(in[i])), NT(Ops::of(in[3 + i]) - Ops::of(in[6 + i]))}) {
                if (Ops::sgn(two_delta - diff) > 0) overlap_flips = true;
                if (Ops::sgn(diff) < 0 && Ops::sgn(diff + two_delta) < 0) disjoint_flips = false;
            }
        return overlap ? overlap_flips : disjoint_flips;
    }
};

// --- sphere_aabb -------------------------------------------------------------------

/// The squared distance from the centre to the box; the nearest point and
/// containment are exact (float comparisons).
template <class Ops> typename Ops::NT sphere_dist2(const double* in, double closest[3], bool& contains) {
    typename Ops::NT d2(0);
    contains = true;
    for (int i = 0; i < 3; ++i) {
        const double c = in[6 + i];
        closest[i] = c < in[i] ? in[i] : (c > in[3 + i] ? in[3 + i] : c);
        if (closest[i] != c) contains = false;
        const auto d = Ops::of(c) - Ops::of(closest[i]);
        d2 = d2 + d * d;
    }
    return d2;
}

template <class Ops> struct SphereBody {
    static Result run(const double* in) {
        double closest[3];
        bool contains = false;
        const auto d2 = sphere_dist2<Ops>(in, closest, contains);
        const auto r = Ops::of(in[9]);
        Result out;
        out.answer = Ops::sgn(r * r - d2) >= 0 ? 1 : 0;
        for (double c : closest) push_exact(out, c);
        push_exact(out, contains ? 1 : 0);
        return out;
    }
};

template <class Ops> struct SphereBand {
    static bool run(const double* in, double delta) {
        using NT = typename Ops::NT;
        const NT w = Ops::of(4.5) * Ops::of(delta), r = Ops::of(in[9]);
        double closest[3];
        bool contains = false;
        const NT d2 = sphere_dist2<Ops>(in, closest, contains);
        const NT lo = Ops::sgn(r - w) > 0 ? NT(r - w) : NT(0);
        return Ops::sgn(d2 - lo * lo) >= 0 && Ops::sgn((r + w) * (r + w) - d2) >= 0;
    }
};

// --- transformed_aabb ------------------------------------------------------------

template <class Ops> struct TransformedBody {
    static Result run(const double* in) {
        using NT = typename Ops::NT;
        Result r;
        NT lo[3], hi[3];
        for (int i = 0; i < 3; ++i) {
            lo[i] = hi[i] = Ops::of(in[15 + i]);
            for (int j = 0; j < 3; ++j) {
                const NT p = Ops::of(in[6 + 3 * i + j]) * Ops::of(in[j]), q = Ops::of(in[6 + 3 * i + j]) * Ops::of(in[3 + j]);
                const bool p_low = Ops::sgn(q - p) > 0;
                lo[i] = lo[i] + (p_low ? p : q);
                hi[i] = hi[i] + (p_low ? q : p);
            }
        }
        for (const NT& x : lo) push(r, Ops::enclose(x, NT(1)));
        for (const NT& x : hi) push(r, Ops::enclose(x, NT(1)));
        return r;
    }
};

}  // namespace

std::optional<Result> aabb_plane(const double* in) { return two_stage<Result, AabbPlaneBody>(in); }
std::optional<Result> aabb_plane_overlap(const double* in) { return two_stage<Result, AabbPlaneOverlapBody>(in); }
std::optional<bool> aabb_plane_in_band(const double* in, double ku) {
    if (!(ku > 0)) return std::nullopt;
    return two_stage_band<AabbPlaneBand>(in, band_delta(in, 10, ku));
}
std::optional<Result> moving_aabb_plane(const double* in) { return two_stage<Result, MovingAabbPlaneBody>(in); }
std::optional<bool> moving_aabb_plane_in_band(const double* in, double ku) {
    if (!(ku > 0)) return std::nullopt;
    return two_stage_band<MovingAabbPlaneBand>(in, band_delta(in, 13, ku));
}

std::optional<Result> aabb_aabb(const double* in) {
    // Comparisons and min / max of floats: exact with no intervals at all.
    Result r;
    for (int i = 0; i < 3; ++i)
        if (in[i] > in[9 + i] || in[6 + i] > in[3 + i]) return r;
    r.answer = 1;
    for (int i = 0; i < 3; ++i) push_exact(r, std::max(in[i], in[6 + i]));
    for (int i = 0; i < 3; ++i) push_exact(r, std::min(in[3 + i], in[9 + i]));
    return r;
}
std::optional<bool> aabb_aabb_in_band(const double* in, int, double ku) {
    if (!(ku > 0)) return std::nullopt;
    return two_stage_band<AabbAabbBand>(in, band_delta(in, 12, ku));
}

std::optional<Result> sphere_aabb(const double* in) { return two_stage<Result, SphereBody>(in); }
std::optional<bool> sphere_aabb_in_band(const double* in, double ku) {
    if (!(ku > 0)) return std::nullopt;
    return two_stage_band<SphereBand>(in, band_delta(in, 10, ku));
}

std::optional<Result> transformed_aabb(const double* in) { return two_stage<Result, TransformedBody>(in); }

// --- ray_triangle ---------------------------------------------------------------------

namespace {

/// ray_triangle_rational on a number type: Cramer's rule; a ray in the
/// triangle's plane clipped by its three edges; a degenerate triangle as its
/// longest edge (or a point).
template <class Ops> struct RayTriangleBody {
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;

    static bool zero(const P& p) { return Ops::sgn(p[0]) == 0 && Ops::sgn(p[1]) == 0 && Ops::sgn(p[2]) == 0; }
    /// sign(a / b - c / d) for b, d > 0.
    static int compare(const Frac<NT>& a, const Frac<NT>& b) { return Ops::sgn(a.num * b.den - b.num * a.den); }
    /// The fraction x / y with a positive denominator (y != 0).
    static Frac<NT> frac(const NT& x, const NT& y) { return Ops::sgn(y) > 0 ? Frac<NT>{x, y} : Frac<NT>{-x, -y}; }

    static Result hit(const Frac<NT>& t) {
        Result r;
        r.answer = 1;
        push(r, Ops::enclose(t.num, t.den));
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (int i = 0; i < 2; ++i) push_pair(r, nan, nan);  // no barycentrics for a degenerate triangle
        return r;
    }

    /// The ray against the segment [p, q] (a point when p == q).
    static Result segment(const P& o, const P& d, const std::optional<NT>& tmax, const P& p, const P& q) {
        const P w = sub(q, p), op = sub(p, o);
        if (zero(d)) {  // the query is the point o: on [p, q], hit at t = 0
            const NT k = -dot(op, w), ww = dot(w, w);
            if (!zero(cross(op, w)) || Ops::sgn(k) < 0 || Ops::sgn(ww - k) < 0) return Result{};
            if (Ops::sgn(ww) == 0 && !zero(op)) return Result{};
            return hit({NT(0), NT(1)});
        }
        const P dw = cross(d, w);
        if (!zero(dw)) {
            if (Ops::sgn(dot(op, dw)) != 0) return Result{};  // skew lines
            const NT n2 = dot(dw, dw), t = dot(cross(op, w), dw), sp = dot(cross(op, d), dw);
            if (Ops::sgn(sp) < 0 || Ops::sgn(n2 - sp) < 0 || Ops::sgn(t) < 0) return Result{};
            if (tmax && Ops::sgn(*tmax * n2 - t) < 0) return Result{};
            return hit({t, n2});
        }
        if (!zero(cross(op, d))) return Result{};  // parallel lines apart
        const NT dd = dot(d, d);
        Frac<NT> tp{dot(op, d), dd}, tq{dot(sub(q, o), d), dd};
        if (compare(tp, tq) > 0) std::swap(tp, tq);
        Frac<NT> lo{NT(0), NT(1)};
        if (compare(tp, lo) > 0) lo = tp;
        Frac<NT> hi = tq;
        if (tmax && compare(Frac<NT>{*tmax, NT(1)}, hi) < 0) hi = Frac<NT>{*tmax, NT(1)};
        if (compare(lo, hi) > 0) return Result{};
        return hit(lo);
    }

    static Result run(const double* in) {
        const P o = point_of<Ops>(in), d = point_of<Ops>(in + 3);
        const P a = point_of<Ops>(in + 7), b = point_of<Ops>(in + 10), c = point_of<Ops>(in + 13);
        const std::optional<NT> tmax = std::isinf(in[6]) ? std::nullopt : std::optional<NT>(Ops::of(in[6]));
        const P e1 = sub(b, a), e2 = sub(c, a), s = sub(o, a);
        const P n = cross(e1, e2);
        if (zero(n)) {  // degenerate: the longest edge, or a point
            const P bc = sub(c, b);
            const NT l01 = dot(e1, e1), l02 = dot(e2, e2), l12 = dot(bc, bc);
            if (Ops::sgn(l12 - l01) >= 0 && Ops::sgn(l12 - l02) >= 0) return segment(o, d, tmax, b, c);
            if (Ops::sgn(l02 - l01) >= 0) return segment(o, d, tmax, a, c);
            return segment(o, d, tmax, a, b);
        }
        const NT dn = dot(d, n);
        Result r;
        if (Ops::sgn(dn) != 0) {
            // o + t d = a + u e1 + v e2, by Cramer's rule on [-d, e1, e2].
            const NT det = -dn;
            const int ds = Ops::sgn(det);
            const NT t = dot(s, n), u = -dot(d, cross(s, e2)), v = -dot(d, cross(e1, s));
            const auto negative = [ds](const NT& x) { return Ops::sgn(x) * ds < 0; };
            if (negative(u) || negative(v) || negative(det - u - v) || negative(t)) return r;
            if (tmax && negative(*tmax * det - t)) return r;
            r.answer = 1;
            push(r, Ops::enclose(t, det));
            push(r, Ops::enclose(u, det));
            push(r, Ops::enclose(v, det));
            return r;
        }
        if (Ops::sgn(dot(s, n)) != 0) return r;  // parallel, off the plane
        // In the plane: inside iff ((p_k+1 - p_k) x (x - p_k)) . n >= 0 for
        // each edge, alpha + t beta >= 0 along the ray.
        Frac<NT> lo{NT(0), NT(1)};
        std::optional<Frac<NT>> hi;
        if (tmax) hi = Frac<NT>{*tmax, NT(1)};
        const P* tri[3] = {&a, &b, &c};
        for (int k = 0; k < 3; ++k) {
            const P& p = *tri[k];
            const P edge = sub(*tri[(k + 1) % 3], p);
            const NT alpha = dot(cross(edge, sub(o, p)), n), beta = dot(cross(edge, d), n);
            if (Ops::sgn(beta) == 0) {
                if (Ops::sgn(alpha) < 0) return r;
                continue;
            }
            const Frac<NT> root = frac(-alpha, beta);
            if (Ops::sgn(beta) > 0) {
                if (compare(root, lo) > 0) lo = root;
            } else if (!hi || compare(root, *hi) < 0) {
                hi = root;
            }
            if (hi && compare(lo, *hi) > 0) return r;
        }
        // Barycentrics of x = o + t d, t = lo = num / den: with
        // den x - den a = den s + num d, u = ((den s + num d) x e2) . n / (den nn).
        const NT nn = dot(n, n);
        P ap;
        for (size_t i = 0; i < 3; ++i) ap[i] = lo.den * s[i] + lo.num * d[i];
        r.answer = 1;
        push(r, Ops::enclose(lo.num, lo.den));
        push(r, Ops::enclose(dot(cross(ap, e2), n), lo.den * nn));
        push(r, Ops::enclose(dot(cross(e1, ap), n), lo.den * nn));
        return r;
    }
};

}  // namespace

std::optional<Result> ray_triangle(const double* in) { return two_stage<Result, RayTriangleBody>(in); }

namespace {

/// A rational interval [lo, hi] as the bands compute it (family_common.hpp's
/// Iv), each end held as a number of Ops: on intervals, an enclosure of the
/// end (the band's decisions are the ends' signs, certain where these decide
/// them); on Mpzf, the end itself, exactly.
template <class Ops> struct Bounds {
    using NT = typename Ops::NT;
    NT lo, hi;
    friend Bounds operator+(const Bounds& a, const Bounds& b) { return {a.lo + b.lo, a.hi + b.hi}; }
    friend Bounds operator-(const Bounds& a, const Bounds& b) { return {a.lo - b.hi, a.hi - b.lo}; }
    friend Bounds operator-(const Bounds& a) { return {-a.hi, -a.lo}; }
    friend Bounds operator*(const Bounds& a, const Bounds& b) {
        // The rational ends are the least and greatest of the four products.
        const NT p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
        return {Ops::least(p), Ops::greatest(p)};
    }
    /// Whether the rational interval holds 0 (lo <= 0 <= hi).
    bool holds_zero() const { return Ops::sgn(lo) <= 0 && Ops::sgn(hi) >= 0; }
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

/// ray_triangle's band (check/ray_triangle.cpp) on a number type.
template <class Ops> struct RayTriangleBand {
    static bool run(const double* in, double delta) {
        using NT = typename Ops::NT;
        using B = Bounds<Ops>;
        const NT dl = Ops::of(delta);
        const BPoint<Ops> o = widened<Ops>(in, dl), d = widened<Ops>(in + 3, dl);
        const BPoint<Ops> a = widened<Ops>(in + 7, dl), b = widened<Ops>(in + 10, dl), c = widened<Ops>(in + 13, dl);
        const BPoint<Ops> e1 = b - a, e2 = c - a, s = o - a;
        const B det = -dot(d, cross(e1, e2));
        if (det.holds_zero()) return true;
        const bool neg = Ops::sgn(det.hi) < 0;
        const auto signed_b = [neg](const B& x) { return neg ? -x : x; };
        const B u = signed_b(-dot(d, cross(s, e2))), v = signed_b(-dot(d, cross(e1, s)));
        const B t = signed_b(dot(s, cross(e1, e2)));
        const B abs_det = signed_b(det);
        B conditions[5] = {u, v, abs_det - u - v, t, t};
        int n = 4;
        if (!std::isinf(in[6])) conditions[n++] = B{Ops::of(in[6]) - dl, Ops::of(in[6]) + dl} * abs_det - t;
        bool certain_hit = true;
        for (int i = 0; i < n; ++i) {
            if (Ops::sgn(conditions[i].hi) < 0) return false;  // certainly a miss
            if (Ops::sgn(conditions[i].lo) < 0) certain_hit = false;
        }
        return !certain_hit;
    }
};

}  // namespace

std::optional<bool> ray_triangle_in_band(const double* in, double ku) {
    if (!(ku > 0)) return std::nullopt;
    return two_stage_band<RayTriangleBand>(in, band_delta(in, 16, ku));
}

// --- triangle_measures, polygon_measures ----------------------------------------------

namespace {

template <class Ops> struct TriangleBody {
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;
    static Result run(const double* in) {
        const P a = point_of<Ops>(in), e1 = sub(point_of<Ops>(in + 3), a), e2 = sub(point_of<Ops>(in + 6), a);
        const P ap = sub(point_of<Ops>(in + 9), a);
        const P n = cross(e1, e2);
        Result r;
        if (Ops::sgn(n[0]) == 0 && Ops::sgn(n[1]) == 0 && Ops::sgn(n[2]) == 0) return r;  // degenerate
        r.answer = 1;
        const NT nn = dot(n, n);
        const IA root = Ops::root(nn);
        push(r, root / 2);
        push(r, Ops::enclose(dot(cross(ap, e2), n), nn));
        push(r, Ops::enclose(dot(cross(e1, ap), n), nn));
        const P c1 = cross(e2, n), c2 = cross(n, e1);
        const NT l1 = dot(e1, e1), l2 = dot(e2, e2);
        P rel;  // times 2 nn
        for (size_t i = 0; i < 3; ++i) rel[i] = l1 * c1[i] + l2 * c2[i];
        const NT twice = 2 * nn;
        for (size_t i = 0; i < 3; ++i) push(r, Ops::enclose(a[i] * twice + rel[i], twice));
        push(r, Ops::root(dot(rel, rel)) / Ops::enclose(twice, NT(1)));
        push(r, Ops::enclose(dot(ap, n), NT(1)) / root);
        return r;
    }
};

template <class Ops> struct PolygonBody {
    static constexpr int kN = 5;
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;
    static Result run(const double* in) {
        P p[kN];
        for (int i = 0; i < kN; ++i) p[i] = point_of<Ops>(in + 3 * i);
        P n{NT(0), NT(0), NT(0)};
        for (int i = 0; i < kN; ++i) {
            const P& a = p[i];
            const P& b = p[(i + 1) % kN];
            n[0] = n[0] + (a[1] - b[1]) * (a[2] + b[2]);
            n[1] = n[1] + (a[2] - b[2]) * (a[0] + b[0]);
            n[2] = n[2] + (a[0] - b[0]) * (a[1] + b[1]);
        }
        Result r;
        for (const NT& x : n) push(r, Ops::enclose(x, NT(1)));
        NT sum(0);  // kN times the offset
        for (const P& a : p) sum = sum + dot(a, n);
        push(r, Ops::enclose(sum, NT(kN)));
        if (Ops::sgn(n[0]) == 0 && Ops::sgn(n[1]) == 0 && Ops::sgn(n[2]) == 0) {
            const double nan = std::numeric_limits<double>::quiet_NaN();
            push_pair(r, nan, nan);
            return r;  // no plane: not convex, no distance
        }
        push(r, Ops::enclose(kN * dot(point_of<Ops>(in + 3 * kN), n) - sum, NT(kN)) / Ops::root(dot(n, n)));
        r.answer = 1;
        for (int i = 0; i < kN && r.answer; ++i) {
            const P edge = sub(p[(i + 1) % kN], p[i]);
            for (int j = 0; j < kN; ++j)
                if (j != i && j != (i + 1) % kN && Ops::sgn(dot(cross(edge, sub(p[j], p[i])), n)) < 0) r.answer = 0;
        }
        return r;
    }
};

}  // namespace

std::optional<Result> triangle_measures(const double* in) { return two_stage<Result, TriangleBody>(in); }
std::optional<Result> polygon_measures(const double* in) { return two_stage<Result, PolygonBody>(in); }

namespace {
/// triangle_measures' band for a proper triangle: whether n = (b - a) x
/// (c - a) over the delta-box can vanish (every component's interval holds 0).
template <class Ops> struct TriangleBand {
    static bool run(const double* in, double delta) {
        const typename Ops::NT dl = Ops::of(delta);
        const BPoint<Ops> a = widened<Ops>(in, dl), b = widened<Ops>(in + 3, dl), c = widened<Ops>(in + 6, dl);
        const BPoint<Ops> n = cross(b - a, c - a);
        for (const Bounds<Ops>& x : n)
            if (!x.holds_zero()) return false;
        return true;
    }
};
}  // namespace

std::optional<bool> triangle_measures_in_band(const double* in, int exact_answer, double ku) {
    if (!(ku > 0)) return std::nullopt;
    if (exact_answer == 0) return true;
    return two_stage_band<TriangleBand>(in, band_delta(in, 12, ku));
}

namespace {
/// polygon_measures' band: Newell's normal and the orientations along it,
/// over the delta-box.
template <class Ops> struct PolygonBand {
    static bool run(const double* in, double delta) {
        constexpr int kN = 5;
        using B = Bounds<Ops>;
        const typename Ops::NT dl = Ops::of(delta);
        BPoint<Ops> p[kN];
        for (int i = 0; i < kN; ++i) p[i] = widened<Ops>(in + 3 * i, dl);
        const B zero{Ops::of(0), Ops::of(0)};
        BPoint<Ops> n{zero, zero, zero};
        for (int i = 0; i < kN; ++i) {
            const BPoint<Ops>& a = p[i];
            const BPoint<Ops>& b = p[(i + 1) % kN];
            n[0] = n[0] + (a[1] - b[1]) * (a[2] + b[2]);
            n[1] = n[1] + (a[2] - b[2]) * (a[0] + b[0]);
            n[2] = n[2] + (a[0] - b[0]) * (a[1] + b[1]);
        }
        bool certain_convex = !(n[0].holds_zero() && n[1].holds_zero() && n[2].holds_zero());
        for (int i = 0; i < kN; ++i)
            for (int j = 0; j < kN; ++j) {
                if (j == i || j == (i + 1) % kN) continue;
                const B s = dot(cross(p[(i + 1) % kN] - p[i], p[j] - p[i]), n);
                if (Ops::sgn(s.hi) < 0) return false;
                if (Ops::sgn(s.lo) < 0) certain_convex = false;
            }
        return !certain_convex;
    }
};
}  // namespace

std::optional<bool> polygon_measures_in_band(const double* in, double ku) {
    if (!(ku > 0)) return std::nullopt;
    return two_stage_band<PolygonBand>(in, band_delta(in, 18, ku));
}

// --- The planted wrong oracles ---------------------------------------------------------

namespace wrong {

namespace {
template <template <class> class Body> Result plain(const double* in) { return Body<DoubleOps>::run(in); }
template <bool Segment> struct RayAabbPlain {
    template <class Ops> using Body = typename RayAabbBody<Segment>::template Body<Ops>;
};
}  // namespace

Result ray_triangle(const double* in) { return plain<RayTriangleBody>(in); }
Result ray_aabb(const double* in, bool segment) {
    return segment ? plain<RayAabbPlain<true>::Body>(in) : plain<RayAabbPlain<false>::Body>(in);
}
Result aabb_plane(const double* in) { return plain<AabbPlaneBody>(in); }
Result aabb_plane_overlap(const double* in) { return plain<AabbPlaneOverlapBody>(in); }
Result aabb_aabb(const double* in) {
    // Touching boxes called disjoint: a strict comparison (no arithmetic here
    // for plain double to get wrong).
    Result r = *fast::aabb_aabb(in);
    for (int i = 0; i < 3; ++i)
        if (in[i] == in[9 + i] || in[6 + i] == in[3 + i]) return Result{};
    return r;
}
Result sphere_aabb(const double* in) { return plain<SphereBody>(in); }
Result moving_aabb(const double* in) { return plain<MovingAabbBody>(in); }
Result moving_aabb_plane(const double* in) { return plain<MovingAabbPlaneBody>(in); }
Result transformed_aabb(const double* in) { return plain<TransformedBody>(in); }
Result triangle_measures(const double* in) { return plain<TriangleBody>(in); }
Result polygon_measures(const double* in) { return plain<PolygonBody>(in); }

}  // namespace wrong

}  // namespace isect::ref::fast
