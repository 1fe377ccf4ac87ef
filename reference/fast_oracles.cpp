// The fast exact oracles and bands of every family (fast.hpp), on CGAL's
// Interval_nt. Each function opens one Upward scope: Interval_nt<false>
// needs the rounding mode upward for all its operations, and plain double
// arithmetic inside the scope rounds upward too, so every number computed
// here is an interval, and whatever must round to nearest (the band's delta,
// which the rational bands take as a double) is computed before the scope.
#include "isect/ref/fast.hpp"

#include <CGAL/Interval_nt.h>
#include <algorithm>
#include <cmath>
#include <limits>

namespace isect::ref::fast {

namespace {

using IA = CGAL::Interval_nt_advanced;
using Upward = CGAL::Protect_FPU_rounding<true>;

constexpr int kUnknown = 2;

IA ia(float x) { return IA(double(x)); }

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
bool less(const IA& a, const IA& b) { return sign(a - b) < 0; }
bool less_eq(const IA& a, const IA& b) { return sign(a - b) <= 0; }

using IPoint = std::array<IA, 3>;
IPoint ipoint(const float* p) { return {ia(p[0]), ia(p[1]), ia(p[2])}; }
IPoint operator-(const IPoint& a, const IPoint& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
IA dot(const IPoint& a, const IPoint& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
IPoint cross(const IPoint& a, const IPoint& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

void push(Result& r, const IA& x) {
    r.lo.push_back(x.inf());
    r.hi.push_back(x.sup());
}
void push_exact(Result& r, double x) {
    r.lo.push_back(x);
    r.hi.push_back(x);
}

/// Runs an oracle body in an Upward scope; Undecided becomes nullopt.
template <class T, class F> std::optional<T> decided(F body) {
    Upward upward;
    try {
        return body();
    } catch (const Undecided&) {
        return std::nullopt;
    }
}

/// delta = k 2^-24 M exactly as the rational bands take it (family.cpp's
/// band_delta: the product rounded to nearest double; inf as the largest
/// double). Computed before any Upward scope.
double band_delta(const float* in, size_t n, double k) {
    double m = 0;
    for (size_t i = 0; i < n; ++i)
        if (std::isfinite(in[i])) m = std::max(m, double(std::fabs(in[i])));
    const double delta = k * std::ldexp(m, -24);
    return std::isfinite(delta) ? delta : std::numeric_limits<double>::max();
}

// --- Slabs: a segment or ray o + t d against a box with interval corners --------

/// A parameter t = num / den with den > 0 exact.
struct Frac {
    IA num;
    IA den;
};
int compare(const Frac& a, const Frac& b) { return sign(a.num * b.den - b.num * a.den); }
IA value(const Frac& a) { return a.num / a.den; }

struct SlabResult {
    bool hit = false;
    Frac enter{IA(0), IA(1)}, exit{IA(0), IA(1)};
    bool exit_infinite = false;
    std::array<std::optional<Frac>, 3> near;
};

/// ray_aabb_rational on intervals: box corners lo, hi may be intervals (a
/// Minkowski difference, a grown box), o and d are exact.
SlabResult slabs(const IPoint& o, const float* d, const IPoint& lo, const IPoint& hi, bool segment) {
    SlabResult r;
    for (int i = 0; i < 3; ++i)
        if (less(hi[i], lo[i])) return r;  // an empty box
    Frac t0{IA(0), IA(1)};
    std::optional<Frac> t1;
    if (segment) t1 = Frac{IA(1), IA(1)};
    for (int i = 0; i < 3; ++i) {
        if (d[i] == 0) {
            if (less(o[i], lo[i]) || less(hi[i], o[i])) return r;
            continue;
        }
        // t = (plane - o) / d, with the sign moved into the numerator.
        const bool up = d[i] > 0;
        const IA den = ia(std::fabs(d[i]));
        const Frac tn{up ? lo[i] - o[i] : o[i] - hi[i], den}, tf{up ? hi[i] - o[i] : o[i] - lo[i], den};
        r.near[size_t(i)] = tn;
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

IPoint box_lo(const float* p) { return ipoint(p); }

}  // namespace

// --- ray_aabb, segment_aabb -----------------------------------------------------

std::optional<Result> ray_aabb(const float* in, bool segment) {
    return decided<Result>([&] {
        const SlabResult s = slabs(ipoint(in), in + 3, box_lo(in + 6), box_lo(in + 9), segment);
        Result r;
        r.answer = s.hit ? 1 : 0;
        if (!s.hit) return r;
        const IA enter = value(s.enter);
        push(r, enter);
        if (s.exit_infinite) push_exact(r, std::numeric_limits<double>::infinity());
        else push(r, value(s.exit));
        double normal[3] = {0, 0, 0};
        if (sign(enter) > 0)
            for (int i = 0; i < 3; ++i)
                if (s.near[size_t(i)] && compare(*s.near[size_t(i)], s.enter) == 0) {
                    normal[i] = in[3 + i] > 0 ? -1 : 1;
                    break;
                }
        for (double n : normal) push_exact(r, n);
        return r;
    });
}

std::optional<bool> ray_aabb_in_band(const float* in, bool segment, double k) {
    if (!(k > 0)) return std::nullopt;
    const double delta = band_delta(in, 12, k);
    return decided<bool>([&] {
        const IA dl(delta);
        IA t_bound(1);
        if (!segment) {
            double dmax = 0;
            for (int i = 0; i < 3; ++i) dmax = std::max(dmax, double(std::fabs(in[3 + i])));
            if (less_eq(IA(dmax), dl)) return true;
            double m = 0;
            for (int i = 0; i < 12; ++i) m = std::max(m, double(std::fabs(in[i])));
            t_bound = 2 * (IA(m) + dl) / (IA(dmax) - dl);
        }
        const IA g = dl * (2 + t_bound);
        IPoint glo = box_lo(in + 6), ghi = box_lo(in + 9), slo = glo, shi = ghi;
        for (int i = 0; i < 3; ++i) {
            glo[size_t(i)] -= g;
            ghi[size_t(i)] += g;
            slo[size_t(i)] += g;
            shi[size_t(i)] -= g;
        }
        const IPoint o = ipoint(in);
        return slabs(o, in + 3, glo, ghi, segment).hit != slabs(o, in + 3, slo, shi, segment).hit;
    });
}

// --- moving_aabb -------------------------------------------------------------------

namespace {
/// The Minkowski difference S - M of the stationary and moving boxes.
void minkowski(const float* in, IPoint& lo, IPoint& hi) {
    for (int i = 0; i < 3; ++i) {
        lo[size_t(i)] = ia(in[i]) - ia(in[9 + i]);
        hi[size_t(i)] = ia(in[3 + i]) - ia(in[6 + i]);
    }
}
}  // namespace

std::optional<Result> moving_aabb(const float* in) {
    return decided<Result>([&] {
        IPoint lo, hi;
        minkowski(in, lo, hi);
        const SlabResult s = slabs({IA(0), IA(0), IA(0)}, in + 12, lo, hi, true);
        Result r;
        r.answer = s.hit ? 1 : 0;
        if (s.hit) push(r, value(s.enter));
        return r;
    });
}

std::optional<bool> moving_aabb_in_band(const float* in, double k) {
    if (!(k > 0)) return std::nullopt;
    const double delta = band_delta(in, 15, k);
    return decided<bool>([&] {
        const IA g = 3 * IA(delta);
        IPoint lo, hi;
        minkowski(in, lo, hi);
        IPoint glo = lo, ghi = hi, slo = lo, shi = hi;
        for (int i = 0; i < 3; ++i) {
            glo[size_t(i)] -= g;
            ghi[size_t(i)] += g;
            slo[size_t(i)] += g;
            shi[size_t(i)] -= g;
        }
        const IPoint zero{IA(0), IA(0), IA(0)};
        return slabs(zero, in + 12, glo, ghi, true).hit != slabs(zero, in + 12, slo, shi, true).hit;
    });
}

// --- aabb_plane, aabb_plane_overlap, moving_aabb_plane ------------------------------

namespace {
/// Least and greatest n . x over the box, minus d.
void margins(const float* box, const float* n, float d, IA& lo, IA& hi) {
    lo = hi = -ia(d);
    for (int i = 0; i < 3; ++i) {
        const IA a = ia(n[i]) * ia(box[i]), b = ia(n[i]) * ia(box[3 + i]);  // exact: float products
        const bool a_low = less(a, b);
        lo += a_low ? a : b;
        hi += a_low ? b : a;
    }
}

/// The margins' Lipschitz bound: delta (1 + sum (|n_i| + max(|lo_i|, |hi_i|))) + 3 delta^2.
IA margin_bound(const float* box, const float* n, const IA& delta) {
    IA l = delta + 3 * delta * delta;
    for (int i = 0; i < 3; ++i)
        l += (IA(std::fabs(double(n[i]))) + IA(std::max(std::fabs(double(box[i])), std::fabs(double(box[3 + i]))))) * delta;
    return l;
}
}  // namespace

std::optional<Result> aabb_plane(const float* in) {
    return decided<Result>([&] {
        IA lo, hi;
        margins(in, in + 6, in[9], lo, hi);
        Result r;
        r.answer = sign(lo) >= 0 ? 2 : sign(hi) <= 0 ? 0 : 1;
        return r;
    });
}

std::optional<Result> aabb_plane_overlap(const float* in) {
    return decided<Result>([&] {
        IA lo, hi;
        margins(in, in + 6, in[9], lo, hi);
        Result r;
        r.answer = sign(lo) <= 0 && sign(hi) >= 0 ? 1 : 0;
        return r;
    });
}

std::optional<bool> aabb_plane_in_band(const float* in, double k) {
    if (!(k > 0)) return std::nullopt;
    const double delta = band_delta(in, 10, k);
    return decided<bool>([&] {
        IA lo, hi;
        margins(in, in + 6, in[9], lo, hi);
        const IA l = margin_bound(in, in + 6, IA(delta));
        return less_eq(abs(lo), l) || less_eq(abs(hi), l);
    });
}

std::optional<Result> moving_aabb_plane(const float* in) {
    return decided<Result>([&] {
        IA a, b;
        margins(in, in + 6, in[9], a, b);
        const IA s = dot(ipoint(in + 6), ipoint(in + 10));
        Result r;
        r.answer = 1;
        if (sign(a) <= 0 && sign(b) >= 0) push_exact(r, 0);
        else if (sign(a) > 0 && sign(s) < 0) push(r, -a / s);
        else if (sign(b) < 0 && sign(s) > 0) push(r, -b / s);
        else r.answer = 0;
        return r;
    });
}

std::optional<bool> moving_aabb_plane_in_band(const float* in, double k) {
    if (!(k > 0)) return std::nullopt;
    const double delta = band_delta(in, 13, k);
    return decided<bool>([&] {
        const IA dl(delta);
        IA lo, hi;
        margins(in, in + 6, in[9], lo, hi);
        const IA l = margin_bound(in, in + 6, dl);
        IA ls = 3 * dl * dl;
        for (int i = 0; i < 3; ++i) ls += (IA(std::fabs(double(in[6 + i]))) + IA(std::fabs(double(in[10 + i])))) * dl;
        const IA s = dot(ipoint(in + 6), ipoint(in + 10));
        return less_eq(abs(lo), l) || less_eq(abs(hi), l) || less_eq(abs(s), ls);
    });
}

// --- aabb_aabb ---------------------------------------------------------------------

std::optional<Result> aabb_aabb(const float* in) {
    // Comparisons and min / max of floats: exact with no intervals at all.
    Result r;
    for (int i = 0; i < 3; ++i)
        if (in[i] > in[9 + i] || in[6 + i] > in[3 + i]) return r;
    r.answer = 1;
    for (int i = 0; i < 3; ++i) push_exact(r, std::max(in[i], in[6 + i]));
    for (int i = 0; i < 3; ++i) push_exact(r, std::min(in[3 + i], in[9 + i]));
    return r;
}

std::optional<bool> aabb_aabb_in_band(const float* in, int exact_answer, double k) {
    if (!(k > 0)) return std::nullopt;
    const double delta = band_delta(in, 12, k);
    return decided<bool>([&] {
        const IA two_delta = 2 * IA(delta);
        bool overlap_flips = false, disjoint_flips = true;
        for (int i = 0; i < 3; ++i)
            for (const IA& diff : {ia(in[9 + i]) - ia(in[i]), ia(in[3 + i]) - ia(in[6 + i])}) {
                if (less(diff, two_delta)) overlap_flips = true;
                if (sign(diff) < 0 && less(diff, -two_delta)) disjoint_flips = false;
            }
        return exact_answer == 1 ? overlap_flips : disjoint_flips;
    });
}

// --- sphere_aabb -------------------------------------------------------------------

namespace {
/// The squared distance from the centre to the box; the nearest point and
/// containment are exact (float comparisons).
IA sphere_dist2(const float* in, float closest[3], bool& contains) {
    IA d2(0);
    contains = true;
    for (int i = 0; i < 3; ++i) {
        const float c = in[6 + i];
        closest[i] = c < in[i] ? in[i] : (c > in[3 + i] ? in[3 + i] : c);
        if (closest[i] != c) contains = false;
        const IA d = ia(c) - ia(closest[i]);
        d2 += d * d;
    }
    return d2;
}
}  // namespace

std::optional<Result> sphere_aabb(const float* in) {
    return decided<Result>([&] {
        float closest[3];
        bool contains = false;
        const IA d2 = sphere_dist2(in, closest, contains);
        const IA r = ia(in[9]);
        Result out;
        out.answer = less_eq(d2, r * r) ? 1 : 0;
        for (float c : closest) push_exact(out, c);
        push_exact(out, contains ? 1 : 0);
        return out;
    });
}

std::optional<bool> sphere_aabb_in_band(const float* in, double k) {
    if (!(k > 0)) return std::nullopt;
    const double delta = band_delta(in, 10, k);
    return decided<bool>([&] {
        const IA w = IA(4.5) * IA(delta);
        const IA r = ia(in[9]);
        float closest[3];
        bool contains = false;
        const IA d2 = sphere_dist2(in, closest, contains);
        const IA lo = less(w, r) ? r - w : IA(0);
        return less_eq(lo * lo, d2) && less_eq(d2, (r + w) * (r + w));
    });
}

// --- transformed_aabb ------------------------------------------------------------

std::optional<Result> transformed_aabb(const float* in) {
    return decided<Result>([&] {
        Result r;
        IA lo[3], hi[3];
        for (int i = 0; i < 3; ++i) {
            lo[i] = hi[i] = ia(in[15 + i]);
            for (int j = 0; j < 3; ++j) {
                const IA p = ia(in[6 + 3 * i + j]) * ia(in[j]), q = ia(in[6 + 3 * i + j]) * ia(in[3 + j]);  // exact
                const bool p_low = less(p, q);
                lo[i] += p_low ? p : q;
                hi[i] += p_low ? q : p;
            }
        }
        for (const IA& x : lo) push(r, x);
        for (const IA& x : hi) push(r, x);
        return r;
    });
}

// --- ray_triangle ---------------------------------------------------------------------

std::optional<Result> ray_triangle(const float* in) {
    return decided<Result>([&]() -> Result {
        const IPoint o = ipoint(in), d = ipoint(in + 3), a = ipoint(in + 7);
        const IPoint e1 = ipoint(in + 10) - a, e2 = ipoint(in + 13) - a, s = o - a;
        const IPoint n = cross(e1, e2);
        // A degenerate triangle and a ray in its plane: the rational reference
        // clips segments and edges; leave those to it.
        if (sign(n[0]) == 0 && sign(n[1]) == 0 && sign(n[2]) == 0) throw Undecided{};
        const IA dn = dot(d, n);
        Result r;
        if (sign(dn) == 0) {
            if (sign(dot(s, n)) != 0) return r;  // parallel, off the plane
            throw Undecided{};
        }
        // Cramer's rule on [-d, e1, e2], signs taken against det.
        const IA det = -dn;
        const int ds = sign(det);
        const IA t = dot(s, n), u = -dot(d, cross(s, e2)), v = -dot(d, cross(e1, s));
        const auto negative = [ds](const IA& x) { return sign(x) * ds < 0; };
        if (negative(u) || negative(v) || negative(det - u - v) || negative(t)) return r;
        if (!std::isinf(in[6]) && negative(ia(in[6]) * det - t)) return r;
        r.answer = 1;
        push(r, t / det);
        push(r, u / det);
        push(r, v / det);
        return r;
    });
}

namespace {

/// A rational interval [lo, hi] as the bands compute it (family_common.hpp's
/// Iv), each endpoint held as an Interval_nt enclosing it: the band's
/// decisions are the endpoints' signs, certain where these decide them.
struct Bounds {
    IA lo, hi;
};
Bounds operator+(const Bounds& a, const Bounds& b) { return {a.lo + b.lo, a.hi + b.hi}; }
Bounds operator-(const Bounds& a, const Bounds& b) { return {a.lo - b.hi, a.hi - b.lo}; }
Bounds operator-(const Bounds& a) { return {-a.hi, -a.lo}; }
Bounds operator*(const Bounds& a, const Bounds& b) {
    // The rational min is one of the four products: it lies between the
    // least lower end and the least upper end of their enclosures.
    const IA p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
    double lo_inf = p[0].inf(), lo_sup = p[0].sup(), hi_inf = p[0].inf(), hi_sup = p[0].sup();
    for (const IA& x : p) {
        lo_inf = std::min(lo_inf, x.inf());
        lo_sup = std::min(lo_sup, x.sup());
        hi_inf = std::max(hi_inf, x.inf());
        hi_sup = std::max(hi_sup, x.sup());
    }
    return {IA(lo_inf, lo_sup), IA(hi_inf, hi_sup)};
}
using BPoint = std::array<Bounds, 3>;
BPoint operator-(const BPoint& a, const BPoint& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Bounds dot(const BPoint& a, const BPoint& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
BPoint cross(const BPoint& a, const BPoint& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
BPoint widened(const float* p, const IA& delta) {
    BPoint r;
    for (int i = 0; i < 3; ++i) r[size_t(i)] = {ia(p[i]) - delta, ia(p[i]) + delta};
    return r;
}
/// Whether the rational interval holds 0 (lo <= 0 <= hi).
bool holds_zero(const Bounds& x) { return sign(x.lo) <= 0 && sign(x.hi) >= 0; }

}  // namespace

std::optional<bool> ray_triangle_in_band(const float* in, double k) {
    if (!(k > 0)) return std::nullopt;
    const double delta = band_delta(in, 16, k);
    return decided<bool>([&] {
        const IA dl(delta);
        const BPoint o = widened(in, dl), d = widened(in + 3, dl);
        const BPoint a = widened(in + 7, dl), b = widened(in + 10, dl), c = widened(in + 13, dl);
        const BPoint e1 = b - a, e2 = c - a, s = o - a;
        const Bounds det = -dot(d, cross(e1, e2));
        if (holds_zero(det)) return true;
        const bool neg = sign(det.hi) < 0;
        const auto signed_b = [neg](const Bounds& x) { return neg ? -x : x; };
        const Bounds u = signed_b(-dot(d, cross(s, e2))), v = signed_b(-dot(d, cross(e1, s)));
        const Bounds t = signed_b(dot(s, cross(e1, e2)));
        const Bounds abs_det = signed_b(det);
        std::vector<Bounds> conditions = {u, v, abs_det - u - v, t};
        if (!std::isinf(in[6])) conditions.push_back(Bounds{ia(in[6]) - dl, ia(in[6]) + dl} * abs_det - t);
        bool certain_hit = true;
        for (const Bounds& x : conditions) {
            if (sign(x.hi) < 0) return false;  // certainly a miss
            if (sign(x.lo) < 0) certain_hit = false;
        }
        return !certain_hit;
    });
}

// --- triangle_measures, polygon_measures ----------------------------------------------

std::optional<Result> triangle_measures(const float* in) {
    return decided<Result>([&] {
        const IPoint a = ipoint(in), e1 = ipoint(in + 3) - a, e2 = ipoint(in + 6) - a, ap = ipoint(in + 9) - a;
        const IPoint n = cross(e1, e2);
        Result r;
        if (sign(n[0]) == 0 && sign(n[1]) == 0 && sign(n[2]) == 0) return r;  // degenerate
        r.answer = 1;
        const IA nn = dot(n, n);
        push(r, CGAL::sqrt(nn) / 2);
        push(r, dot(cross(ap, e2), n) / nn);
        push(r, dot(cross(e1, ap), n) / nn);
        const IPoint c1 = cross(e2, n), c2 = cross(n, e1);
        const IA l1 = dot(e1, e1), l2 = dot(e2, e2);
        IPoint rel;
        for (int i = 0; i < 3; ++i) rel[size_t(i)] = (l1 * c1[size_t(i)] + l2 * c2[size_t(i)]) / (2 * nn);
        for (int i = 0; i < 3; ++i) push(r, a[size_t(i)] + rel[size_t(i)]);
        push(r, CGAL::sqrt(dot(rel, rel)));
        push(r, dot(ap, n) / CGAL::sqrt(nn));
        return r;
    });
}

std::optional<bool> triangle_measures_in_band(const float* in, int exact_answer, double k) {
    if (!(k > 0)) return std::nullopt;
    if (exact_answer == 0) return true;
    const double delta = band_delta(in, 12, k);
    return decided<bool>([&] {
        const IA dl(delta);
        const BPoint a = widened(in, dl), b = widened(in + 3, dl), c = widened(in + 6, dl);
        const BPoint n = cross(b - a, c - a);
        for (const Bounds& x : n)
            if (sign(x.lo) > 0 || sign(x.hi) < 0) return false;
        for (const Bounds& x : n)
            if (!holds_zero(x)) return false;
        return true;
    });
}

std::optional<Result> polygon_measures(const float* in) {
    constexpr int kN = 5;
    return decided<Result>([&] {
        IPoint p[kN];
        for (int i = 0; i < kN; ++i) p[i] = ipoint(in + 3 * i);
        IPoint n{IA(0), IA(0), IA(0)};
        for (int i = 0; i < kN; ++i) {
            const IPoint& a = p[i];
            const IPoint& b = p[(i + 1) % kN];
            n[0] += (a[1] - b[1]) * (a[2] + b[2]);
            n[1] += (a[2] - b[2]) * (a[0] + b[0]);
            n[2] += (a[0] - b[0]) * (a[1] + b[1]);
        }
        Result r;
        for (const IA& x : n) push(r, x);
        IA offset(0);
        for (const IPoint& a : p) offset += dot(a, n);
        offset /= kN;
        push(r, offset);
        if (sign(n[0]) == 0 && sign(n[1]) == 0 && sign(n[2]) == 0) {
            const double nan = std::numeric_limits<double>::quiet_NaN();
            r.lo.push_back(nan);
            r.hi.push_back(nan);
            return r;  // no plane: not convex, no distance
        }
        const IA nn = dot(n, n);
        push(r, (dot(ipoint(in + 3 * kN), n) - offset) / CGAL::sqrt(nn));
        r.answer = 1;
        for (int i = 0; i < kN && r.answer; ++i) {
            const IPoint edge = p[(i + 1) % kN] - p[i];
            for (int j = 0; j < kN; ++j)
                if (j != i && j != (i + 1) % kN && sign(dot(cross(edge, p[j] - p[i]), n)) < 0) r.answer = 0;
        }
        return r;
    });
}

std::optional<bool> polygon_measures_in_band(const float* in, double k) {
    constexpr int kN = 5;
    if (!(k > 0)) return std::nullopt;
    const double delta = band_delta(in, 18, k);
    return decided<bool>([&] {
        const IA dl(delta);
        BPoint p[kN];
        for (int i = 0; i < kN; ++i) p[i] = widened(in + 3 * i, dl);
        BPoint n{Bounds{IA(0), IA(0)}, Bounds{IA(0), IA(0)}, Bounds{IA(0), IA(0)}};
        for (int i = 0; i < kN; ++i) {
            const BPoint& a = p[i];
            const BPoint& b = p[(i + 1) % kN];
            n[0] = n[0] + (a[1] - b[1]) * (a[2] + b[2]);
            n[1] = n[1] + (a[2] - b[2]) * (a[0] + b[0]);
            n[2] = n[2] + (a[0] - b[0]) * (a[1] + b[1]);
        }
        bool certain_convex = !(holds_zero(n[0]) && holds_zero(n[1]) && holds_zero(n[2]));
        for (int i = 0; i < kN; ++i)
            for (int j = 0; j < kN; ++j) {
                if (j == i || j == (i + 1) % kN) continue;
                const Bounds s = dot(cross(p[(i + 1) % kN] - p[i], p[j] - p[i]), n);
                if (sign(s.hi) < 0) return false;
                if (sign(s.lo) < 0) certain_convex = false;
            }
        return !certain_convex;
    });
}

}  // namespace isect::ref::fast
