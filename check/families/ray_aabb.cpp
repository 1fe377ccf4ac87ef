// The ray_aabb and segment_aabb families: the points o + t d, t in [0, inf)
// or [0, 1], vs a closed box; on a hit the entry and exit parameters and the
// entry face's normal.
#include <limits>

#include "family_common.hpp"
#include "slab_scale.hpp"
#include "check/model/plugin_call.hpp"
#include "check/model/generate.hpp"
#include "isect/ray_aabb.hpp"
#include "isect/ref/ray_aabb.hpp"

namespace isect::check {

namespace {

using namespace detail;
using ref::Rational;

const Family& ray_family();
const Family& segment_family();

// The inputs, by key (isect/ref/ray_aabb.hpp): offsets derived, never
// written. The two families differ only in the direction's name.
constexpr size_t kOrg = ref::ray_aabb_input.at("org"), kDir = ref::ray_aabb_input.at("dir");
constexpr size_t kBox = ref::ray_aabb_input.at("box.lo"), kBoxHi = ref::ray_aabb_input.at("box.hi");
static_assert(kBoxHi == kBox + 3 && kOrg == ref::segment_aabb_input.at("org") &&
              kDir == ref::segment_aabb_input.at("delta") && kBox == ref::segment_aabb_input.at("box.lo"));

const char* const kValues[] = {"t_enter", "t_exit", "normal.x", "normal.y", "normal.z"};

bool is_segment(const Family& f) { return &f == &segment_family(); }

/// line: the `line` convention (ray_aabb's only).
ref::RayAabbExact rational(const Family& f, const double* in, bool line = false) {
    return ref::ray_aabb_rational(in, is_segment(f), line);
}

/// The normal as the `inward_normal` convention takes it: the entry face's
/// normal pointing into the box (along d on its axis; Bullet's btRayAabb),
/// each nonzero component of the outward one negated, enclosures swapped.
void turned_inward(Numbers& lo, Numbers& hi) {
    for (size_t i = 2; i < 5 && i < lo.size() && i < hi.size(); ++i) {
        const double l = lo[i], h = hi[i];
        lo[i] = h == 0 ? h : -h;
        hi[i] = l == 0 ? l : -l;
    }
}

/// inward: the `inward_normal` convention (the references' outward normal
/// turned round; which face is entered does not change).
/// line: the `line` convention, whose entry face is always the entered one.
Truth truth(const Family& f, const double* in, bool inward = false, bool line = false) {
    const ref::RayAabbExact q = rational(f, in, line);
    const ref::RayAabbExact g = ref::ray_aabb_cgal(ref::exact(vec_at(in + kOrg)), ref::exact(vec_at(in + kDir)),
                                                   ref::exact(box_at(in + kBox)), is_segment(f), line);
    if (q.hit != g.hit || (q.hit && (q.t_enter != g.t_enter || q.exit_infinite != g.exit_infinite ||
                                     (!q.exit_infinite && q.t_exit != g.t_exit))))
        throw ReferenceMismatch(f.name + " references disagree: rational says " +
                                (q.hit ? "hit [" + q.t_enter.str() + ", " + q.t_exit.str() + "]" : "miss") +
                                ", cgal says " +
                                (g.hit ? "hit [" + g.t_enter.str() + ", " + g.t_exit.str() + "]" : "miss"));
    Truth t;
    t.answer = yes(q.hit);
    if (!q.hit) return t;
    t.values = {ref::to_double(q.t_enter),
                q.exit_infinite ? std::numeric_limits<double>::infinity() : ref::to_double(q.t_exit), 0, 0, 0};
    if (line || q.t_enter > 0) {
        const double* d = in + kDir;
        for (int i = 0; i < 3; ++i)
            if (q.near[size_t(i)] && *q.near[size_t(i)] == q.t_enter) {
                t.values[size_t(2 + i)] = (d[i] > 0) != inward ? -1 : 1;
                break;
            }
    }
    return t;
}

/// t_enter and t_exit: error over their condition scales S (the slab
/// candidates that can be the extremum once every input moves by its own
/// ulp: slab_extremum_scale); an exact t beyond the precision's range may
/// come back as inf. Not over |t|: at an exact t_enter = 0 (the origin on a
/// face) a t of one rounding, 2^-24 from centre-and-extent slabs, was 8.5e37
/// units. The normal: zero when the origin is in the box (or t_enter is
/// within the same error of 0), else the outward normal of an axis whose
/// near plane is met at t_enter, where "at" allows the same error as t.
/// inward: the `inward_normal` convention, the normal along d. line: the
/// `line` convention, where the line always enters through a face (a zero
/// normal is never right).
ValueError value_error(const double* in, const Truth& truth, const Answer& got, bool inward = false, bool line = false) {
    ValueError e;
    const double* o = in + kOrg;
    const double* d = in + kDir;
    const double* b = in + kBox;  // lo b[0..2], hi b[3..5]
    SlabCandidate entries[3], exits[3];
    int n = 0;
    for (int i = 0; i < 3; ++i) {
        if (d[i] == 0) continue;
        entries[n] = SlabCandidate(d[i] > 0 ? b[i] : b[3 + i], d[i] > 0 ? b[3 + i] : b[i], o[i], d[i]);
        exits[n] = SlabCandidate(d[i] > 0 ? b[3 + i] : b[i], d[i] > 0 ? b[i] : b[3 + i], o[i], d[i]);
        ++n;
    }
    const double s_enter = slab_extremum_scale(truth.values[0], entries, n);
    const double s_exit = slab_extremum_scale(truth.values[1], exits, n);
    const auto t_units = [](double g, double x, double scale) {
        if (g == x) return 0.0;
        if (std::fabs(x) > greatest_finite() && std::isinf(g) && (g > 0) == (x > 0)) return 0.0;
        return units(g, x, scale);
    };
    worst(e, t_units(got.values[0], truth.values[0], s_enter), "t_enter");
    worst(e, t_units(got.values[1], truth.values[1], s_exit), "t_exit");
    const double* nrm = &got.values[2];
    int axis = -1, nonzero = 0;
    for (int i = 0; i < 3; ++i)
        if (nrm[i] != 0) {
            axis = i;
            ++nonzero;
        }
    const double inf = std::numeric_limits<double>::infinity();
    if (nonzero == 0 && line) {
        worst(e, inf, "normal");
        return e;
    }
    if (nonzero == 0) {
        // "The origin is inside": right when the exact t_enter is 0, or
        // within rounding of it (as far as a t of 0 would be off).
        worst(e, t_units(0, truth.values[0], s_enter), "normal");
        return e;
    }
    if (nonzero > 1 || std::fabs(nrm[axis]) != 1 || d[axis] == 0 || ((nrm[axis] > 0) == (d[axis] > 0)) != inward) {
        worst(e, inf, "normal");
        return e;
    }
    // The near plane's parameter on that axis: in double for a float run
    // (two roundings, 2^-52 of it, where the judgement is in units of
    // 2^-24), exactly and then rounded, as the truth is, for a double run.
    const double face = d[axis] > 0 ? b[axis] : b[3 + axis];
    const double near = precision() == Precision::single
                            ? (face - in[axis]) / d[axis]
                            : ref::to_double((ref::exact(face) - ref::exact(in[axis])) / ref::exact(d[axis]));
    worst(e, t_units(near, truth.values[0], s_enter), "normal");
    return e;
}

/// What decides the exact answer, as the body's slabs found it on exact
/// numbers: for a miss, an empty box, a slab the query never enters
/// (parallel, outside it), the box behind the origin or past the segment's
/// end, or two slabs whose parameter ranges do not meet; for a hit,
/// "grazing" (one parameter only), "origin inside", or "enters through a
/// face".
/// Where the fast oracle's outward answer differs from the references'
/// (line: under the `line` convention).
std::string oracle_check(const Family& f, const double* in, const FastTruth& fast, bool line = false) {
    const ref::RayAabbExact q = rational(f, in, line);
    std::string why = check_answer(f, fast, yes(q.hit));
    if (!why.empty() || !q.hit) return why;
    why = check_enclosure("t_enter", fast.lo[0], fast.hi[0], q.t_enter);
    if (why.empty() && q.exit_infinite && !(std::isinf(fast.lo[1]) && fast.lo[1] > 0)) why = "t_exit is +inf";
    if (why.empty() && !q.exit_infinite) why = check_enclosure("t_exit", fast.lo[1], fast.hi[1], q.t_exit);
    const Truth t = truth(f, in, false, line);  // the normal as the family's truth picks it
    for (int i = 0; i < 3 && why.empty(); ++i)
        if (fast.lo[size_t(2 + i)] != t.values[size_t(2 + i)] || fast.hi[size_t(2 + i)] != t.values[size_t(2 + i)])
            why = "the entry normal differs";
    return why;
}

std::string deciding(const Family& f, const double* in, bool line = false) {
    const ref::RayAabbExact r = ref::ray_aabb_rational(in, is_segment(f), line);
    switch (r.verdict) {
        case ref::SlabVerdict::empty_box: return "the box is empty (lo > hi)";
        case ref::SlabVerdict::parallel_outside: return "parallel to a slab, outside it";
        case ref::SlabVerdict::apart:
            if (!line && !r.exit_infinite && r.t_exit < 0) return "the box is behind the origin";
            if (is_segment(f) && r.t_enter > 1) return "the box is past the segment's end";
            return "leaves one slab before entering another";
        case ref::SlabVerdict::meets: break;
    }
    if (!r.exit_infinite && r.t_enter == r.t_exit) return "grazing: meets the box at one point";
    return r.entered < 0 ? "origin inside" : line ? "crosses the box" : "enters through a face";
}

/// The smallest nonzero direction component or box extent.
double feature(const double* in) {
    double m = 0;
    for (int i = 0; i < 3; ++i)
        for (double x : {std::fabs(double(in[kDir + i])), double(in[kBoxHi + i]) - double(in[kBox + i])})
            if (x > 0 && (m == 0 || x < m)) m = x;
    return m;
}

template <class T>
using RayFn = RayAabbHit (*)(const std::array<T, 3>&, const std::array<T, 3>&, const BasicAabb<T>&, double);

/// A kernel of scalar T (float, or double for the double-precision runs).
template <class T>
FamilyKernel kernel(const Family& f, const std::string& name, const std::string& contract, double error_e, RayFn<T> fn,
                    std::vector<std::string> conventions = {}) {
    const double tmax = is_segment(f) ? 1.0 : std::numeric_limits<double>::infinity();
    FamilyKernel k{name, *Contract::parse(contract), error_e, [=](const double* in) {
                       const RayAabbHit h = fn(vec_as<T>(in + kOrg), vec_as<T>(in + kDir), box_as<T>(in + kBox), tmax);
                       if (!h.hit) return Answer{0, {0, 0, 0, 0, 0}};
                       return Answer{1, {h.t_enter, h.t_exit, h.normal[0], h.normal[1], h.normal[2]}};
                   }};
    k.precision = precision_of<T>();
    k.conventions = std::move(conventions);
    return k;
}

RayAabbHit woo(const Vec3f& o, const Vec3f& d, const Aabb& b, double tmax) { return ray_aabb_woo(o, d, b, tmax); }
RayAabbHit robust(const Vec3f& o, const Vec3f& d, const Aabb& b, double tmax) {
    return ray_aabb_robust(o, d, b, tmax);
}

/// Planted bug: seed 001's check of the entry point against the other slabs,
/// at the rounded entry parameter (what ray_aabb_woo did first).
RayAabbHit woo_point_check(const Vec3f& o, const Vec3f& d, const Aabb& b, double tmax) {
    RayAabbHit r = ray_aabb_woo(o, d, b, tmax);
    if (!r.hit) return r;
    for (int j = 0; j < 3; ++j) {
        if (r.normal[j] != 0 || d[j] == 0) continue;
        const double p = o[j] + r.t_enter * double(d[j]);
        if (p < b.lo[j] || p > b.hi[j]) return RayAabbHit{};
    }
    return r;
}

/// Planted bug: VTK's vtkBox::IntersectBox (tolerance 0), in double as VTK
/// computes: one candidate plane per axis, the parameter of the slab entered
/// last, and the entry point o + t d compared against the other slabs. A
/// query entering exactly through an edge or a corner along a direction whose
/// quotient is inexact lands a rounding outside and is missed: org -1 -1 0.5,
/// delta 49 49 0 against the unit box gives -1 + fl(1/49) 49 < 0. Declared
/// conservative, as a picking test must be (never a false miss); its numbers
/// are Woo's where Woo hits.
template <class T>
RayAabbHit single_plane_entry(const std::array<T, 3>& o, const std::array<T, 3>& d, const BasicAabb<T>& b, double tmax) {
    int plane = -1;
    double t = -1, candidate[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        if (o[i] < b.lo[i]) candidate[i] = b.lo[i];
        else if (o[i] > b.hi[i]) candidate[i] = b.hi[i];
        else continue;
        const double ti = d[i] != 0 ? (candidate[i] - double(o[i])) / double(d[i]) : -1.0;
        if (plane < 0 || ti > t) {
            plane = i;
            t = ti;
        }
    }
    if (plane >= 0) {  // the origin is outside
        if (t < 0 || t > tmax) return RayAabbHit{};
        for (int j = 0; j < 3; ++j) {
            if (j == plane) continue;
            const double p = double(o[j]) + t * double(d[j]);
            if (p < b.lo[j] || p > b.hi[j]) return RayAabbHit{};
        }
    }
    RayAabbHit r = ray_aabb_woo(o, d, b, tmax);
    if (r.hit) return r;
    r.hit = true;  // Woo misses within rounding where this hits: its entry, and no farther
    r.t_enter = r.t_exit = plane >= 0 ? t : 0;
    if (plane >= 0) r.normal[size_t(plane)] = d[size_t(plane)] > 0 ? -1.0f : 1.0f;
    return r;
}

/// Planted bug: the textbook slab test that divides by d and takes min and
/// max with std::min/std::max: 0 x inf = NaN on a slab plane poisons them.
RayAabbHit naive_slab(const Vec3f& o, const Vec3f& d, const Aabb& b, double tmax) {
    RayAabbHit r;
    float t0 = 0, t1 = float(tmax);
    int axis = -1;
    for (int i = 0; i < 3; ++i) {
        const float inv = 1.0f / d[i];
        const float ta = (b.lo[i] - o[i]) * inv, tb = (b.hi[i] - o[i]) * inv;
        if (std::min(ta, tb) > t0) axis = i;
        t0 = std::max(t0, std::min(ta, tb));
        t1 = std::min(t1, std::max(ta, tb));
    }
    if (!(t0 <= t1)) return r;
    r.hit = true;
    r.t_enter = t0;
    r.t_exit = t1;
    if (axis >= 0) r.normal[axis] = d[axis] > 0 ? -1.0f : 1.0f;
    return r;
}

/// Woo's method with the entry normal pointing along d: what the
/// `inward_normal` convention asks, and a planted bug without it.
RayAabbHit normal_inward(const Vec3f& o, const Vec3f& d, const Aabb& b, double tmax) {
    RayAabbHit r = ray_aabb_woo(o, d, b, tmax);
    for (float& x : r.normal) x = -x;
    return r;
}

/// Planted bug: an exit parameter that forgets tmax.
RayAabbHit exit_ignores_tmax(const Vec3f& o, const Vec3f& d, const Aabb& b, double tmax) {
    RayAabbHit r = ray_aabb_woo(o, d, b, tmax);
    if (r.hit) r.t_exit = ray_aabb_woo(o, d, b, std::numeric_limits<double>::infinity()).t_exit;
    return r;
}

Inputs layout(const Vec3f& o, const Vec3f& d, const Aabb& b) {
    Inputs in = gen::fresh();
    gen::put(in, o);
    gen::put(in, d);
    gen::put(in, b);
    return in;
}

Vec3f corner(const Aabb& b, int c) { return {c & 1 ? b.hi[0] : b.lo[0], c & 2 ? b.hi[1] : b.lo[1], c & 4 ? b.hi[2] : b.lo[2]}; }

std::vector<Mix> mixes() {
    return {
        {"grid", 1, [](Source& s) { return layout(gen::grid_point(s, 4), gen::grid_point(s, 3), gen::grid_box(s, 2)); }},
        {"vertex", 1, [](Source& s) {  // aimed exactly at a corner: t = 1 there, or 1/2, or 2
             const Aabb b = gen::grid_box(s, 2);
             const Vec3f o = gen::grid_point(s, 4), c = corner(b, s.range(0, 8));
             const float scale = s.pick(1.0f, 2.0f, 0.5f);
             return layout(o, {(c[0] - o[0]) * scale, (c[1] - o[1]) * scale, (c[2] - o[2]) * scale}, b);
         }},
        // Weighted 4: the one construction where the entry parameter rounds across a
        // slab (broken:woo_point_check took 10,000 property cases at weight 1, 500 at 4).
        {"vertex_ulp", 4, [](Source& s) {  // aimed at a corner, then a face of that corner moved by an ulp:
             // two slabs entered within rounding of each other
             Aabb b = gen::grid_box(s, 2);
             const int c = s.range(0, 8);
             const Vec3f o = gen::grid_point(s, 4), p = corner(b, c);
             // A segment that goes on past the corner; 3, 1.5 and 5 make the
             // corner's parameter 1 / scale round.
             const float scale = s.pick(1.0f, 3.0f, 2.0f, 1.5f, 5.0f, 4.0f);
             const Vec3f d{(p[0] - o[0]) * scale, (p[1] - o[1]) * scale, (p[2] - o[2]) * scale};
             const size_t axis = s.range<size_t>(0, 3);
             float& face = (c >> axis) & 1 ? b.hi[axis] : b.lo[axis];
             const float to = s.coin() ? INFINITY : -INFINITY;
             for (int k = s.range(1, 3); k > 0; --k) face = std::nextafter(face, to);
             if (b.lo[axis] > b.hi[axis]) std::swap(b.lo[axis], b.hi[axis]);
             return layout(o, d, b);
         }},
        // Weighted 2: Woo's test with one candidate plane and a rounded
        // entry point (broken:single_plane_entry) misses only here.
        {"edge_reciprocal", 2, [](Source& s) {  // aimed exactly at an edge's middle or at a corner, from
             // outside on the edge's axes, along a direction whose components' reciprocals are
             // inexact (3, 7, 49, 5, 11, 13 or a random odd number, times a power of two): the
             // query enters through the edge at t = 1 / m, which rounds
             const Aabb b = gen::grid_box(s, 2);
             const int c = s.range(0, 8), along = s.range(0, 4);  // along == 3: the corner
             Vec3f p = corner(b, c), u{0, 0, 0};
             for (int i = 0; i < 3; ++i) {
                 if (i == along) {
                     p[size_t(i)] = 0.5f * (b.lo[size_t(i)] + b.hi[size_t(i)]);
                     u[size_t(i)] = s.pick(0.0f, 0.25f, -0.25f);
                 } else {
                     u[size_t(i)] = ((c >> i) & 1 ? 1.0f : -1.0f) * s.pick(1.0f, 2.0f, 0.5f, 3.0f);
                 }
             }
             const float odd = s.coin() ? s.pick(3.0f, 7.0f, 49.0f, 5.0f, 11.0f, 13.0f) : float(2 * s.range(1, 2048) + 1);
             const float m = std::ldexp(odd, s.range(-3, 4));
             const Vec3f o{p[0] + u[0], p[1] + u[1], p[2] + u[2]};
             return layout(o, {-u[0] * m, -u[1] * m, -u[2] * m}, b);
         }},
        {"corner_graze", 1, [](Source& s) {  // through a corner from any direction: often touching the box
             // there only, entering one slab and leaving another at the same t
             const Aabb b = gen::grid_box(s, 2);
             const Vec3f c = corner(b, s.range(0, 8));
             Vec3f d = gen::grid_point(s, 3);
             if (d[0] == 0 && d[1] == 0 && d[2] == 0) d[0] = 1;
             const Vec3f o{c[0] - d[0], c[1] - d[1], c[2] - d[2]};  // at c when t = 1
             const float scale = s.pick(3.0f, 1.0f, 1.5f, 5.0f);   // then at t = 1 / scale, which rounds
             return layout(o, {d[0] * scale, d[1] * scale, d[2] * scale}, b);
         }},
        {"along_face", 1, [](Source& s) {  // in a face's plane, parallel to it: a zero (or -0) component
             const Aabb b = gen::grid_box(s, 2);
             Vec3f o = gen::grid_point(s, 4), d = gen::grid_point(s, 2);
             const size_t axis = s.range<size_t>(0, 3);
             o[axis] = s.coin() ? b.lo[axis] : b.hi[axis];
             d[axis] = s.pick(0.0f, -0.0f);
             return layout(o, d, b);
         }},
        {"axis", 1, [](Source& s) {  // axis-parallel directions, the other components +-0
             const Aabb b = gen::grid_box(s, 2);
             Vec3f d{s.pick(0.0f, -0.0f), s.pick(0.0f, -0.0f), s.pick(0.0f, -0.0f)};
             d[size_t(s.range(0, 3))] = s.pick(1.0f, -1.0f, 3.0f, -0.25f);
             return layout(gen::grid_point(s, 4), d, b);
         }},
        {"inside", 1, [](Source& s) {  // the origin in the box or on its boundary
             const Aabb b = gen::grid_box(s, 3);
             Vec3f o;
             for (int i = 0; i < 3; ++i) o[i] = s.pick(b.lo[i], b.hi[i], 0.5f * (b.lo[i] + b.hi[i]));
             return layout(o, gen::grid_point(s, 2), b);
         }},
        {"mixed_scale", 1, [](Source& s) {  // a very long query against a small box: a direction of
             // 2^40..2^56 at a box of size ~10, so the entry and exit parameters are near 2^-50
             const Aabb b = gen::grid_box(s, 4);
             Vec3f target;
             for (int i = 0; i < 3; ++i) target[i] = s.pick(b.lo[i], b.hi[i], 0.5f * (b.lo[i] + b.hi[i]));
             const Vec3f o = gen::grid_point(s, 6);
             const float big = std::ldexp(1.0f, s.range(40, 57)) * s.pick(1.0f, 3.0f, 0.75f);
             Vec3f d{(target[0] - o[0]) * big, (target[1] - o[1]) * big, (target[2] - o[2]) * big};
             d[size_t(s.range(0, 3))] += s.pick(0.0f, 1.0f, -1.0f);  // and sometimes off by a unit
             return layout(o, d, b);
         }},
        {"zero_direction", 1, [](Source& s) {  // a zero direction (a zero-length segment): the point
             // alone, inside, on the boundary or outside
             const Aabb b = gen::grid_box(s, 3);
             Vec3f o;
             for (int i = 0; i < 3; ++i) o[i] = s.pick(b.lo[i], b.hi[i], 0.5f * (b.lo[i] + b.hi[i]), b.hi[i] + 1, b.lo[i] - 0.5f);
             return layout(o, {s.pick(0.0f, -0.0f), s.pick(0.0f, -0.0f), s.pick(0.0f, -0.0f)}, b);
         }},
        {"uniform", 1, [](Source& s) {
             const int e = s.range(-8, 9);
             const Aabb b = gen::box_between({gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)},
                                             {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)});
             const Vec3f o{gen::uniform(s, e + 1), gen::uniform(s, e + 1), gen::uniform(s, e + 1)};
             // Aimed at a random point of the box, so that hits are common.
             Vec3f target;
             for (int i = 0; i < 3; ++i) target[i] = b.lo[i] + (b.hi[i] - b.lo[i]) * float(s.range(0, 5)) / 4;
             const float scale = s.pick(1.0f, 0.5f, 1.5f);
             return layout(o, {(target[0] - o[0]) * scale, (target[1] - o[1]) * scale, (target[2] - o[2]) * scale}, b);
         }},
    };
}

/// isect_ray_aabb(org, dir, lo, hi, ...) and isect_segment_aabb(org, delta,
/// lo, hi, ...): out t_enter, t_exit, normal.
template <bool Segment, class T> Answer plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    const T u = unset_value<T>();
    T t0 = u, t1 = u, n[3] = {u, u, u};
    const int r = as<int (*)(P, P, P, P, T*, T*, T*)>(fn)(in + kOrg, in + kDir, in + kBox, in + kBoxHi, &t0, &t1, n);
    return plugin_answer<T>(f, r, {t0, t1, n[0], n[1], n[2]});
}

Family make(bool segment) {
    Family f;
    f.name = segment ? "segment_aabb" : "ray_aabb";
    f.inputs = segment ? inputs_of(ref::segment_aabb_input) : inputs_of(ref::ray_aabb_input);
    f.answers = {"miss", "hit"};
    f.answer_has_values = {false, true};
    f.outputs.assign(std::begin(kValues), std::end(kValues));
    f.references = std::string("rational (the fast body on exact numbers: slabs) and cgal (") + (segment ? "Segment_3" : "Ray_3") +
                   " x Iso_cuboid_3)";
    const auto self = segment ? segment_family : ray_family;
    f.in_domain = [self](const double* in, std::string* why) {
        return all_finite(self(), in, why) && box_ordered(self(), kBox, kBoxHi, in, why);
    };
    f.truth = [self](const double* in) { return truth(self(), in); };
    f.cgal = [self](const double* in) {
        return double(ref::ray_aabb_cgal(ref::exact(vec_at(in + kOrg)), ref::exact(vec_at(in + kDir)), ref::exact(box_at(in + kBox)),
                                         is_segment(self())).hit);
    };
    f.band = band_of(ref::fast::ray_aabb_band(segment));
    f.value_error = [](const double* in, const Truth& t, const Answer& got) { return value_error(in, t, got); };
    f.deciding = [self](const double* in, const Truth&, int) { return deciding(self(), in); };
    f.fast_truth = [segment](const double* in) { return from_fast(ref::fast::ray_aabb(in, segment)); };
    f.oracle_check = [self](const double* in, const FastTruth& fast) { return oracle_check(self(), in, fast); };
    f.wrong_oracle = [segment](const double* in) { return from_wrong(ref::fast::wrong::ray_aabb(in, segment)); };
    f.feature = feature;
    f.all_kernels = [self, segment] {
        std::vector<FamilyKernel> out = {kernel<double>(self(), "woo", "tolerant=1", 2, ray_aabb_woo<double>),
                                         kernel(self(), "woo", "tolerant=1", 2, woo),
                                         kernel(self(), "robust", "conservative", 1, robust),
                                         kernel(self(), "exact", "exact", 1, ray_aabb_exact),
                                         kernel(self(), "woo_inward", "tolerant=1", 2, normal_inward, {"inward_normal"})};
        if (!segment) {
            out.push_back(kernel(self(), "slabs_line", "tolerant=1", 2, line_aabb_slabs<float>, {"line"}));
            // In double a quotient overflows where the spread of magnitudes
            // passes the doubles' range (2^231 over 2^-97): claimed inside.
            FamilyKernel in_double = kernel<double>(self(), "slabs_line", "tolerant=1", 2, line_aabb_slabs<double>, {"line"});
            in_double.domain = Domain::declared("2^-100:2^100");
            out.push_back(std::move(in_double));
        }
        return out;
    };
    f.all_broken = [self, segment] {
        std::vector<FamilyKernel> out = {kernel(self(), "broken:naive_slab_nan", "conservative", 1, naive_slab),
                                         kernel(self(), "broken:woo_point_check", "tolerant=1", 2, woo_point_check),
                                         kernel(self(), "broken:normal_inward", "tolerant=1", 2, normal_inward),
                                         kernel(self(), "broken:single_plane_entry", "conservative", 2, single_plane_entry<float>),
                                         kernel<double>(self(), "broken:single_plane_entry", "conservative", 2,
                                                        single_plane_entry<double>),
                                         kernel(self(), "broken:normal_outward", "tolerant=1", 2, woo, {"inward_normal"})};
        if (segment) out.push_back(kernel(self(), "broken:exit_ignores_tmax", "tolerant=1", 2, exit_ignores_tmax));
        // The ray's test under line: a box behind the origin is missed.
        else out.push_back(kernel(self(), "broken:line_as_ray", "tolerant=1", 2, woo, {"line"}));
        return out;
    };
    f.mixes = mixes();
    f.plugin_call_f = segment ? plugin_call<true, float> : plugin_call<false, float>;
    f.plugin_out_args = "&out[0], &out[1], out + 2";
    f.plugin_call_d = segment ? plugin_call<true, double> : plugin_call<false, double>;
    f.preconditions = {preconditions::nonzero_vector(f, "nonzero_direction", segment ? "delta" : "dir"), preconditions::positive_extent(f)};
    if (!segment) f.preconditions.push_back(preconditions::unit_vector(f, "unit_direction", "dir"));
    f.conventions = {{"inward_normal", "the entry face's normal points into the box, along d on its axis (Bullet's btRayAabb)"}};
    if (!segment)
        f.conventions.push_back({"line", "the whole line o + t d, t over all reals (d != 0): t_enter and t_exit where it enters "
                                         "and leaves the box, either may be negative, and the entered face's normal "
                                         "(a picking or clipping test on an unbounded line)"});
    f.declare = [self, segment](Family& g, const std::vector<std::string>&, const std::vector<std::string>& conventions) {
        if (conventions.empty()) return;
        const auto has = [&](const char* c) { return std::find(conventions.begin(), conventions.end(), c) != conventions.end(); };
        const bool inward = has("inward_normal"), line = has("line");
        if (line) {
            lines_only(g, kDir);
            g.band = band_of(ref::fast::ray_aabb_line_band());
            g.deciding = [self](const double* in, const Truth&, int) { return deciding(self(), in, true); };
        }
        g.truth = [self, inward, line](const double* in) { return truth(self(), in, inward, line); };
        g.value_error = [inward, line](const double* in, const Truth& t, const Answer& got) {
            return value_error(in, t, got, inward, line);
        };
        g.fast_truth = [segment, inward, line](const double* in) -> std::optional<FastTruth> {
            std::optional<FastTruth> t = from_fast(line ? ref::fast::ray_aabb_line(in) : ref::fast::ray_aabb(in, segment));
            if (t && inward) turned_inward(t->lo, t->hi);
            return t;
        };
        g.oracle_check = [self, inward, line](const double* in, const FastTruth& fast) {
            FastTruth outward = fast;
            if (inward) turned_inward(outward.lo, outward.hi);  // back outward: the same check
            return oracle_check(self(), in, outward, line);
        };
        g.wrong_oracle = [segment, inward, line](const double* in) {
            FastTruth t = from_wrong(line ? ref::fast::wrong::ray_aabb_line(in) : ref::fast::wrong::ray_aabb(in, segment));
            if (inward) turned_inward(t.lo, t.hi);
            return t;
        };
    };
    return f;
}

const Family& ray_family() {
    static const Family f = make(false);
    return f;
}

const Family& segment_family() {
    static const Family f = make(true);
    return f;
}

}  // namespace

const Family& ray_aabb_family() { return ray_family(); }
const Family& segment_aabb_family() { return segment_family(); }

}  // namespace isect::check
