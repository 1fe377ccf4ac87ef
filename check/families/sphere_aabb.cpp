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

/// surface: the `closest_on_surface` convention.
Truth truth(const double* in, bool surface = false) {
    const ref::ExactAabb b = ref::exact(box_at(in + kBox));
    const ref::Point c = ref::exact(vec_at(in + kC));
    const Rational r = ref::exact(in[kR]);
    const ref::SphereAabbExact q = ref::sphere_aabb_rational(in, surface), g = ref::sphere_aabb_cgal(b, c, r, surface);
    if (q.overlap != g.overlap || q.contains != g.contains || q.dist2 != g.dist2)
        throw ReferenceMismatch(std::string("sphere_aabb references disagree: rational says ") +
                                (q.overlap ? "overlap" : "disjoint") + " at squared distance " + q.dist2.str() +
                                ", cgal says " + (g.overlap ? "overlap" : "disjoint") + " at " + g.dist2.str());
    // The nearest point's distance: under closest_on_surface, the rational
    // reference's face point against CGAL's distance to the boundary.
    if (q.closest_dist2 != g.closest_dist2)
        throw ReferenceMismatch("sphere_aabb references disagree on the nearest point's squared distance: rational " +
                                q.closest_dist2.str() + ", cgal " + g.closest_dist2.str());
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

/// Under closest_on_surface, where several faces are nearest to a centre in
/// the box, the point on any of them is exact (the truth holds the first):
/// a kernel's point that is the centre with its coordinates moved onto the
/// box's faces, in all as far from it as the truth's, is such a point (two
/// moves, each at least the least distance, add up to more than it unless
/// one is zero), and is judged as the truth.
ValueError surface_value_error(const double* in, const Truth& truth, const Answer& got) {
    if (got.values.size() != 4) return value_error(in, truth, got);
    bool onto_faces = true, as_truth = true;
    for (size_t i = 0; i < 3; ++i) {
        const double c = in[kC + i], g = got.values[i];
        onto_faces = onto_faces && in[kBox + i] <= c && c <= in[kBoxHi + i] && (g == c || g == in[kBox + i] || g == in[kBoxHi + i]);
        as_truth = as_truth && g == truth.values[i];
    }
    if (as_truth || !onto_faces) return value_error(in, truth, got);
    const auto moved = [&](const auto& point) {  // the sum of |point_i - c_i|, exactly
        Rational sum;
        for (size_t i = 0; i < 3; ++i) {
            const Rational d = Rational(point[i]) - Rational(in[kC + i]);
            sum += d.sign() < 0 ? Rational(-d) : d;
        }
        return sum;
    };
    if (moved(got.values) != moved(truth.values)) return value_error(in, truth, got);
    Truth same = truth;
    for (size_t i = 0; i < 3; ++i) same.values[i] = got.values[i];
    return value_error(in, same, got);
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

/// conventions: those the kernel follows ("closest_on_surface").
FamilyKernel kernel(const std::string& name, const std::string& contract, OverlapFn overlap,
                    ClosestFn closest = aabb_closest_point, std::vector<std::string> conventions = {}) {
    FamilyKernel k{name, *Contract::parse(contract), 0, [=](const double* in) {
                       const Aabb b = box_f(in + kBox);
                       const Vec3f c = vec_f(in + kC);
                       const Vec3f q = closest(b, c);
                       return Answer{yes(overlap(b, c, float(in[kR]))), {q[0], q[1], q[2], aabb_contains(b, c) ? 1.0 : 0.0}};
                   }};
    k.conventions = std::move(conventions);
    return k;
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

/// Planted bug under closest_on_surface, from Coin3D's SbBox3f::getClosestPoint
/// (Open Inventor): the centre is moved onto the face of the axis where it
/// deviates most from the box's centre, in float, then clamped to the box.
/// The nearest face is the one nearest p, not the one on the axis of its
/// largest deviation (a point near the long side of a flat box), and centre
/// plus half the extent is rounded.
Vec3f closest_largest_deviation(const Aabb& b, const Vec3f& p) {
    Vec3f centre, half, dev;
    for (int i = 0; i < 3; ++i) {
        centre[i] = (b.hi[i] + b.lo[i]) / 2.0f;
        half[i] = (b.hi[i] - b.lo[i]) / 2.0f;
        dev[i] = p[i] - centre[i];
    }
    Vec3f q = p;
    const auto snap = [&](int i) { q[i] = centre[i] + half[i] * (dev[i] < 0.0f ? -1.0f : 1.0f); };
    if (std::fabs(dev[0]) > std::fabs(dev[1]) && std::fabs(dev[0]) > std::fabs(dev[2])) snap(0);
    else if (std::fabs(dev[1]) > std::fabs(dev[2])) snap(1);
    else snap(2);
    for (int i = 0; i < 3; ++i) q[i] = std::min(std::max(q[i], b.lo[i]), b.hi[i]);
    return q;
}

Inputs layout(const Aabb& b, const Vec3f& c, float r) {
    Inputs in = gen::fresh();
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

/// The fast oracle's answer and enclosures against the rational reference.
std::string oracle_check(const double* in, const FastTruth& fast, bool surface) {
    const ref::SphereAabbExact q = ref::sphere_aabb_rational(in, surface);
    std::string why = check_answer(self(), fast, yes(q.overlap));
    for (int i = 0; i < 3 && why.empty(); ++i)
        why = check_enclosure(kValues[i], fast.lo[size_t(i)], fast.hi[size_t(i)], q.closest[i]);
    if (why.empty()) why = check_enclosure("contains", fast.lo[3], fast.hi[3], Rational(q.contains ? 1 : 0));
    return why;
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
    f.truth = [](const double* in) { return truth(in); };
    f.cgal = [](const double* in) {
        return double(ref::sphere_aabb_cgal(ref::exact(box_at(in + kBox)), ref::exact(vec_at(in + kC)), ref::exact(in[kR])).overlap);
    };
    f.band = band_of(ref::fast::sphere_aabb_band());
    f.value_error = value_error;
    f.deciding = deciding;
    f.feature = feature;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::sphere_aabb(in)); };
    f.oracle_check = [](const double* in, const FastTruth& fast) { return oracle_check(in, fast, false); };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::sphere_aabb(in)); };
    f.all_kernels = [] {
        return std::vector<FamilyKernel>{kernel("overlap", "tolerant=1", sphere_aabb_overlap),
                                         kernel("exact", "exact", sphere_aabb_overlap_exact),
                                         kernel("closest_on_surface", "exact", sphere_aabb_overlap_exact,
                                                aabb_closest_surface_point, {"closest_on_surface"})};
    };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{kernel("broken:float_underflow", "tolerant=1", overlap_in_float),
                                         kernel("broken:radius_not_squared", "tolerant=1", overlap_radius_not_squared),
                                         kernel("broken:closest_wrong_face", "tolerant=1", sphere_aabb_overlap,
                                                closest_wrong_face),
                                         kernel("broken:largest_deviation_face", "exact", sphere_aabb_overlap_exact,
                                                closest_largest_deviation, {"closest_on_surface"})};
    };
    f.mixes = mixes();
    f.plugin_call_f = plugin_call<float>;
    f.plugin_out_args = "out, &contains";
    f.plugin_int_output = 3;
    f.plugin_call_d = plugin_call<double>;
    f.preconditions = {preconditions::positive_extent(f), preconditions::positive_value(f, "positive_radius", "r")};
    f.conventions = {{"closest_on_surface",
                      "closest is the nearest point of the box's boundary, for a centre inside the box too (on its "
                      "nearest face; where several are nearest, any of them): Jet's Box3::closestPoint, Open Inventor's "
                      "SbBox3f::getClosestPoint; overlap and contains are the solid box's"}};
    f.declare = [](Family& g, const std::vector<std::string>&, const std::vector<std::string>& conventions) {
        if (conventions.empty()) return;  // "closest_on_surface", the one convention
        g.truth = [](const double* in) { return truth(in, true); };
        g.value_error = surface_value_error;
        g.fast_truth = [](const double* in) { return from_fast(ref::fast::sphere_aabb(in, true)); };
        g.oracle_check = [](const double* in, const FastTruth& fast) { return oracle_check(in, fast, true); };
        g.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::sphere_aabb(in, true)); };
    };
    return f;
}

const Family& self() {
    static const Family f = make();
    return f;
}

}  // namespace

const Family& sphere_aabb_family() { return self(); }

}  // namespace isect::check
