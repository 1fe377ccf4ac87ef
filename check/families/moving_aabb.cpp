// The moving_aabb and moving_aabb_plane families: first time of contact of a
// moving box with a stationary box (t in [0, 1]) and with a plane (t >= 0).

#include "family_common.hpp"
#include "slab_scale.hpp"
#include "check/model/plugin_call.hpp"
#include "check/model/generate.hpp"
#include "isect/moving_aabb.hpp"
#include "isect/ref/moving_aabb.hpp"

namespace isect::check {

namespace {

using namespace detail;
using ref::Rational;

const Family& box_family();
const Family& plane_family();

// The inputs, by key (isect/ref/moving_aabb.hpp): offsets derived, never
// written. box_at reads a box's lo and hi as adjacent keys.
constexpr auto& kBoxInput = ref::moving_aabb_input;
constexpr size_t kS = kBoxInput.at("stationary.lo"), kSHi = kBoxInput.at("stationary.hi");
constexpr size_t kM = kBoxInput.at("moving.lo"), kMHi = kBoxInput.at("moving.hi"), kD = kBoxInput.at("d");
static_assert(kSHi == kS + 3 && kMHi == kM + 3);
constexpr auto& kPlaneInput = ref::moving_aabb_plane_input;
constexpr size_t kLo = kPlaneInput.at("box.lo"), kHi = kPlaneInput.at("box.hi"), kN = kPlaneInput.at("n");
constexpr size_t kOffset = kPlaneInput.at("d"), kDir = kPlaneInput.at("dir");
static_assert(kHi == kLo + 3);

std::string contact_str(const std::optional<Rational>& t) { return t ? "contact at " + t->str() : "no contact"; }

Truth from(const std::string& name, const std::optional<Rational>& q, const std::optional<Rational>& g) {
    if (q != g) throw ReferenceMismatch(name + " references disagree: rational says " + contact_str(q) + ", cgal says " + contact_str(g));
    Truth t;
    t.answer = yes(q.has_value());
    if (q) t.values = {ref::to_double(*q)};
    return t;
}

// --- box vs box -----------------------------------------------------------------

Truth box_truth(const double* in) {
    const ref::ExactAabb s = ref::exact(box_at(in + kS)), m = ref::exact(box_at(in + kM));
    const ref::Point d = ref::exact(vec_at(in + kD));
    return from("moving_aabb", ref::moving_aabb_rational(in), ref::moving_aabb_cgal(s, m, d));
}

/// t over its condition scale: the contact time is a slab entry of the
/// Minkowski difference, t_i = (s_face - m_face) / d_i, each candidate
/// moving by (the four faces' magnitudes on that axis) / |d_i| + |t_i|
/// units of u when every input moves by its own ulp (slab_extremum_scale).
/// Not over |t|: at a contact at t = 0 a t of one rounding was infinitely
/// many units.
ValueError box_value_error(const double* in, const Truth& truth, const Answer& got) {
    const double* s = in + kS;  // the stationary box: lo s[0..2], hi s[3..5]
    const double* m = in + kM;  // the moving box
    const double* d = in + kD;
    SlabCandidate entries[3];
    int n = 0;
    for (int i = 0; i < 3; ++i) {
        if (d[i] == 0) continue;
        // Entering D = [s.lo - m.hi, s.hi - m.lo] along d from the origin.
        const double s_face = d[i] > 0 ? s[i] : s[3 + i], m_face = d[i] > 0 ? m[3 + i] : m[i];
        SlabCandidate c;
        c.t = (s_face - m_face) / d[i];
        c.scale = (std::fabs(s[i]) + std::fabs(s[3 + i]) + std::fabs(m[i]) + std::fabs(m[3 + i])) / std::fabs(d[i]) +
                  std::fabs(c.t);
        entries[n++] = c;
    }
    ValueError e;
    worst(e, units(got.values[0], truth.values[0], slab_extremum_scale(truth.values[0], entries, n)), "t");
    return e;
}

/// What decides, from the body on exact numbers: the contact time (touching
/// at the start, the first contact at t = 1, or inside (0, 1)); for no
/// contact, the slab test that said so (an axis the motion never closes, d =
/// 0 there and apart), or "passes by".
std::string box_deciding(const double* in, const Truth& truth, int) {
    if (truth.answer == 1) {
        const auto t = ref::moving_aabb_rational(in);
        return *t == 0 ? "in contact at the start" : *t == 1 ? "first contact at t = 1" : "first contact inside (0, 1)";
    }
    if (ref::moving_aabb_verdict(in) == ref::SlabVerdict::parallel_outside) return "apart on an axis it does not move along";
    return "passes by, or stops short";
}

/// The smallest nonzero displacement component or box extent.
double box_feature(const double* in) {
    double m = 0;
    for (int i = 0; i < 3; ++i)
        for (double x : {std::fabs(double(in[kD + i])), double(in[kSHi + i]) - in[kS + i], double(in[kMHi + i]) - in[kM + i]})
            if (x > 0 && (m == 0 || x < m)) m = x;
    return m;
}

using BoxFn = Contact (*)(const Aabb&, const Aabb&, const Vec3f&);

FamilyKernel box_kernel(const std::string& name, const std::string& contract, BoxFn fn) {
    return {name, *Contract::parse(contract), 2, [fn](const double* in) {
                const Contact c = fn(box_f(in + kS), box_f(in + kM), vec_f(in + kD));
                return Answer{yes(c.hit), {c.t}};
            }};
}

/// Planted bug: seed 001's intersectMovingAABB, faithfully, in float. Its
/// last axis checks zEnter > zLeave instead of tEnter > tLeave, so when the
/// z gap is closed only after the x or y gap has reopened, it still "hits"
/// at the z entry time.
Contact seed_z_check(const Aabb& s, const Aabb& m, const Vec3f& d) {
    float t_enter = 0, t_leave = 1;
    for (int i = 0; i < 3; ++i) {
        if (d[i] == 0) {
            if (s.lo[i] > m.hi[i] || m.lo[i] > s.hi[i]) return {};
            continue;
        }
        const float inv = 1.0f / d[i];
        float enter = (s.lo[i] - m.hi[i]) * inv, leave = (s.hi[i] - m.lo[i]) * inv;
        if (enter > leave) std::swap(enter, leave);
        if (enter > t_enter) t_enter = enter;
        if (leave < t_leave) t_leave = leave;
        if (i < 2 ? t_enter > t_leave : enter > leave) return {};
    }
    return {t_enter <= 1, t_enter};  // the seed returns a value above 1 for "no contact"
}

/// Planted bug: contact only when the boxes overlap strictly, so boxes that
/// first touch at t = 1 (or touch at the start) miss.
Contact strict_contact(const Aabb& s, const Aabb& m, const Vec3f& d) {
    double t0 = 0, t1 = 1;
    for (int i = 0; i < 3; ++i) {
        const double lo = double(s.lo[i]) - m.hi[i], hi = double(s.hi[i]) - m.lo[i];
        if (d[i] == 0) {
            if (!(lo < 0 && 0 < hi)) return {};
            continue;
        }
        double ta = lo / d[i], tb = hi / d[i];
        if (ta > tb) std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (!(t0 < t1)) return {};
    }
    return {true, t0};
}

Inputs box_layout(const Aabb& s, const Aabb& m, const Vec3f& d) {
    Inputs in = gen::fresh();
    gen::put(in, s);
    gen::put(in, m);
    gen::put(in, d);
    return in;
}

std::vector<Mix> box_mixes() {
    return {
        {"grid", 1, [](Source& s) { return box_layout(gen::grid_box(s, 3), gen::grid_box(s, 3), gen::grid_point(s, 6)); }},
        {"touch_end", 1, [](Source& s) {  // first contact exactly at t = 1, or at t = 1/2
             const Aabb st = gen::grid_box(s, 3), m = gen::grid_box(s, 3);
             Vec3f d = gen::grid_point(s, 2);
             const size_t axis = s.range<size_t>(0, 3);
             const float scale = s.pick(1.0f, 2.0f);
             d[axis] = s.coin() ? (st.lo[axis] - m.hi[axis]) * scale : (st.hi[axis] - m.lo[axis]) * scale;
             return box_layout(st, m, d);
         }},
        {"touch_start", 1, [](Source& s) {  // touching at t = 0, moving apart, along, or into
             const Aabb st = gen::grid_box(s, 3);
             Aabb m = gen::grid_box(s, 3);
             const size_t axis = s.range<size_t>(0, 3);
             const float w = m.hi[axis] - m.lo[axis];
             m.lo[axis] = st.hi[axis];
             m.hi[axis] = st.hi[axis] + w;
             Vec3f d = gen::grid_point(s, 3);
             if (s.coin()) d[axis] = s.pick(0.0f, -0.0f);
             return box_layout(st, m, d);
         }},
        {"edge_reciprocal", 1, [](Source& s) {  // an edge or a corner of the moving box meets one of the
             // stationary box's exactly at t = 1 / m, m = 3, 7, 49, 5, 11, 13 or a random odd
             // number times a power of two: gaps closed on two or three axes at once, at a
             // parameter no float or double holds
             const Aabb st = gen::grid_box(s, 3);
             Aabb m = gen::grid_box(s, 3);
             const float odd = s.coin() ? s.pick(3.0f, 7.0f, 49.0f, 5.0f, 11.0f, 13.0f) : float(2 * s.range(1, 2048) + 1);
             const float scale = std::ldexp(odd, s.range(-3, 4));
             const int along = s.range(0, 4);  // the axis they overlap on; 3: a corner
             Vec3f d{0, 0, 0};
             for (size_t i = 0; i < 3; ++i) {
                 if (int(i) == along) {
                     d[i] = s.pick(0.0f, 0.25f, -0.25f);
                     continue;
                 }
                 const float w = m.hi[i] - m.lo[i], gap = s.pick(1.0f, 2.0f, 0.5f, 3.0f);
                 if (s.coin()) {  // above the stationary box, moving down
                     m.lo[i] = st.hi[i] + gap;
                     m.hi[i] = m.lo[i] + w;
                     d[i] = -gap * scale;
                 } else {
                     m.hi[i] = st.lo[i] - gap;
                     m.lo[i] = m.hi[i] - w;
                     d[i] = gap * scale;
                 }
             }
             return box_layout(st, m, d);
         }},
        {"near_parallel", 1, [](Source& s) {  // sliding almost along a face: the approach component is
             // 2^-20..2^-40 of the motion, so contact on that axis comes at a t near 1 or never
             const Aabb st = gen::grid_box(s, 3);
             Aabb m = gen::grid_box(s, 3);
             const size_t axis = s.range<size_t>(0, 3);
             const float gap = s.pick(1.0f, 0.5f, 0.0f);
             const float w = m.hi[axis] - m.lo[axis];
             m.lo[axis] = st.hi[axis] + gap;
             m.hi[axis] = m.lo[axis] + w;
             Vec3f d = gen::grid_point(s, 3);
             d[axis] = -gap * s.pick(1.0f, 1.0f + 0x1p-20f, 1.0f - 0x1p-20f) + s.pick(0.0f, -std::ldexp(1.0f, -s.range(20, 41)));
             return box_layout(st, m, d);
         }},
        {"uniform", 1, [](Source& s) {
             const int e = s.range(-8, 9);
             const auto box = [e, &s] {
                 return gen::box_between({gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)},
                                         {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)});
             };
             return box_layout(box(), box(), {gen::uniform(s, e + 1), gen::uniform(s, e + 1), gen::uniform(s, e + 1)});
         }},
    };
}

// --- box vs plane ------------------------------------------------------------------

Truth plane_truth(const double* in) {
    const ref::ExactAabb b = ref::exact(box_at(in + kLo));
    const ref::ExactPlane p = ref::exact_plane(in);
    const ref::Point dir = ref::exact(vec_at(in + kDir));
    return from("moving_aabb_plane", ref::moving_aabb_plane_rational(in), ref::moving_aabb_plane_cgal(b, p, dir));
}

/// t within E 2^-24 (A + |t| B) / |s| (core/isect/moving_aabb.hpp).
ValueError plane_value_error(const double* in, const Truth& truth, const Answer& got) {
    double a = std::fabs(double(in[kOffset])), b = 0, s = 0;
    for (int i = 0; i < 3; ++i) {
        a += std::fabs(double(in[kN + i])) * std::max(std::fabs(double(in[kLo + i])), std::fabs(double(in[kHi + i])));
        b += std::fabs(double(in[kN + i]) * in[kDir + i]);
        s += double(in[kN + i]) * in[kDir + i];
    }
    const double t = truth.values[0];
    const double scale = (a + std::fabs(t) * b) / std::fabs(s);
    ValueError e;
    worst(e, units(got.values[0], t, std::max(scale, least_normal())), "t");
    return e;
}

/// What decides: the box touching or crossing the plane at the start, the
/// motion parallel to the plane (n . dir = 0), towards it or away from it.
std::string plane_deciding(const double* in, const Truth&, int) {
    const ref::ExactPlane p = ref::exact_plane(in);
    Rational lo, hi;
    ref::aabb_plane_margins(in, lo, hi);
    if (lo == 0 || hi == 0) return "touching the plane at the start";
    if (lo < 0 && hi > 0) return "crossing the plane at the start";
    const Rational s = ref::dot(p.n, ref::exact(vec_at(in + kDir)));
    if (s == 0) return "moving parallel to the plane";
    return (lo > 0) == (s < 0) ? "moving towards the plane" : "moving away from the plane";
}

/// The smallest nonzero normal or direction component, or box extent.
double plane_feature(const double* in) {
    double m = 0;
    for (int i = 0; i < 3; ++i)
        for (double x : {std::fabs(double(in[kN + i])), std::fabs(double(in[kDir + i])), double(in[kHi + i]) - in[kLo + i]})
            if (x > 0 && (m == 0 || x < m)) m = x;
    return m;
}

using PlaneFn = Contact (*)(const Aabb&, const Plane&, const Vec3f&);

FamilyKernel plane_kernel(const std::string& name, const std::string& contract, PlaneFn fn) {
    return {name, *Contract::parse(contract), 1, [fn](const double* in) {
                const Contact c = fn(box_f(in + kLo), Plane{vec_f(in + kN), float(in[kOffset])}, vec_f(in + kDir));
                return Answer{yes(c.hit), {c.t}};
            }};
}

/// Planted bug: seed 001's intersectPlane: only a box in front of the plane
/// moving against n makes contact, so a box behind it moving towards it, or
/// one already touching while moving away, never does.
Contact seed_front_only(const Aabb& box, const Plane& p, const Vec3f& dir) {
    double dot = 0, min_d = 0, max_d = 0;
    for (int i = 0; i < 3; ++i) {
        dot += double(p.n[i]) * dir[i];
        const double lo = double(p.n[i]) * box.lo[i], hi = double(p.n[i]) * box.hi[i];
        min_d += p.n[i] > 0 ? lo : hi;
        max_d += p.n[i] > 0 ? hi : lo;
    }
    if (dot >= 0) return {};
    if (max_d < p.d) return {};
    if (min_d < p.d) return {true, 0};
    return {true, (p.d - min_d) / dot};
}

/// Planted bug: the contact time taken from the far corner instead of the
/// near one.
Contact far_corner(const Aabb& box, const Plane& p, const Vec3f& dir) {
    Contact c = moving_aabb_plane_contact(box, p, dir);
    if (!c.hit || c.t == 0) return c;
    double a = -double(p.d), b = -double(p.d), s = 0;
    for (int i = 0; i < 3; ++i) {
        const double lo = double(p.n[i]) * box.lo[i], hi = double(p.n[i]) * box.hi[i];
        a += p.n[i] > 0 ? lo : hi;
        b += p.n[i] > 0 ? hi : lo;
        s += double(p.n[i]) * dir[i];
    }
    c.t = a > 0 ? b / -s : -a / s;
    return c;
}

Inputs plane_layout(const Aabb& b, const Vec3f& n, float d, const Vec3f& dir) {
    Inputs in = gen::fresh();
    gen::put(in, b);
    gen::put(in, n);
    in.push_back(d);
    gen::put(in, dir);
    return in;
}

Vec3f nonzero(Source& s, Vec3f n) {
    if (n[0] == 0 && n[1] == 0 && n[2] == 0) n[size_t(s.range(0, 3))] = 1;
    return n;
}

std::vector<Mix> plane_mixes() {
    return {
        {"grid", 1, [](Source& s) { return plane_layout(gen::grid_box(s, 3), nonzero(s, gen::grid_point(s, 2)), gen::grid(s, 6), gen::grid_point(s, 2)); }},
        {"touch_start", 1, [](Source& s) {  // the plane through a corner at t = 0
             const Aabb b = gen::grid_box(s, 3);
             const Vec3f n = nonzero(s, gen::grid_point(s, 2));
             const int c = s.range(0, 8);
             float d = 0;
             for (int i = 0; i < 3; ++i) d += n[i] * ((c >> i) & 1 ? b.hi[i] : b.lo[i]);
             return plane_layout(b, n, d, gen::grid_point(s, 2));
         }},
        {"parallel", 1, [](Source& s) {  // moving parallel to the plane: n . dir = 0
             const Aabb b = gen::grid_box(s, 3);
             const Vec3f n = nonzero(s, gen::grid_point(s, 2));
             const Vec3f dir{n[1], -n[0], s.pick(0.0f, -0.0f)};
             return plane_layout(b, n, gen::grid(s, 6), dir);
         }},
        {"near_parallel", 1, [](Source& s) {  // moving almost parallel to the plane: n . dir of 2^-20..2^-60,
             // so the contact time is huge (up to 2^60) or the box never arrives
             const Aabb b = gen::grid_box(s, 3);
             const Vec3f n = nonzero(s, gen::grid_point(s, 2));
             Vec3f dir{n[1], -n[0], s.pick(0.0f, -0.0f)};
             if (dir[0] == 0 && dir[1] == 0) dir = {0, n[2], -n[1]};
             const size_t axis = s.range<size_t>(0, 3);
             dir[axis] += s.pick(1.0f, -1.0f) * std::ldexp(1.0f, -s.range(20, 61));
             return plane_layout(b, n, gen::grid(s, 6), dir);
         }},
        {"axis", 1, [](Source& s) {  // axis normals and unit directions, as seed 001 assumes
             const Aabb b = gen::grid_box(s, 3);
             Vec3f n{0, 0, 0}, dir{0, 0, 0};
             n[size_t(s.range(0, 3))] = s.pick(1.0f, -1.0f);
             dir[size_t(s.range(0, 3))] = s.pick(1.0f, -1.0f);
             return plane_layout(b, n, gen::grid(s, 5), dir);
         }},
        {"uniform", 1, [](Source& s) {
             const int e = s.range(-8, 9);
             const Aabb b = gen::box_between({gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)},
                                             {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)});
             return plane_layout(b, nonzero(s, {gen::uniform(s, 0), gen::uniform(s, 0), gen::uniform(s, 0)}), gen::uniform(s, e + 1),
                                 {gen::uniform(s, 0), gen::uniform(s, 0), gen::uniform(s, 0)});
         }},
    };
}

/// isect_moving_aabb(stationary.lo, stationary.hi, moving.lo, moving.hi, d, out t).
template <class T> Answer box_plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    T t = unset_value<T>();
    const int r = as<int (*)(P, P, P, P, P, T*)>(fn)(in + kS, in + kSHi, in + kM, in + kMHi, in + kD, &t);
    return plugin_answer<T>(f, r, {t});
}

/// isect_moving_aabb_plane(box.lo, box.hi, n, d, dir, out t).
template <class T> Answer plane_plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    T t = unset_value<T>();
    const int r = as<int (*)(P, P, P, T, P, T*)>(fn)(in + kLo, in + kHi, in + kN, in[kOffset], in + kDir, &t);
    return plugin_answer<T>(f, r, {t});
}

Family make_box() {
    Family f;
    f.name = "moving_aabb";
    f.inputs = inputs_of(kBoxInput);
    f.answers = {"miss", "hit"};
    f.answer_has_values = {false, true};
    f.outputs = {"t"};
    f.references = "rational (the fast body on exact numbers: slabs on the Minkowski difference) and cgal (Segment_3 x Iso_cuboid_3)";
    f.in_domain = [](const double* in, std::string* why) {
        return all_finite(box_family(), in, why) && box_ordered(box_family(), kS, kSHi, in, why) &&
               box_ordered(box_family(), kM, kMHi, in, why);
    };
    f.truth = box_truth;
    f.cgal = [](const double* in) {
        return double(ref::moving_aabb_cgal(ref::exact(box_at(in + kS)), ref::exact(box_at(in + kM)), ref::exact(vec_at(in + kD))).has_value());
    };
    f.band = band_of(ref::fast::moving_aabb_band());
    f.value_error = box_value_error;
    f.deciding = box_deciding;
    f.feature = box_feature;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::moving_aabb(in)); };
    f.oracle_check = [](const double* in, const FastTruth& fast) {
        const auto t = ref::moving_aabb_rational(in);
        std::string why = check_answer(box_family(), fast, yes(t.has_value()));
        if (why.empty() && t) why = check_enclosure("t", fast.lo[0], fast.hi[0], *t);
        return why;
    };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::moving_aabb(in)); };
    f.all_kernels = [] { return std::vector<FamilyKernel>{box_kernel("slabs", "tolerant=1", moving_aabb_contact)}; };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{box_kernel("broken:seed_z_check", "tolerant=1", seed_z_check),
                                         box_kernel("broken:strict_contact", "exact", strict_contact)};
    };
    f.mixes = box_mixes();
    f.plugin_call_f = box_plugin_call<float>;
    f.plugin_out_args = "&out[0]";
    f.plugin_call_d = box_plugin_call<double>;
    f.preconditions = {preconditions::positive_extent(f), preconditions::nonzero_vector(f, "nonzero_direction", "d")};
    return f;
}

Family make_plane() {
    Family f;
    f.name = "moving_aabb_plane";
    f.inputs = inputs_of(kPlaneInput);
    f.answers = {"miss", "hit"};
    f.answer_has_values = {false, true};
    f.outputs = {"t"};
    f.references = "rational (the fast body on exact numbers: margins and n . dir) and cgal (Plane_3, corner rays)";
    f.in_domain = [](const double* in, std::string* why) {
        return all_finite(plane_family(), in, why) && box_ordered(plane_family(), kLo, kHi, in, why) &&
               nonzero3(in, kN, why, "n: '0 0 0' is outside the domain of moving_aabb_plane (n = 0 is no plane)");
    };
    f.truth = plane_truth;
    f.cgal = [](const double* in) {
        return double(ref::moving_aabb_plane_cgal(ref::exact(box_at(in + kLo)), ref::exact_plane(in), ref::exact(vec_at(in + kDir))).has_value());
    };
    f.band = band_of(ref::fast::moving_aabb_plane_band());
    f.value_error = plane_value_error;
    f.deciding = plane_deciding;
    f.feature = plane_feature;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::moving_aabb_plane(in)); };
    f.oracle_check = [](const double* in, const FastTruth& fast) {
        const auto t = ref::moving_aabb_plane_rational(in);
        std::string why = check_answer(plane_family(), fast, yes(t.has_value()));
        if (why.empty() && t) why = check_enclosure("t", fast.lo[0], fast.hi[0], *t);
        return why;
    };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::moving_aabb_plane(in)); };
    f.all_kernels = [] { return std::vector<FamilyKernel>{plane_kernel("contact", "tolerant=1", moving_aabb_plane_contact)}; };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{plane_kernel("broken:seed_front_only", "tolerant=1", seed_front_only),
                                         plane_kernel("broken:far_corner", "tolerant=1", far_corner)};
    };
    f.mixes = plane_mixes();
    f.plugin_call_f = plane_plugin_call<float>;
    f.plugin_out_args = "&out[0]";
    f.plugin_call_d = plane_plugin_call<double>;
    f.preconditions = {preconditions::positive_extent(f), preconditions::nonzero_vector(f, "nonzero_normal", "n"),
                       preconditions::unit_vector(f, "unit_normal", "n"), preconditions::nonzero_vector(f, "nonzero_direction", "dir")};
    return f;
}

const Family& box_family() {
    static const Family f = make_box();
    return f;
}

const Family& plane_family() {
    static const Family f = make_plane();
    return f;
}

}  // namespace

const Family& moving_aabb_family() { return box_family(); }
const Family& moving_aabb_plane_family() { return plane_family(); }

}  // namespace isect::check
