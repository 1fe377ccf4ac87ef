// The ray_sphere family: o + t d, t in [0, tmax], vs a closed ball; on a hit
// the entry and exit parameters (0 when o is in the ball; tmax when the ball
// holds o + tmax d).
#include <limits>

#include "family_common.hpp"
#include "check/model/plugin_call.hpp"
#include "check/model/generate.hpp"
#include "isect/ray_sphere.hpp"
#include "isect/ref/ray_sphere.hpp"

namespace isect::check {

namespace {

using namespace detail;
using ref::Rational;

const Family& self();

// The input, by key (isect/ref/ray_sphere.hpp): offsets derived, never written.
constexpr auto& kInput = ref::ray_sphere_input;
constexpr size_t kOrg = kInput.at("org"), kDir = kInput.at("dir"), kTmax = kInput.at("tmax"), kC = kInput.at("c"),
                 kR = kInput.at("r");

std::optional<Rational> exact_tmax(const double* in) {
    return std::isinf(in[kTmax]) ? std::nullopt : std::optional<Rational>(ref::exact(in[kTmax]));
}

/// surface: the `surface` convention, the sphere's crossings (isect/ref/ray_sphere.hpp).
ref::RaySphereExact rational(const double* in, bool surface = false) {
    return ref::ray_sphere_rational(in, surface);
}
ref::RaySphereExact cgal(const double* in, bool surface = false) {
    return ref::ray_sphere_cgal(ref::exact(vec_at(in + kOrg)), ref::exact(vec_at(in + kDir)), exact_tmax(in),
                                ref::exact(vec_at(in + kC)), ref::exact(in[kR]), surface);
}

std::string describe(const ref::RaySphereExact& r) {
    if (!r.hit) return "miss";
    return "hit [" + format_double(r.t_enter) + ", " + format_double(r.t_exit) + "]";
}

Truth truth_of(const ref::RaySphereExact& q) {
    Truth t;
    t.answer = yes(q.hit);
    if (q.hit) t.values = {q.t_enter, q.t_exit};
    return t;
}

Truth truth(const double* in, bool surface) {
    const ref::RaySphereExact q = rational(in, surface), g = cgal(in, surface);
    const auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
    if (q.hit != g.hit || (q.hit && (!same(q.t_enter, g.t_enter) || !same(q.t_exit, g.t_exit))))
        throw ReferenceMismatch("ray_sphere references disagree: rational says " + describe(q) + ", cgal says " + describe(g));
    return truth_of(q);
}

/// Where the fast oracle differs from a reference's answer q.
std::string oracle_differs(const FastTruth& fast, const ref::RaySphereExact& q) {
    std::string why = check_answer(self(), fast, yes(q.hit));
    if (!why.empty() || !q.hit) return why;
    const double exact[2] = {q.t_enter, q.t_exit};
    return check_rounded_enclosures(self(), fast, exact, 2);
}

/// Under `line`: both references on the whole line.
ref::RaySphereExact rational_line(const double* in) { return ref::ray_sphere_line_rational(in); }
ref::RaySphereExact cgal_line(const double* in) {
    return ref::ray_sphere_line_cgal(ref::exact(vec_at(in + kOrg)), ref::exact(vec_at(in + kDir)), ref::exact(vec_at(in + kC)),
                                     ref::exact(in[kR]));
}
Truth truth_line(const double* in) {
    const ref::RaySphereExact q = rational_line(in), g = cgal_line(in);
    if (q.hit != g.hit || (q.hit && (q.t_enter != g.t_enter || q.t_exit != g.t_exit)))
        throw ReferenceMismatch("ray_sphere (line) references disagree: rational says " + describe(q) + ", cgal says " +
                                describe(g));
    return truth_of(q);
}

/// The quadratic a t^2 + 2 b t + k of the input, in long double (its 15-bit
/// exponent holds products of four doubles), and its roots (the stable pair),
/// for the condition scales.
struct Quadratic {
    long double a = 0, b = 0, k = 0, disc = 0, lesser = 0, greater = 0;
    long double o1 = 0, c1 = 0, d1 = 0, r = 0;  ///< 1-norms of o, c, d; r
    long double dir_slack = 0;  ///< how far d may move beyond its ulp, in u (a declared unit_direction's slack)
    explicit Quadratic(const double* in, double slack = 0) : dir_slack(slack) {
        long double f[3], d[3];
        for (size_t i = 0; i < 3; ++i) {
            f[i] = (long double)in[kOrg + i] - in[kC + i];
            d[i] = in[kDir + i];
            o1 += std::fabs((long double)in[kOrg + i]);
            c1 += std::fabs((long double)in[kC + i]);
            d1 += std::fabs(d[i]);
        }
        r = std::fabs((long double)in[kR]);
        for (size_t i = 0; i < 3; ++i) {
            a += d[i] * d[i];
            b += d[i] * f[i];
            k += f[i] * f[i];
        }
        k -= r * r;
        if (a == 0) return;
        // The discriminant from the closest-approach vector (no cancellation).
        const long double s = b / a;
        long double l2 = 0;
        for (size_t i = 0; i < 3; ++i) {
            const long double l = f[i] - s * d[i];
            l2 += l * l;
        }
        disc = std::max(0.0L, a * (r * r - l2));
        const long double q = -(b + std::copysign(std::sqrt(disc), b));
        if (q == 0) return;  // the double root 0
        lesser = std::min(q / a, k / q);
        greater = std::max(q / a, k / q);
    }
    /// How far a root t moves, in units of u, when every input moves by its
    /// own ulp (d by dir_slack more: a kernel may take a declared unit
    /// direction as exactly unit): the point o + t d and c each by up to u L,
    /// L = |o|_1 + |c|_1 + (1 + dir_slack) |t| |d|_1, and r by u r, so at the root (|o + t d - c| = r) the
    /// quadratic moves by at most eps = 2 r u L + (u L)^2 + 2 u r^2 (the
    /// squares keep a zero radius honest); a root of a t^2 + 2 b t + k moves
    /// by at most about eps / (sqrt(disc) + sqrt(a eps)): eps / 2 sqrt(disc)
    /// where the roots are apart, sqrt(eps / a) at a tangent. Plus |t|, the
    /// rounding of t itself.
    double scale(long double t) const {
        const long double u = unit_roundoff(), ul = u * (o1 + c1 + (1 + dir_slack) * std::fabs(t) * d1);
        const long double eps = 2 * r * ul + ul * ul + 2 * u * r * r;
        const long double move = eps / (std::sqrt(disc) + std::sqrt(a * eps));
        const long double s = move / u + std::fabs(t);
        return s > std::numeric_limits<double>::max() ? std::numeric_limits<double>::infinity() : double(s);
    }
};

/// t_enter and t_exit over their condition scales (Quadratic::scale); a
/// clamped value (0 for an origin in the ball, tmax for an end in it) takes
/// the scale of the root it stands for, since a kernel's own root may fall
/// either side of the clamp. A zero direction (the point o) has exact
/// numbers: 0 and tmax.
ValueError value_error(const double* in, const Truth& truth, const Answer& got, double dir_slack) {
    ValueError e;
    const Quadratic q(in, dir_slack);
    const auto t_units = [](double g, double x, double scale) {
        if (g == x) return 0.0;
        if (std::isinf(x) && std::isinf(g) && (g > 0) == (x > 0)) return 0.0;
        return units(g, x, scale);
    };
    if (q.a == 0) {
        worst(e, t_units(got.values[0], truth.values[0], 0), "t_enter");
        worst(e, t_units(got.values[1], truth.values[1], 0), "t_exit");
        return e;
    }
    worst(e, t_units(got.values[0], truth.values[0], q.scale(q.lesser)), "t_enter");
    worst(e, t_units(got.values[1], truth.values[1], q.scale(q.greater)), "t_exit");
    return e;
}

/// Under `surface`: each number is a root, the lesser or the greater,
/// judged over that root's scale. Which crossing comes first turns on the
/// origin's side of the sphere (the lesser root against 0), which comes
/// last on the end's (the greater root against tmax): where that root lies
/// within rounding of its bound, a kernel's own root may fall either side,
/// and it may answer the other root. So each number may also match the
/// other root, at the cost of moving the deciding root onto its bound: its
/// error is the larger of that move and its distance from the other root,
/// each in units of the root's scale.
ValueError value_error_surface(const double* in, const Truth& truth, const Answer& got, double dir_slack) {
    ValueError e;
    const Quadratic q(in, dir_slack);
    if (q.a == 0) return value_error(in, truth, got, dir_slack);  // the point o: exact numbers
    const double lesser = double(q.lesser), greater = double(q.greater);
    const double s_lesser = q.scale(q.lesser), s_greater = q.scale(q.greater);
    const auto t_units = [](double g, double x, double scale) {
        if (g == x) return 0.0;
        if (std::isinf(x) && std::isinf(g) && (g > 0) == (x > 0)) return 0.0;
        return units(g, x, scale);
    };
    const double tmax = in[kTmax];
    // The cost of the other side: the lesser root moved to 0, the greater to tmax.
    const double flip_origin = t_units(lesser, 0, s_lesser);
    const double flip_end = std::isinf(tmax) ? std::numeric_limits<double>::infinity() : t_units(greater, tmax, s_greater);
    for (int i = 0; i < 2; ++i) {
        const double exact = truth.values[size_t(i)];
        const bool is_lesser = std::fabs(exact - lesser) <= std::fabs(exact - greater);
        const double s_exact = is_lesser ? s_lesser : s_greater, other = is_lesser ? greater : lesser;
        const double s_other = is_lesser ? s_greater : s_lesser;
        const double flip = i == 0 ? flip_origin : flip_end;
        const double direct = t_units(got.values[size_t(i)], exact, s_exact);
        const double swapped = std::max(flip, t_units(got.values[size_t(i)], other, s_other));
        worst(e, std::min(direct, swapped), i == 0 ? "t_enter" : "t_exit");
    }
    return e;
}

/// What decides the exact answer, as the body's signs of the quadratic
/// found it on exact numbers: a zero direction, no real roots (the line
/// passes beside the ball), the ball behind the origin or past tmax; for a
/// hit, a tangent (one point), the origin in the ball (or on the sphere), or
/// entering through the sphere. A zero radius is named before the roots.
std::string ball_deciding(const double* in) {
    const ref::RaySphereSigns s = ref::ray_sphere_signs(in);
    switch (s.verdict) {
        case ref::SphereVerdict::point_inside: return "zero direction, the point o in the ball";
        case ref::SphereVerdict::point_outside: return "zero direction, the point o outside";
        default: break;
    }
    if (in[kR] == 0) return "zero radius (the ball is the point c)";
    switch (s.verdict) {
        case ref::SphereVerdict::beside: return "passes beside the ball";
        case ref::SphereVerdict::behind: return "the ball is behind the origin";
        case ref::SphereVerdict::past_end: return "the ball is past tmax";
        default: break;
    }
    if (s.disc == 0) return "tangent: meets the sphere at one point";
    if (s.k == 0) return "origin on the sphere";
    return s.k < 0 ? "origin in the ball" : "enters through the sphere";
}

std::string deciding(const double* in, const Truth&, int) { return ball_deciding(in); }

/// Under `line`: whether the line passes beside the ball, touches the
/// sphere, or crosses it (from a point inside the ball or outside).
std::string line_deciding(const double* in, const Truth&, int) {
    if (in[kR] == 0) return "zero radius (the ball is the point c)";
    const ref::RaySphereSigns s = ref::ray_sphere_signs(in);
    if (s.disc < 0) return "the line passes beside the ball";
    if (s.disc == 0) return "tangent: the line meets the sphere at one point";
    return s.k < 0 ? "crosses the sphere, the origin in the ball" : "crosses the sphere, the origin outside";
}

/// Under `surface`: from inside the ball, whether the query leaves it.
std::string surface_deciding(const double* in, const Truth& truth, int) {
    const std::string ball = ball_deciding(in);
    if (ball != "origin in the ball") return ball;
    return truth.answer == 1 ? "origin in the ball, leaves through the sphere" : "inside the ball throughout: no crossing";
}

/// The smallest nonzero direction component or radius.
double feature(const double* in) {
    double m = in[kR] > 0 ? double(in[kR]) : 0;
    for (int i = 0; i < 3; ++i) {
        const double x = std::fabs(in[kDir + i]);
        if (x > 0 && (m == 0 || x < m)) m = x;
    }
    return m;
}

// --- Kernels and planted bugs --------------------------------------------------------

template <class T>
using RayFn = RaySphereHit (*)(const std::array<T, 3>&, const std::array<T, 3>&, T, const std::array<T, 3>&, T);

/// A kernel of scalar T (float, or double for the double-precision runs).
/// domain: the magnitudes it claims its contract in ("2^-20:2^20"), or none.
/// conventions: those it follows ("surface").
template <class T>
FamilyKernel kernel(const std::string& name, const std::string& contract, double error_e, RayFn<T> fn,
                    const char* domain = nullptr, std::vector<std::string> conventions = {}) {
    FamilyKernel k{name, *Contract::parse(contract), error_e, [fn](const double* in) {
                       const RaySphereHit h = fn(vec_as<T>(in + kOrg), vec_as<T>(in + kDir), T(in[kTmax]), vec_as<T>(in + kC), T(in[kR]));
                       if (!h.hit) return Answer{0, {0, 0}};
                       return Answer{1, {h.t_enter, h.t_exit}};
                   }};
    k.precision = precision_of<T>();
    k.domain = Domain::declared(domain);
    k.conventions = std::move(conventions);
    return k;
}

/// Planted bug: the stable pair with a sign function that returns 0 for 0,
/// q = -(b + sgn(b) sqrt(disc)): arborx/ArborX#461, where review found the
/// roots wrong "when b = 0" (sgn(b) returning 0). From the foot of the
/// centre inside the ball (b = 0) q is 0: one root q / a = 0, the other
/// k / q = -inf, and the exit comes back as 0.
template <class T>
RaySphereHit sign_zero_root(const std::array<T, 3>& o, const std::array<T, 3>& d, T tmax, const std::array<T, 3>& c, T r) {
    const T fx = o[0] - c[0], fy = o[1] - c[1], fz = o[2] - c[2];
    const T a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    const T k = fx * fx + fy * fy + fz * fz - r * r;
    if (a == 0) return isect::detail::ray_sphere_point(k, tmax);
    const T b = d[0] * fx + d[1] * fy + d[2] * fz;
    const T disc = b * b - a * k;
    if (disc < 0) return {};
    const T sign = T((b > 0) - (b < 0));
    const T q = -(b + sign * std::sqrt(disc));
    double t0 = double(q) / a, t1 = double(k) / q;
    if (t0 > t1) std::swap(t0, t1);
    return isect::detail::ray_sphere_clip(t0, t1, tmax);
}

/// Planted bug: a = 1 taken for granted, as kernels written for normalised
/// rays do ("we always normalize rays", arborx/ArborX#573), on directions
/// that are not unit: chapter 7's stable form with d . d replaced by 1. A
/// kernel that may declare --require unit_direction and is right under it
/// (the precondition's slack, 16 u on |d|, is in the band and the scales).
template <class T>
RaySphereHit unit_direction_assumed(const std::array<T, 3>& o, const std::array<T, 3>& d, T tmax, const std::array<T, 3>& c, T r) {
    const T fx = o[0] - c[0], fy = o[1] - c[1], fz = o[2] - c[2];
    const T b = d[0] * fx + d[1] * fy + d[2] * fz;
    const T k = fx * fx + fy * fy + fz * fz - r * r;
    const T lx = fx - b * d[0], ly = fy - b * d[1], lz = fz - b * d[2];  // the foot of c, |d| = 1 assumed
    const T disc = r * r - (lx * lx + ly * ly + lz * lz);
    if (disc < 0) return {};
    const T q = -(b + std::copysign(std::sqrt(disc), b));
    if (q == 0) return isect::detail::ray_sphere_clip(0, 0, tmax);
    double t0 = double(q), t1 = double(k) / q;
    if (std::fabs(t1) > std::fabs(t0)) t1 = std::copysign(std::fabs(t0), t1);
    if (t0 > t1) std::swap(t0, t1);
    return isect::detail::ray_sphere_clip(t0, t1, tmax);
}

/// Planted bug: turanszkij/WickedEngine#1695. The far root is computed and
/// stored when the near one is out of range, and then the function falls
/// through to return false: a ray from inside the ball never hits it.
RaySphereHit inside_is_miss(const Vec3f& o, const Vec3f& d, float tmax, const Vec3f& c, float r) {
    RaySphereHit h = ray_sphere_rtg<float>(o, d, tmax, c, r);
    const float fx = o[0] - c[0], fy = o[1] - c[1], fz = o[2] - c[2];
    if (h.hit && fx * fx + fy * fy + fz * fz - r * r < 0) return {};
    return h;
}

// --- Constructions ------------------------------------------------------------------

Inputs layout(const Vec3f& o, const Vec3f& d, float tmax, const Vec3f& c, float r) {
    Inputs in = gen::fresh();
    in.reserve(kInput.size());
    gen::put(in, o);
    gen::put(in, d);
    in.push_back(tmax);
    gen::put(in, c);
    in.push_back(r);
    return in;
}

float any_tmax(Source& s) { return gen::ray_reach(s); }

Vec3f nonzero(Source& s, Vec3f d) {
    if (d[0] == 0 && d[1] == 0 && d[2] == 0) d[size_t(s.range(0, 3))] = s.pick(1.0f, -1.0f, 2.0f);
    return d;
}

Vec3f add(const Vec3f& p, const Vec3f& q, float s = 1) { return {p[0] + s * q[0], p[1] + s * q[1], p[2] + s * q[2]}; }

/// A nonzero integer vector n perpendicular to d (both small integers, so n . d = 0 exactly).
Vec3f perpendicular(Source& s, const Vec3f& d) {
    Vec3f n{d[1], -d[0], 0};
    if (n[0] == 0 && n[1] == 0) n = {0, d[2], -d[1]};
    if (s.coin()) n = {d[1] * n[2] - d[2] * n[1], d[2] * n[0] - d[0] * n[2], d[0] * n[1] - d[1] * n[0]};  // d x n
    return n;
}

/// Pythagorean directions: an integer vector of integer length, and that length.
std::pair<Vec3f, float> pythagorean(Source& s) {
    static const float kTriples[][4] = {{3, 4, 0, 5}, {1, 2, 2, 3}, {2, 3, 6, 7}, {1, 4, 8, 9}, {4, 4, 7, 9}, {2, 6, 9, 11}, {1, 0, 0, 1}};
    const float* p = kTriples[s.range(0, int(std::size(kTriples)))];
    Vec3f v{p[0], p[1], p[2]};
    for (float& x : v)
        if (s.coin()) x = -x;
    static constexpr int kPerms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const int* q = kPerms[s.range(0, 6)];
    return {{v[size_t(q[0])], v[size_t(q[1])], v[size_t(q[2])]}, p[3]};
}

std::vector<Mix> mixes() {
    return {
        {"grid", 2, [](Source& s) {
             return layout(gen::grid_point(s, 4), nonzero(s, gen::grid_point(s, 2)), any_tmax(s), gen::grid_point(s, 3),
                           float(s.range(0, 4)));
         }},
        {"inside", 1, [](Source& s) {  // the origin in the ball, on the sphere (a Pythagorean offset) or at the centre
             const Vec3f c = gen::grid_point(s, 3);
             const auto [v, len] = pythagorean(s);
             const float r = len * s.pick(1.0f, 2.0f, 1.5f);
             const Vec3f o = s.coin() ? c : add(c, v, s.pick(1.0f, 0.5f, -1.0f));
             return layout(o, nonzero(s, gen::grid_point(s, 2)), any_tmax(s), c, r);
         }},
        {"perpendicular", 2, [](Source& s) {  // the origin at the foot of the centre on the line: b = 0
             const Vec3f d = nonzero(s, gen::grid_point(s, 2));
             const Vec3f n = perpendicular(s, d), o = gen::grid_point(s, 3);
             const float m = s.pick(0.0f, 0.5f, 1.0f, 2.0f, 0.25f);
             const Vec3f c = add(o, n, m);
             const float len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
             const float r = s.pick(std::sqrt(len2) * m, std::sqrt(len2) * m * 2, float(s.range(0, 4)));
             return layout(o, d, any_tmax(s), c, r);
         }},
        {"tangent", 2, [](Source& s) {  // the line at distance r from c exactly: n perpendicular to d of integer length r
             const auto [d, len] = pythagorean(s);
             Vec3f n = perpendicular(s, d);
             float nn = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
             if (nn != std::floor(nn)) {  // an axis-aligned pair instead: d along one axis, n along another
                 const size_t i = size_t(s.range(0, 3)), j = (i + 1 + size_t(s.range(0, 2))) % 3;
                 Vec3f dd{0, 0, 0};
                 dd[i] = s.pick(1.0f, -1.0f, 3.0f);
                 n = {0, 0, 0};
                 n[j] = 1;
                 nn = 1;
                 const Vec3f o = gen::grid_point(s, 4);
                 const float r = float(s.range(1, 4)), t = s.pick(1.0f, 2.0f, 0.5f, -1.0f, 0.0f);
                 return layout(o, dd, any_tmax(s), add(add(o, dd, t), n, r * s.pick(1.0f, -1.0f)), r);
             }
             const Vec3f o = gen::grid_point(s, 4);
             const float t = s.pick(1.0f, 2.0f, 0.5f, -1.0f, 0.0f);
             return layout(o, d, any_tmax(s), add(add(o, d, t), n, s.pick(1.0f, -1.0f)), nn);
         }},
        {"graze_ulp", 2, [](Source& s) {  // a tangent, then the radius moved by an ulp or two either way
             const Vec3f o = gen::grid_point(s, 4);
             const size_t i = size_t(s.range(0, 3)), j = (i + 1) % 3;
             Vec3f d{0, 0, 0}, n{0, 0, 0};
             d[i] = s.pick(1.0f, -1.0f, 3.0f, 0.5f);
             d[j] = s.pick(0.0f, 0.0f, 1.0f);
             n[(i + 2) % 3] = 1;
             float r = float(s.range(1, 8)) * s.pick(1.0f, 0.125f, 1024.0f);
             const Vec3f c = add(add(o, d, s.pick(1.0f, 3.0f, 0.5f)), n, r);
             for (int k = s.range(1, 3); k > 0; --k) r = std::nextafter(r, s.coin() ? INFINITY : 0.0f);
             return layout(o, d, any_tmax(s), c, r);
         }},
        {"far_small", 2, [](Source& s) {  // a small ball far from the origin, aimed at: the textbook
             // discriminant's cancellation (Ray Tracing Gems, chapter 7)
             const float far = std::ldexp(float(s.range(1, 8)), s.range(8, 24));
             const Vec3f c{far * s.pick(1.0f, -1.0f), far * s.pick(0.5f, 1.0f, 0.0f), far * s.pick(0.25f, -1.0f, 0.0f)};
             const float r = s.pick(1.0f, 0.5f, 2.0f, 0.125f);
             Vec3f target = c;
             target[size_t(s.range(0, 3))] += r * s.pick(0.0f, 0.5f, 1.0f, 0.99f, 1.01f);
             const Vec3f o = gen::grid_point(s, 2);
             Vec3f d = add(target, o, -1);
             if (s.coin()) {  // unit-ish direction, as renderers pass it
                 const double len = std::sqrt(double(d[0]) * d[0] + double(d[1]) * d[1] + double(d[2]) * d[2]);
                 for (float& x : d) x = float(x / len);
             }
             return layout(o, nonzero(s, d), s.pick(INFINITY, std::numeric_limits<float>::max(), 1.0f), c, r);
         }},
        {"at_tmax", 1, [](Source& s) {  // the sphere passes through o + tmax d: a Pythagorean offset from c
             const Vec3f c = gen::grid_point(s, 3);
             const auto [v, len] = pythagorean(s);
             const float tmax = s.pick(1.0f, 2.0f, 0.5f);
             const Vec3f end = add(c, v);  // on the sphere of radius len
             const Vec3f d = nonzero(s, gen::grid_point(s, 2));
             return layout(add(end, d, -tmax), d, tmax, c, len);
         }},
        {"zero_direction", 1, [](Source& s) {  // d = 0, the point o: in, on or outside the ball
             const Vec3f c = gen::grid_point(s, 3);
             const auto [v, len] = pythagorean(s);
             const Vec3f o = add(c, v, s.pick(0.0f, 0.5f, 1.0f, 2.0f));
             const float z = s.pick(0.0f, -0.0f);
             return layout(o, {z, s.pick(0.0f, -0.0f), z}, any_tmax(s), c, len);
         }},
        {"zero_radius", 1, [](Source& s) {  // r = 0, the point c: on the ray (aimed at exactly) or beside it
             const Vec3f o = gen::grid_point(s, 4), c = gen::grid_point(s, 3);
             Vec3f d = add(c, o, -1);
             if (s.coin()) d = add(d, gen::grid_point(s, 1));
             const float scale = s.pick(1.0f, 0.5f, 2.0f);
             return layout(o, nonzero(s, {d[0] * scale, d[1] * scale, d[2] * scale}), any_tmax(s), c, s.pick(0.0f, -0.0f));
         }},
        {"uniform", 2, [](Source& s) {  // aimed at a random point near the ball
             const int e = s.range(-8, 9);
             const Vec3f c = gen::uniform_point(s, e);
             const float r = std::fabs(gen::uniform(s, e - s.range(0, 3)));
             Vec3f target = c;
             for (float& x : target) x += r * float(s.range(-4, 5)) / 4;
             const Vec3f o = gen::uniform_point(s, e + 1);
             return layout(o, nonzero(s, add(target, o, -1)), s.pick(INFINITY, INFINITY, 1.0f, 0.5f), c, r);
         }},
    };
}

/// isect_ray_sphere(org, dir, tmax, c, r, out t_enter, out t_exit).
template <class T> Answer plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    const T u = unset_value<T>();
    T t0 = u, t1 = u;
    const int r = as<int (*)(P, P, T, P, T, T*, T*)>(fn)(in + kOrg, in + kDir, in[kTmax], in + kC, in[kR], &t0, &t1);
    return plugin_answer<T>(f, r, {t0, t1});
}

Family make() {
    Family f;
    f.name = "ray_sphere";
    f.inputs = inputs_of(kInput);
    f.answers = {"miss", "hit"};
    f.answer_has_values = {false, true};
    f.outputs = {"t_enter", "t_exit"};
    f.references = "rational (the fast body on exact numbers: the quadratic's signs; MPFR roots) and cgal (squared_distance to "
                   "Ray_3 or Segment_3; roots from Line_3::projection)";
    f.in_domain = [](const double* in, std::string* why) {
        double rest[kInput.size()];  // every input but tmax must be finite
        std::copy(in, in + kInput.size(), rest);
        rest[kTmax] = 0;
        if (!all_finite(self(), rest, why)) return false;
        if (std::isnan(in[kTmax]) || in[kTmax] < 0)
            return refuse(why, [&] { return "tmax: '" + format_number(in[kTmax]) + "' is outside the domain of ray_sphere (0 <= tmax <= inf)"; });
        if (in[kR] < 0) return refuse(why, [&] { return "r: '" + format_number(in[kR]) + "' is outside the domain of ray_sphere (r >= 0)"; });
        return true;
    };
    f.truth = [](const double* in) { return truth(in, false); };
    f.first_reference = [](const double* in) { return truth_of(rational(in, false)); };
    f.cgal = [](const double* in) { return double(cgal(in).hit); };
    f.band = band_of(ref::fast::ray_sphere_band());
    f.value_error = [](const double* in, const Truth& t, const Answer& got) { return value_error(in, t, got, 0); };
    f.deciding = deciding;
    f.feature = feature;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::ray_sphere(in)); };
    f.oracle_check = [](const double* in, const FastTruth& fast) { return oracle_differs(fast, rational(in)); };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::ray_sphere(in)); };
    f.all_kernels = [] {
        return std::vector<FamilyKernel>{kernel<float>("rtg", "tolerant=1", 2, ray_sphere_rtg<float>, "2^-20:2^20"),
                                         kernel<float>("exact", "exact", 2, ray_sphere_exact),
                                         kernel<float>("rtg_surface", "tolerant=1", 2, ray_sphere_rtg_surface<float>,
                                                       "2^-20:2^20", {"surface"}),
                                         kernel<double>("rtg", "tolerant=1", 3, ray_sphere_rtg<double>, "2^-100:2^100"),
                                         kernel<double>("rtg_surface", "tolerant=1", 3, ray_sphere_rtg_surface<double>,
                                                        "2^-100:2^100", {"surface"}),
                                         kernel<float>("rtg_line", "tolerant=1", 2, line_sphere_rtg<float>, "2^-20:2^20", {"line"}),
                                         kernel<double>("rtg_line", "tolerant=1", 3, line_sphere_rtg<double>, "2^-100:2^100",
                                                        {"line"})};
    };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{kernel<float>("broken:textbook_quadratic", "tolerant=1", 2, ray_sphere_textbook<float>),
                                         kernel<float>("broken:sign_zero_root", "tolerant=1", 2, sign_zero_root<float>),
                                         kernel<float>("broken:unit_direction_assumed", "tolerant=1", 2, unit_direction_assumed<float>),
                                         kernel<float>("broken:inside_is_miss", "tolerant=1", 2, inside_is_miss),
                                         kernel<float>("broken:surface_keeps_the_ball", "tolerant=1", 2, ray_sphere_rtg<float>,
                                                       nullptr, {"surface"}),
                                         kernel<float>("broken:line_clamped_to_the_ray", "tolerant=1", 2, ray_sphere_rtg<float>,
                                                       nullptr, {"line"}),
                                         kernel<double>("broken:textbook_quadratic", "tolerant=1", 2, ray_sphere_textbook<double>),
                                         kernel<double>("broken:sign_zero_root", "tolerant=1", 2, sign_zero_root<double>),
                                         kernel<double>("broken:unit_direction_assumed", "tolerant=1", 2,
                                                        unit_direction_assumed<double>)};
    };
    f.mixes = mixes();
    f.plugin_call_f = plugin_call<float>;
    f.plugin_out_args = "&out[0], &out[1]";
    f.plugin_call_d = plugin_call<double>;
    f.preconditions = {preconditions::nonzero_vector(f, "nonzero_direction", "dir"), preconditions::unit_vector(f, "unit_direction", "dir"),
                       preconditions::finite_value(f, "finite_tmax", "tmax"),
                       preconditions::infinite_value(f, "unbounded_tmax", "tmax"), preconditions::positive_value(f, "positive_radius", "r")};
    f.conventions = {{"surface", "the sphere's crossings, not the ball's: from inside, t_enter is the exit (glm, three.js, raylib, "
                                 "WickedEngine); a query inside the ball throughout misses"},
                     {"line", "the whole line o + t d, t over all reals (tmax not read; d != 0): t_enter and t_exit the "
                              "line's two roots, unclamped (glm's intersectLineSphere, Irrlicht's line3d)"}};
    f.declare = [](Family& g, const std::vector<std::string>&, const std::vector<std::string>& conventions) {
        // A declared unit direction's slack widens the roots' scales.
        const double dir_slack = g.slack.empty() ? 0 : g.slack[kDir];
        g.value_error = [dir_slack](const double* in, const Truth& t, const Answer& got) {
            return value_error(in, t, got, dir_slack);
        };
        if (conventions.empty()) return;
        if (std::find(conventions.begin(), conventions.end(), "line") != conventions.end()) {
            // The line (with surface too: a line's crossings of the sphere
            // are its two roots). Its numbers are judged as the ball's.
            lines_only(g, kDir);
            g.truth = truth_line;
            g.first_reference = [](const double* in) { return truth_of(rational_line(in)); };
            g.cgal = [](const double* in) { return double(cgal_line(in).hit); };
            g.band = band_of(ref::fast::ray_sphere_line_band());
            g.deciding = line_deciding;
            g.fast_truth = [](const double* in) { return from_fast(ref::fast::ray_sphere_line(in)); };
            g.oracle_check = [](const double* in, const FastTruth& fast) { return oracle_differs(fast, rational_line(in)); };
            g.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::ray_sphere_line(in)); };
            return;
        }
        // "surface"
        g.value_error = [dir_slack](const double* in, const Truth& t, const Answer& got) {
            return value_error_surface(in, t, got, dir_slack);
        };
        g.truth = [](const double* in) { return truth(in, true); };
        g.first_reference = [](const double* in) { return truth_of(rational(in, true)); };
        g.cgal = [](const double* in) { return double(cgal(in, true).hit); };
        g.band = band_of(ref::fast::ray_sphere_band(true));
        g.deciding = surface_deciding;
        g.fast_truth = [](const double* in) { return from_fast(ref::fast::ray_sphere(in, true)); };
        g.oracle_check = [](const double* in, const FastTruth& fast) { return oracle_differs(fast, rational(in, true)); };
        g.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::ray_sphere(in, true)); };
    };
    return f;
}

const Family& self() {
    static const Family f = make();
    return f;
}

}  // namespace

const Family& ray_sphere_family() { return self(); }

}  // namespace isect::check
