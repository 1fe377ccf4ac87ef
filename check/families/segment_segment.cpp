// The segment_segment family: closest points of two closed segments (a
// segment whose ends are equal is a point). Answer: meet (the least squared
// distance is 0) or apart; with either, the numbers dist2, s, t, c1, c2.
// Where the minimiser is not unique, any pair reaching the minimum is right:
// s and t are judged by the distance they reach, not against one pair.
#include <algorithm>
#include <limits>
#include <tuple>

#include "family_common.hpp"
#include "check/model/plugin_call.hpp"
#include "check/model/generate.hpp"
#include "isect/ref/segment_segment.hpp"
#include "isect/segment_segment.hpp"

namespace isect::check {

namespace {

using namespace detail;
using ref::Rational;

const Family& self();

// The input, by key (isect/ref/segment_segment.hpp): offsets derived, never written.
constexpr auto& kInput = ref::segment_segment_input;
constexpr size_t kP1 = kInput.at("p1"), kQ1 = kInput.at("q1"), kP2 = kInput.at("p2"), kQ2 = kInput.at("q2");

const char* const kOutputs[] = {"dist2", "s", "t", "c1.x", "c1.y", "c1.z", "c2.x", "c2.y", "c2.z"};

struct ExactInput {
    ref::Point p1, q1, p2, q2;
    explicit ExactInput(const double* in)
        : p1(ref::exact(vec_at(in + kP1))), q1(ref::exact(vec_at(in + kQ1))), p2(ref::exact(vec_at(in + kP2))),
          q2(ref::exact(vec_at(in + kQ2))) {}
};

ref::SegmentSegmentExact rational(const double* in) { return ref::segment_segment_rational(in); }

/// The rational reference's answer and numbers.
Truth truth_of(const ExactInput& x, const ref::SegmentSegmentExact& q) {
    Truth t;
    t.answer = q.dist2 == 0 ? 1 : 0;
    t.values = {ref::to_double(q.dist2), ref::to_double(q.s), ref::to_double(q.t)};
    for (size_t i = 0; i < 3; ++i) t.values.push_back(ref::to_double(x.p1[i] + q.s * (x.q1[i] - x.p1[i])));
    for (size_t i = 0; i < 3; ++i) t.values.push_back(ref::to_double(x.p2[i] + q.t * (x.q2[i] - x.p2[i])));
    return t;
}

Truth truth(const double* in) {
    const ExactInput x(in);
    const ref::SegmentSegmentExact q = ref::segment_segment_rational(in);
    const Rational g = ref::segment_segment_cgal(x.p1, x.q1, x.p2, x.q2);
    if (q.dist2 != g)
        throw ReferenceMismatch("segment_segment references disagree: rational says dist2 = " + q.dist2.str() + ", cgal says " +
                                g.str());
    return truth_of(x, q);
}

/// The largest input magnitude.
double magnitude(const double* in) { return largest_magnitude(in, kInput.size()); }

/// Scales. Moving every input x by u |x| <= u M moves every point of either
/// segment by at most sqrt(3) u M, the distance by 2 sqrt(3) u M and its
/// square by 4 sqrt(3) u M dist + 12 (u M)^2: S = 7 M dist + 12 u M^2 +
/// dist2 (the last for the rounding of dist2 itself). dist2 and the squared
/// distance the reported s, t reach are both held to it: any minimiser is
/// right, so s and t are judged by what they reach (D(s, t) - dist2, which
/// is never negative for s, t in [0, 1]; outside [0, 1] they are wrong).
/// c1 is held to p1 + s (q1 - p1) for the reported s, componentwise within
/// |p1_i| + |q1_i| (its rounding from p1, q1 and s), c2 alike.
/// A kernel may give the closest points without their parameters (FCL's
/// segPoints) or the parameters without the points: where only one of s and
/// c1 (t and c2) is given, the other is what it implies, not the exact
/// answer's (which is one minimiser of many where the segments are
/// parallel). c1 from s; s from c1 by the projection onto the segment that
/// weighs each coordinate by its own scale (1 / (|p_i| + |q_i|)^2), the one
/// the check below measures c1 in: a plain projection would carry the
/// rounding of a large coordinate into a small one (FCL's point
/// (1.9984375, 1, 0.003125) rounded to float moved its z by 40 units).
Answer implied(const double* in, const Answer& got) {
    Answer a = got;
    const auto bit = [&](size_t i) { return (got.unprovided >> i & 1) != 0; };
    for (const auto& [param, point, p, q] : {std::tuple{size_t(1), size_t(3), kP1, kQ1}, std::tuple{size_t(2), size_t(6), kP2, kQ2}}) {
        const bool point_given = !bit(point) && !bit(point + 1) && !bit(point + 2);
        if (bit(param) && point_given) {
            long double num = 0, den = 0;
            for (size_t i = 0; i < 3; ++i) {
                const long double d = (long double)in[q + i] - in[p + i], scale = std::fabs(in[p + i]) + std::fabs(in[q + i]);
                if (scale == 0) continue;
                num += ((long double)got.values[point + i] - in[p + i]) * d / (scale * scale);
                den += d * d / (scale * scale);
            }
            a.values[param] = den > 0 ? double(std::clamp(num / den, 0.0L, 1.0L)) : 0.0;
        } else if (!bit(param) && !point_given) {
            for (size_t i = 0; i < 3; ++i)
                a.values[point + i] = double(in[p + i] + (long double)got.values[param] * ((long double)in[q + i] - in[p + i]));
        }
    }
    return a;
}

ValueError value_error(const double* in, const Truth& truth, const Answer& given) {
    ValueError e;
    const Answer got = implied(in, given);
    const double u = unit_roundoff(), m = magnitude(in), d2 = truth.values[0], dist = std::sqrt(d2);
    const double scale = 7 * m * dist + 12 * u * m * m + d2;
    worst(e, units(got.values[0], d2, scale), "dist2");
    const double s = got.values[1], t = got.values[2];
    const double inf = std::numeric_limits<double>::infinity();
    if (!(s >= 0 && s <= 1)) worst(e, inf, "s");
    if (!(t >= 0 && t <= 1)) worst(e, inf, "t");
    if (e.e == inf && (e.output == std::string_view("s") || e.output == std::string_view("t"))) return e;
    long double reach = 0;
    for (size_t i = 0; i < 3; ++i) {
        const long double p1 = in[kP1 + i], q1 = in[kQ1 + i], p2 = in[kP2 + i], q2 = in[kQ2 + i];
        const long double c1 = p1 + (long double)s * (q1 - p1), c2 = p2 + (long double)t * (q2 - p2);
        worst(e, units(got.values[3 + i], double(c1), std::fabs(in[kP1 + i]) + std::fabs(in[kQ1 + i])), kOutputs[3 + i]);
        worst(e, units(got.values[6 + i], double(c2), std::fabs(in[kP2 + i]) + std::fabs(in[kQ2 + i])), kOutputs[6 + i]);
        reach += (c1 - c2) * (c1 - c2);
    }
    // What s, t reach above the least: D(s, t) >= dist2 exactly, so only an
    // excess counts (long double keeps the evaluation's own error far below
    // u S in float and in double).
    const double excess = std::max(0.0, double(reach) - d2);
    if (excess > 0) worst(e, excess / std::max(scale, least_normal()) / u, "s, t (the distance they reach)");
    return e;
}

/// What decides the minimum: the shape of the pair as the body's signs
/// found it, and where on the square its least is.
std::string deciding(const double* in, const Truth& truth, int) {
    const ref::SegmentSegmentExact q = rational(in);
    const std::string meet = truth.answer == 1 ? ", meeting" : "";
    using Shape = isect::detail::SegmentShape;
    switch (Shape(q.shape)) {
        case Shape::both_points: return "both segments are points" + meet;
        case Shape::one_point: return "one segment is a point" + meet;
        case Shape::parallel: return "parallel segments" + meet;
        case Shape::skew: break;
    }
    const bool inner = q.s > 0 && q.s < 1 && q.t > 0 && q.t < 1;
    return std::string(inner ? "closest between the interiors" : "closest at an end of a segment") + meet;
}

/// The shorter nonzero segment's extent (max norm), else the least nonzero input.
double feature(const double* in) {
    double m = 0;
    for (size_t k : {kP1, kP2}) {
        double len = 0;
        for (size_t i = 0; i < 3; ++i) len = std::max(len, std::fabs(in[k + 3 + i] - in[k + i]));
        if (len > 0 && (m == 0 || len < m)) m = len;
    }
    return m;
}

// --- Kernels and planted bugs --------------------------------------------------------

template <class T> using V = std::array<T, 3>;
template <class T> using ClosestFn = SegmentClosest (*)(const V<T>&, const V<T>&, const V<T>&, const V<T>&);

template <class T>
FamilyKernel kernel(const std::string& name, const std::string& contract, double error_e, ClosestFn<T> fn,
                    const char* domain = nullptr) {
    FamilyKernel k{name, *Contract::parse(contract), error_e, [fn](const double* in) {
                       const SegmentClosest c = fn(vec_as<T>(in + kP1), vec_as<T>(in + kQ1), vec_as<T>(in + kP2), vec_as<T>(in + kQ2));
                       return Answer{c.meet() ? 1 : 0, {c.dist2, c.s, c.t, c.c1[0], c.c1[1], c.c1[2], c.c2[0], c.c2[1], c.c2[2]}};
                   }};
    k.precision = precision_of<T>();
    k.domain = Domain::declared(domain);
    return k;
}

/// Ericson's code in arithmetic R on input of T, with EPSILON eps.
template <class R, class T> SegmentClosest ericson_in(const V<T>& p1, const V<T>& q1, const V<T>& p2, const V<T>& q2, R eps = R(0)) {
    const auto w = [](const V<T>& p) { return V<R>{R(p[0]), R(p[1]), R(p[2])}; };
    return closest_segment_segment_ericson<R>(w(p1), w(q1), w(p2), w(q2), eps);
}
/// The built-in: Ericson's code in double on float input.
SegmentClosest ericson(const Vec3f& p1, const Vec3f& q1, const Vec3f& p2, const Vec3f& q2) {
    return ericson_in<double>(p1, q1, p2, q2);
}
template <class T> SegmentClosest exact(const V<T>& p1, const V<T>& q1, const V<T>& p2, const V<T>& q2) {
    return closest_segment_segment_exact<T>(p1, q1, p2, q2);
}

/// Planted bug: Ericson's code in the input's own arithmetic. denom = a e -
/// b^2 = a e sin^2(theta) is rounding noise once theta is below about
/// sqrt(u): s is then any value in [0, 1] (or the parallel branch's 0), and
/// for nearly parallel segments that meet the distance comes back near
/// sqrt(u) M instead of 0 (the case Eberly's "Robust Computation of Distance
/// Between Line Segments" was written for).
template <class T> SegmentClosest ericson_in_own(const V<T>& p1, const V<T>& q1, const V<T>& p2, const V<T>& q2) {
    return ericson_in<T>(p1, q1, p2, q2);
}

/// Planted bug: the same code in double with the EPSILON = 1e-6 it is
/// commonly pasted with: a segment shorter than 1e-3 answers for its first
/// end, at any scale.
template <class T> SegmentClosest ericson_epsilon(const V<T>& p1, const V<T>& q1, const V<T>& p2, const V<T>& q2) {
    return ericson_in<double>(p1, q1, p2, q2, 1e-6);
}

/// Ericson's coefficients in double, for the planted bugs written beside
/// the built-in: d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2, a = d1 . d1,
/// e = d2 . d2, b = d1 . d2, c = d1 . r, f = d2 . r, denom = a e - b^2.
struct Coefficients {
    double a, e, b, c, f, denom;
    Coefficients(const Vec3f& p1, const Vec3f& q1, const Vec3f& p2, const Vec3f& q2) {
        const Vec3d d1 = sub(q1, p1), d2 = sub(q2, p2), r = sub(p1, p2);
        a = dot(d1, d1), e = dot(d2, d2), b = dot(d1, d2), c = dot(d1, r), f = dot(d2, r);
        denom = a * e - b * b;
    }
};

/// The pair at s, t of float segments, in double.
SegmentClosest pair_at(const Vec3f& p1, const Vec3f& q1, const Vec3f& p2, const Vec3f& q2, double s, double t) {
    using isect::detail::to_vec3d;
    return isect::detail::segment_pair_at<double>(to_vec3d(p1), to_vec3d(q1), to_vec3d(p2), to_vec3d(q2), s, t);
}

/// Planted bug: t clamped without recomputing s for it (ports that drop the
/// second clamp of Ericson's code): s stays the unconstrained value, which
/// is not the least for the clamped t. In double, as the built-in.
SegmentClosest s_not_recomputed(const Vec3f& p1, const Vec3f& q1, const Vec3f& p2, const Vec3f& q2) {
    const auto [a, e, b, c, f, denom] = Coefficients(p1, q1, p2, q2);
    if (a == 0 || e == 0) return ericson(p1, q1, p2, q2);
    const double s = denom != 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
    const double t = std::clamp((b * s + f) / e, 0.0, 1.0);
    return pair_at(p1, q1, p2, q2, s, t);
}

/// Planted bug: the closest points of the two lines, unclamped (a line
/// routine used for segments): s, t leave [0, 1]. In double.
SegmentClosest lines_not_segments(const Vec3f& p1, const Vec3f& q1, const Vec3f& p2, const Vec3f& q2) {
    const auto [a, e, b, c, f, denom] = Coefficients(p1, q1, p2, q2);
    if (a == 0 || e == 0 || denom == 0) return ericson(p1, q1, p2, q2);
    const double s = (b * f - c * e) / denom, t = (b * s + f) / e;
    return pair_at(p1, q1, p2, q2, s, t);
}

/// Planted bug: godotengine/godot#55384, "get_closest_points_between_segments()
/// returns NaN when segments are parallel or either is a point": the
/// unconstrained solution divided by denom = a e - b^2 with no guard for 0,
/// so parallel segments (and points) give 0 / 0 and NaN everywhere after.
/// In double, as the built-in.
SegmentClosest parallel_nan(const Vec3f& p1, const Vec3f& q1, const Vec3f& p2, const Vec3f& q2) {
    const auto [a, e, b, c, f, denom] = Coefficients(p1, q1, p2, q2);
    const double s = std::clamp((b * f - c * e) / denom, 0.0, 1.0);
    double t = (b * s + f) / e;
    double s2 = s;
    if (t < 0) {
        t = 0;
        s2 = std::clamp(-c / a, 0.0, 1.0);
    } else if (t > 1) {
        t = 1;
        s2 = std::clamp((b - c) / a, 0.0, 1.0);
    }
    return pair_at(p1, q1, p2, q2, s2, t);
}

// --- Constructions ------------------------------------------------------------------

Inputs layout(const Vec3f& p1, const Vec3f& q1, const Vec3f& p2, const Vec3f& q2) {
    Inputs in = gen::fresh();
    in.reserve(kInput.size());
    for (const Vec3f* p : {&p1, &q1, &p2, &q2}) gen::put(in, *p);
    return in;
}

Vec3f along(const Vec3f& p, const Vec3f& d, float s) { return {p[0] + s * d[0], p[1] + s * d[1], p[2] + s * d[2]}; }

std::vector<Mix> mixes() {
    return {
        {"grid", 2, [](Source& s) {
             return layout(gen::grid_point(s, 3), gen::grid_point(s, 3), gen::grid_point(s, 3), gen::grid_point(s, 3));
         }},
        {"crossing", 2, [](Source& s) {  // two segments through one grid point, at grid parameters
             const Vec3f x = gen::grid_point(s, 3), d1 = gen::grid_point(s, 2), d2 = gen::grid_point(s, 2);
             const float a = s.pick(0.5f, 0.25f, 1.0f, 0.0f), b = s.pick(0.5f, 0.75f, 1.0f, 0.0f);
             return layout(along(x, d1, -a), along(x, d1, 1 - a), along(x, d2, -b), along(x, d2, 1 - b));
         }},
        {"parallel", 2, [](Source& s) {  // one direction, offset: overlapping, touching end to end, or apart along it
             const Vec3f p = gen::grid_point(s, 3), d = gen::grid_point(s, 2);
             const Vec3f off = s.coin() ? Vec3f{0, 0, 0} : gen::grid_point(s, 1);  // 0: collinear
             const float from = s.pick(0.5f, 1.0f, 0.0f, 2.0f, -1.0f), len = s.pick(1.0f, 0.5f, 2.0f, -1.0f);
             const Vec3f p2 = along(along(p, d, from), off, 1.0f);
             return layout(p, along(p, d, 1), p2, along(p2, d, len));
         }},
        {"near_parallel", 2, [](Source& s) {  // directions an ulp or a few apart: denom is rounding noise
             const int e = s.range(-4, 5);
             const Vec3f p = gen::uniform_point(s, e), d = gen::uniform_point(s, e);
             Vec3f d2 = d;
             for (float& x : d2)
                 for (int k = s.range(0, 3); k > 0; --k) x = std::nextafter(x, s.coin() ? INFINITY : -INFINITY);
             const Vec3f off = s.coin() ? Vec3f{0, 0, 0} : gen::uniform_point(s, e - s.range(0, 30));
             const Vec3f p2 = along(along(p, d, s.pick(0.5f, 0.25f, -0.5f, 1.5f)), off, 1.0f);
             return layout(p, along(p, d, 1), p2, along(p2, d2, s.pick(1.0f, -1.0f, 0.5f)));
         }},
        {"point", 1, [](Source& s) {  // a segment whose ends are equal: on the other, at an end, or beside
             const Vec3f p = gen::grid_point(s, 3), d = gen::grid_point(s, 2);
             Vec3f x = along(p, d, s.pick(0.5f, 0.0f, 1.0f, 2.0f, -0.5f));
             if (s.coin()) x = along(x, gen::grid_point(s, 1), 1.0f);
             const Vec3f y = s.coin() ? x : gen::grid_point(s, 3);
             return s.coin() ? layout(p, along(p, d, 1), x, x) : layout(x, x, y, y);
         }},
        {"short", 2, [](Source& s) {  // one segment far shorter than the scale: an absolute EPSILON's prey
             const Vec3f p = gen::grid_point(s, 3), d = gen::grid_point(s, 2);
             const Vec3f x = along(p, d, s.pick(0.5f, 0.25f)), n = gen::grid_point(s, 1);
             const float len = std::ldexp(1.0f, s.range(-14, -6)), gap = s.pick(0.0f, len, 2 * len);
             const Vec3f q = along(x, n, gap);
             return layout(p, along(p, d, 1), q, along(q, n, len));
         }},
        {"uniform", 2, [](Source& s) {
             const int e = s.range(-8, 9);
             return layout(gen::uniform_point(s, e), gen::uniform_point(s, e), gen::uniform_point(s, e), gen::uniform_point(s, e));
         }},
        {"far", 1, [](Source& s) {  // small segments far from the origin: their differences cancel
             const float far = std::ldexp(float(s.range(1, 8)), s.range(10, 20));
             const Vec3f c{far, far * s.pick(1.0f, -1.0f, 0.5f), far * s.pick(0.0f, 1.0f)};
             const auto near = [&] { return along(c, gen::grid_point(s, 3), s.pick(1.0f, 0.125f)); };
             return layout(near(), near(), near(), near());
         }},
    };
}

/// isect_segment_segment(p1, q1, p2, q2, out[9]): 1 if the segments meet.
template <class T> Answer plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    const T u = unset_value<T>();
    T out[9] = {u, u, u, u, u, u, u, u, u};
    const int r = as<int (*)(P, P, P, P, T*)>(fn)(in + kP1, in + kQ1, in + kP2, in + kQ2, out);
    return plugin_answer<T>(f, r, {out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8]});
}

Family make() {
    Family f;
    f.name = "segment_segment";
    f.exchangeable = 6;  // p1 q1, p2 q2
    f.inputs = inputs_of(kInput);
    f.answers = {"apart", "meet"};
    f.answer_has_values = {true, true};
    f.outputs.assign(std::begin(kOutputs), std::end(kOutputs));
    f.references = "rational (the fast body on exact numbers: the convex minimum, interior or edges) and cgal (squared_distance of Segment_3)";
    f.in_domain = [](const double* in, std::string* why) { return all_finite(self(), in, why); };
    f.truth = truth;
    f.first_reference = [](const double* in) { return truth_of(ExactInput(in), ref::segment_segment_rational(in)); };
    f.cgal = [](const double* in) {
        const ExactInput x(in);
        return ref::to_double(ref::segment_segment_cgal(x.p1, x.q1, x.p2, x.q2));
    };
    f.band = band_of(ref::fast::segment_segment_band());
    f.value_error = value_error;
    f.deciding = deciding;
    f.feature = feature;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::segment_segment(in)); };
    f.oracle_check = [](const double* in, const FastTruth& fast) {
        const ExactInput x(in);
        const Truth t = truth_of(x, ref::segment_segment_rational(in));
        const std::string why = check_answer(self(), fast, t.answer);
        return why.empty() ? check_rounded_enclosures(self(), fast, t.values.data(), t.values.size()) : why;
    };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::segment_segment(in)); };
    f.all_kernels = [] {
        return std::vector<FamilyKernel>{kernel<float>("ericson", "tolerant=1", 4, ericson),
                                         kernel<float>("exact", "exact", 4, exact<float>),
                                         kernel<double>("exact", "exact", 4, exact<double>, "2^-100:2^100")};
    };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{kernel<float>("broken:ericson_in_float", "tolerant=1", 4, ericson_in_own<float>),
                                         kernel<float>("broken:ericson_epsilon", "tolerant=1", 4, ericson_epsilon<float>),
                                         kernel<float>("broken:s_not_recomputed", "tolerant=1", 4, s_not_recomputed),
                                         kernel<float>("broken:lines_not_segments", "tolerant=1", 4, lines_not_segments),
                                         kernel<float>("broken:parallel_nan", "tolerant=1", 4, parallel_nan),
                                         kernel<double>("broken:ericson_in_double", "tolerant=1", 4, ericson_in_own<double>),
                                         kernel<double>("broken:ericson_epsilon", "tolerant=1", 4, ericson_epsilon<double>)};
    };
    f.mixes = mixes();
    f.plugin_call_f = plugin_call<float>;
    f.plugin_out_args = "out";
    f.plugin_call_d = plugin_call<double>;
    f.preconditions = {preconditions::distinct_points(f, "nonzero_length", {{"p1", "q1"}, {"p2", "q2"}})};
    return f;
}

const Family& self() {
    static const Family f = make();
    return f;
}

}  // namespace

const Family& segment_segment_family() { return self(); }

}  // namespace isect::check
