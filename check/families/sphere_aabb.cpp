// The sphere_aabb family: closed ball vs closed box, with the centre's
// containment and the box's nearest point to it as the numbers.

#include "family_common.hpp"
#include "check/model/plugin_call.hpp"
#include "check/model/generate.hpp"
#include "isect/ref/sphere_aabb.hpp"
#include "isect/sphere_aabb.hpp"

namespace isect::check {

namespace {

using namespace detail;
using ref::Rational;

const Family& self();

// The input, by key (isect/ref/sphere_aabb.hpp): offsets derived, never written.
constexpr auto& kInput = ref::sphere_aabb_input;
constexpr size_t kBox = kInput.at("box.lo"), kBoxHi = kInput.at("box.hi"), kC = kInput.at("c"), kR = kInput.at("r");
static_assert(kBoxHi == kBox + 3);

const char* const kValues[] = {"closest.x", "closest.y", "closest.z", "contains"};

Truth truth(const double* in) {
    const ref::ExactAabb b = ref::exact(box_at(in + kBox));
    const ref::Point c = ref::exact(vec_at(in + kC));
    const Rational r = ref::exact(in[kR]);
    const ref::SphereAabbExact q = ref::sphere_aabb_rational(in), g = ref::sphere_aabb_cgal(b, c, r);
    if (q.overlap != g.overlap || q.contains != g.contains || q.dist2 != g.dist2)
        throw ReferenceMismatch(std::string("sphere_aabb references disagree: rational says ") +
                                (q.overlap ? "overlap" : "disjoint") + " at squared distance " + q.dist2.str() +
                                ", cgal says " + (g.overlap ? "overlap" : "disjoint") + " at " + g.dist2.str());
    Truth t;
    t.answer = yes(q.overlap);
    for (const Rational& x : q.closest) t.values.push_back(ref::to_double(x));
    t.values.push_back(q.contains ? 1 : 0);
    return t;
}

/// Closest point and containment are exact: S = M makes any difference show.
ValueError value_error(const double* in, const Truth& truth, const Answer& got) {
    ValueError e;
    const double m = largest_magnitude(in, kInput.size());
    for (size_t i = 0; i < 4; ++i) worst(e, units(got.values[i], truth.values[i], i < 3 ? m : 0), kValues[i]);
    return e;
}

/// What decides: the centre in the box, or outside it with the ball tangent
/// to the box or not.
std::string deciding(const double* in, const Truth&, int) {
    // Which faces the nearest point lies on: below the box on an axis the
    // nearest is on a lo face, above it on a hi face (a kernel that takes
    // the far face fails on one side only, and its class says which).
    bool below = false, above = false;
    for (int i = 0; i < 3; ++i) {
        below = below || in[kC + i] < in[kBox + i];
        above = above || in[kC + i] > in[kBoxHi + i];
    }
    if (!below && !above) return "centre in the box";
    const ref::SphereAabbExact q = ref::sphere_aabb_rational(in);
    const Rational r = ref::exact(in[kR]);
    const std::string side = below && above ? "below the box on one axis, above on another (nearest on lo and hi faces)"
                             : below       ? "below the box (nearest on a lo face)"
                                           : "above the box (nearest on a hi face)";
    return std::string(q.dist2 == r * r ? "tangent, centre " : "centre ") + side;
}

/// The smallest nonzero radius or box extent.
double feature(const double* in) {
    double m = in[kR] > 0 ? double(in[kR]) : 0;
    for (int i = 0; i < 3; ++i) {
        const double x = double(in[kBoxHi + i]) - in[kBox + i];
        if (x > 0 && (m == 0 || x < m)) m = x;
    }
    return m;
}

using OverlapFn = bool (*)(const Aabb&, const Vec3f&, float);
using ClosestFn = Vec3f (*)(const Aabb&, const Vec3f&);

FamilyKernel kernel(const std::string& name, const std::string& contract, OverlapFn overlap,
                    ClosestFn closest = aabb_closest_point) {
    return {name, *Contract::parse(contract), 0, [=](const double* in) {
                const Aabb b = box_f(in + kBox);
                const Vec3f c = vec_f(in + kC);
                const Vec3f q = closest(b, c);
                return Answer{yes(overlap(b, c, float(in[kR]))), {q[0], q[1], q[2], aabb_contains(b, c) ? 1.0 : 0.0}};
            }};
}

/// Planted bug: seed 001's arithmetic in float (with <= so that touching is
/// not the issue): squares underflow to 0 for inputs near 2^-70.
bool overlap_in_float(const Aabb& b, const Vec3f& c, float r) {
    const Vec3f q = aabb_closest_point(b, c);
    float d2 = 0;
    for (int i = 0; i < 3; ++i) d2 += (c[i] - q[i]) * (c[i] - q[i]);
    return d2 <= r * r;
}

/// Planted bug: the squared distance compared with r, not r^2.
bool overlap_radius_not_squared(const Aabb& b, const Vec3f& c, float r) {
    const Vec3f q = aabb_closest_point(b, c);
    double d2 = 0;
    for (int i = 0; i < 3; ++i) d2 += (double(c[i]) - q[i]) * (double(c[i]) - q[i]);
    return d2 <= r;
}

/// Planted bug: below lo the point is clamped to hi.
Vec3f closest_wrong_face(const Aabb& b, const Vec3f& p) {
    Vec3f q = aabb_closest_point(b, p);
    for (int i = 0; i < 3; ++i)
        if (p[i] < b.lo[i]) q[i] = b.hi[i];
    return q;
}

Inputs layout(const Aabb& b, const Vec3f& c, float r) {
    Inputs in;
    gen::put(in, b);
    gen::put(in, c);
    in.push_back(r);
    return in;
}

std::vector<Mix> mixes() {
    return {
        {"grid", 1, [](Source& s) { return layout(gen::grid_box(s, 3), gen::grid_point(s, 5), float(s.range(0, 6))); }},
        {"tangent", 1, [](Source& s) {  // the ball touches a face, an edge or a corner exactly
             const Aabb b = gen::grid_box(s, 3);
             // Offsets whose length is an integer: a face (0,0,1), edges (3,4,0),
             // corners (1,2,2), (2,3,6).
             static const float offsets[][4] = {{0, 0, 1, 1}, {3, 4, 0, 5}, {1, 2, 2, 3}, {2, 3, 6, 7}};
             const auto& o = offsets[s.range(0, 4)];
             const int perm = s.range(0, 3);
             const float scale = s.pick(1.0f, 0.5f, 3.0f);
             Vec3f c;
             for (int i = 0; i < 3; ++i) {
                 const bool high = s.coin();
                 const float off = o[(i + perm) % 3] * scale;
                 c[i] = high ? b.hi[i] + off : b.lo[i] - off;
             }
             return layout(b, c, o[3] * scale);
         }},
        {"inside", 1, [](Source& s) {  // the centre in the box or on its boundary
             const Aabb b = gen::grid_box(s, 4);
             Vec3f c;
             for (int i = 0; i < 3; ++i) c[i] = s.pick(b.lo[i], b.hi[i], 0.5f * (b.lo[i] + b.hi[i]));
             return layout(b, c, float(s.range(0, 3)));
         }},
        {"uniform", 1, [](Source& s) {
             const int e = s.range(-8, 9);
             const Aabb b = gen::box_between({gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)},
                                             {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)});
             return layout(b, {gen::uniform(s, e + 1), gen::uniform(s, e + 1), gen::uniform(s, e + 1)},
                           std::fabs(gen::uniform(s, e)));
         }},
    };
}

/// isect_sphere_aabb(box.lo, box.hi, c, r, out closest, out contains).
template <class T> Answer plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    const T u = unset_value<T>();
    T q[3] = {u, u, u};
    int contains = -1;
    const int ret = as<int (*)(P, P, P, T, T*, int*)>(fn)(in + kBox, in + kBoxHi, in + kC, in[kR], q, &contains);
    // contains, an int here, is a number like the others in a batch's columns.
    return plugin_answer<T>(f, ret, {q[0], q[1], q[2], contains == -1 ? u : T(contains)});
}

Family make() {
    Family f;
    f.name = "sphere_aabb";
    f.inputs = inputs_of(kInput);
    f.answers = {"disjoint", "overlap"};
    f.answer_has_values = {true, true};
    f.outputs.assign(std::begin(kValues), std::end(kValues));
    f.references = "rational (the fast body on exact numbers: the nearest point) and cgal (Sphere_3, distances to faces)";
    f.in_domain = [](const double* in, std::string* why) {
        return all_finite(self(), in, why) && box_ordered(self(), kBox, kBoxHi, in, why) &&
               (in[kR] >= 0 || refuse(why, [&] { return "r: '" + format_number(in[kR]) + "' is outside the domain of sphere_aabb (r >= 0 required)"; }));
    };
    f.truth = truth;
    f.cgal = [](const double* in) {
        return double(ref::sphere_aabb_cgal(ref::exact(box_at(in + kBox)), ref::exact(vec_at(in + kC)), ref::exact(in[kR])).overlap);
    };
    f.band = band_of(ref::fast::sphere_aabb_band());
    f.value_error = value_error;
    f.deciding = deciding;
    f.feature = feature;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::sphere_aabb(in)); };
    f.oracle_check = [](const double* in, const FastTruth& fast) {
        const ref::SphereAabbExact q = ref::sphere_aabb_rational(in);
        std::string why = check_answer(self(), fast, yes(q.overlap));
        for (int i = 0; i < 3 && why.empty(); ++i)
            why = check_enclosure(kValues[i], fast.lo[size_t(i)], fast.hi[size_t(i)], q.closest[i]);
        if (why.empty()) why = check_enclosure("contains", fast.lo[3], fast.hi[3], Rational(q.contains ? 1 : 0));
        return why;
    };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::sphere_aabb(in)); };
    f.all_kernels = [] {
        return std::vector<FamilyKernel>{kernel("overlap", "tolerant=1", sphere_aabb_overlap),
                                         kernel("exact", "exact", sphere_aabb_overlap_exact)};
    };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{kernel("broken:float_underflow", "tolerant=1", overlap_in_float),
                                         kernel("broken:radius_not_squared", "tolerant=1", overlap_radius_not_squared),
                                         kernel("broken:closest_wrong_face", "tolerant=1", sphere_aabb_overlap,
                                                closest_wrong_face)};
    };
    f.mixes = mixes();
    f.plugin_call_f = plugin_call<float>;
    f.plugin_out_args = "out, &contains";
    f.plugin_int_output = 3;
    f.plugin_call_d = plugin_call<double>;
    f.preconditions = {preconditions::positive_extent(f), preconditions::positive_value(f, "positive_radius", "r")};
    return f;
}

const Family& self() {
    static const Family f = make();
    return f;
}

}  // namespace

const Family& sphere_aabb_family() { return self(); }

}  // namespace isect::check
