// The aabb_aabb family: closed box vs closed box, and their intersection box.

#include "family_common.hpp"
#include "check/model/plugin_call.hpp"
#include "isect/aabb_aabb.hpp"
#include "check/model/generate.hpp"
#include "isect/ref/aabb_aabb.hpp"

namespace isect::check {

namespace {

using namespace detail;
using ref::Rational;

const Family& self();

// The input, by key (isect/ref/aabb_aabb.hpp): offsets derived, never written.
constexpr auto& kInput = ref::aabb_aabb_input;
constexpr size_t kA = kInput.at("a.lo"), kAHi = kInput.at("a.hi"), kB = kInput.at("b.lo"), kBHi = kInput.at("b.hi");

const char* const kValues[] = {"box.lo.x", "box.lo.y", "box.lo.z", "box.hi.x", "box.hi.y", "box.hi.z"};

/// volume: the volume_overlap convention.
Truth truth(const double* in, bool volume = false) {
    const ref::ExactAabb a = ref::exact(box_at(in + kA)), b = ref::exact(box_at(in + kB));
    const auto r = ref::aabb_aabb_rational(in, volume), c = ref::aabb_aabb_cgal(a, b, volume);
    if (r.has_value() != c.has_value())
        throw ReferenceMismatch(std::string("aabb_aabb references disagree: rational says ") +
                                (r ? "overlap" : "disjoint") + ", cgal says " + (c ? "overlap" : "disjoint"));
    Truth t;
    t.answer = yes(r.has_value());
    if (!r) return t;
    for (int i = 0; i < 3; ++i)
        if (r->lo[i] != c->lo[i] || r->hi[i] != c->hi[i])
            throw ReferenceMismatch("aabb_aabb references disagree on the intersection box");
    for (int i = 0; i < 3; ++i) t.values.push_back(ref::to_double(r->lo[i]));
    for (int i = 0; i < 3; ++i) t.values.push_back(ref::to_double(r->hi[i]));
    return t;
}

/// The box's coordinates are exact; S = M, so any difference shows.
ValueError value_error(const double* in, const Truth& truth, const Answer& got) {
    ValueError e;
    const double m = largest_magnitude(in, kInput.size());
    for (size_t i = 0; i < 6; ++i) worst(e, units(got.values[i], truth.values[i], m), kValues[i]);
    return e;
}

/// What decides, per axis from the exact differences: apart on some axis,
/// touching (on one axis or more), or overlapping.
std::string deciding(const double* in, const Truth&, int) {
    bool touching = false;
    for (int i = 0; i < 3; ++i) {
        const double a = double(in[kBHi + i]) - in[kA + i], b = double(in[kAHi + i]) - in[kB + i];  // exact: float differences
        if (a < 0 || b < 0) return "apart on an axis";
        touching = touching || a == 0 || b == 0;
    }
    return touching ? "touching" : "overlapping";
}

/// Under volume_overlap: a flat box, or boxes sharing only a face, an edge
/// or a corner, meet without volume.
std::string volume_deciding(const double* in, const Truth& t, int answer) {
    for (int i = 0; i < 3; ++i)
        if (in[kAHi + i] == in[kA + i] || in[kBHi + i] == in[kB + i]) {
            const std::string apart = deciding(in, t, answer);
            return apart == "apart on an axis" ? apart : "a flat box";
        }
    const std::string d = deciding(in, t, answer);
    return d == "touching" ? "touching: a meet without volume" : d;
}

/// The smallest nonzero box extent or gap between the boxes.
double feature(const double* in) {
    double m = 0;
    for (int i = 0; i < 3; ++i)
        for (double x : {double(in[kAHi + i]) - in[kA + i], double(in[kBHi + i]) - in[kB + i],
                         std::fabs(double(in[kBHi + i]) - in[kA + i]), std::fabs(double(in[kAHi + i]) - in[kB + i])})
            if (x > 0 && (m == 0 || x < m)) m = x;
    return m;
}

Answer answer_of(bool overlap, const Aabb& box) {
    return {yes(overlap), {box.lo[0], box.lo[1], box.lo[2], box.hi[0], box.hi[1], box.hi[2]}};
}

/// Where the fast oracle differs from the rational reference (volume: under
/// volume_overlap).
std::string oracle_check(const double* in, const FastTruth& fast, bool volume = false) {
    const auto r = ref::aabb_aabb_rational(in, volume);
    std::string why = check_answer(self(), fast, yes(r.has_value()));
    for (int i = 0; i < 3 && why.empty() && r; ++i) {
        why = check_enclosure(kValues[i], fast.lo[size_t(i)], fast.hi[size_t(i)], r->lo[i]);
        if (why.empty()) why = check_enclosure(kValues[3 + i], fast.lo[size_t(3 + i)], fast.hi[size_t(3 + i)], r->hi[i]);
    }
    return why;
}

/// Under volume_overlap: the shared box, and an overlap only where it has
/// extent on every axis.
Answer volume_overlap(const double* in) {
    const Aabb a = box_f(in + kA), b = box_f(in + kB);
    const Aabb r = aabb_aabb_intersection(a, b);
    return answer_of(r.lo[0] < r.hi[0] && r.lo[1] < r.hi[1] && r.lo[2] < r.hi[2], r);
}

Answer closed_overlap(const double* in) {
    const Aabb a = box_f(in + kA), b = box_f(in + kB);
    return answer_of(aabb_aabb_overlap(a, b), aabb_aabb_intersection(a, b));
}

std::vector<FamilyKernel> kernels() {
    FamilyKernel volume{"volume_overlap", Contract::exact(), 0, volume_overlap};
    volume.conventions = {"volume_overlap"};
    return {{"overlap", Contract::exact(), 0, closed_overlap}, volume};
}

/// Strict comparisons of the two boxes: touching boxes are disjoint, but a
/// flat box inside the other overlaps it.
Answer strict_overlap(const double* in) {
    const Aabb a = box_f(in + kA), b = box_f(in + kB);
    bool overlap = true;
    for (int i = 0; i < 3; ++i) overlap = overlap && a.lo[i] < b.hi[i] && b.lo[i] < a.hi[i];
    return answer_of(overlap, aabb_aabb_intersection(a, b));
}

/// Planted bugs: the strict comparison that makes touching boxes disjoint,
/// and an intersection that takes the min of the lows.
std::vector<FamilyKernel> broken() {
    return {{"broken:touching_disjoint", Contract::exact(), 0, strict_overlap},
            {"broken:intersection_min_lo", Contract::exact(), 0, [](const double* in) {
                 const Aabb a = box_f(in + kA), b = box_f(in + kB);
                 Aabb r = aabb_aabb_intersection(a, b);
                 for (int i = 0; i < 3; ++i) r.lo[i] = std::min(a.lo[i], b.lo[i]);
                 return answer_of(aabb_aabb_overlap(a, b), r);
             }},
            // Under volume_overlap: the closed boxes' test, so a shared face
            // is an overlap (and a strict test that forgets a flat box).
            {"broken:touching_overlaps", Contract::exact(), 0, closed_overlap, Precision::single, std::nullopt, nullptr,
             {"volume_overlap"}},
            {"broken:flat_box_overlaps", Contract::exact(), 0, strict_overlap, Precision::single, std::nullopt, nullptr,
             {"volume_overlap"}}};
}

std::vector<Mix> mixes() {
    using gen::put;
    return {
        {"grid", 1, [](Source& s) {  // small grids: touching faces, edges, corners; flat and point boxes
             Inputs in = gen::fresh();
             put(in, gen::grid_box(s, 3));
             put(in, gen::grid_box(s, 3));
             return in;
         }},
        {"uniform", 1, [](Source& s) {
             const int e = s.range(-8, 9);
             Inputs in = gen::fresh();
             for (int k = 0; k < 2; ++k) {
                 const Vec3f p{gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)};
                 const Vec3f q{gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)};
                 put(in, gen::box_between(p, q));
             }
             return in;
         }},
        {"touching", 1, [](Source& s) {  // b starts exactly where a ends on one axis
             const Aabb a = gen::grid_box(s, 4);
             Aabb b = gen::grid_box(s, 4);
             const size_t axis = s.range<size_t>(0, 3);
             const float width = b.hi[axis] - b.lo[axis];
             if (s.coin()) {
                 b.lo[axis] = a.hi[axis];
                 b.hi[axis] = a.hi[axis] + width;
             } else {
                 b.hi[axis] = a.lo[axis];
                 b.lo[axis] = a.lo[axis] - width;
             }
             Inputs in = gen::fresh();
             put(in, a);
             put(in, b);
             return in;
         }},
    };
}

/// isect_aabb_aabb(a.lo, a.hi, b.lo, b.hi, out lo, out hi).
template <class T> Answer plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    const T u = unset_value<T>();
    T lo[3] = {u, u, u}, hi[3] = {u, u, u};
    const int r = as<int (*)(P, P, P, P, T*, T*)>(fn)(in + kA, in + kAHi, in + kB, in + kBHi, lo, hi);
    return plugin_answer<T>(f, r, {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]});
}

Family make() {
    Family f;
    f.name = "aabb_aabb";
    f.exchangeable = 6;  // a, b
    f.inputs = inputs_of(kInput);
    f.answers = {"disjoint", "overlap"};
    f.answer_has_values = {false, true};
    f.outputs.assign(std::begin(kValues), std::end(kValues));
    f.references = "rational (the fast body on exact numbers: the ranges per axis) and cgal (Iso_cuboid_3)";
    f.in_domain = [](const double* in, std::string* why) {
        return all_finite(self(), in, why) && box_ordered(self(), kA, kAHi, in, why) && box_ordered(self(), kB, kBHi, in, why);
    };
    f.truth = [](const double* in) { return truth(in); };
    f.cgal = [](const double* in) {
        return double(ref::aabb_aabb_cgal(ref::exact(box_at(in + kA)), ref::exact(box_at(in + kB))).has_value());
    };
    f.band = band_of(ref::fast::aabb_aabb_band());
    f.value_error = value_error;
    f.deciding = deciding;
    f.feature = feature;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::aabb_aabb(in)); };
    f.oracle_check = [](const double* in, const FastTruth& fast) { return oracle_check(in, fast); };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::aabb_aabb(in)); };
    f.all_kernels = kernels;
    f.all_broken = broken;
    f.plugin_call_f = plugin_call<float>;
    f.plugin_out_args = "out, out + 3";
    f.plugin_call_d = plugin_call<double>;
    f.mixes = mixes();
    f.preconditions = {preconditions::positive_extent(f)};
    f.conventions = {{"volume_overlap", "boxes overlap only where what they share has volume: a shared face, edge or corner, "
                                        "or a flat box, is no overlap (an intersection box that must be a box)"}};
    f.declare = [](Family& g, const std::vector<std::string>&, const std::vector<std::string>& conventions) {
        if (conventions.empty()) return;  // "volume_overlap", the one convention
        g.truth = [](const double* in) { return truth(in, true); };
        g.cgal = [](const double* in) {
            return double(ref::aabb_aabb_cgal(ref::exact(box_at(in + kA)), ref::exact(box_at(in + kB)), true).has_value());
        };
        g.band = band_of(ref::fast::aabb_aabb_band(true));
        g.deciding = volume_deciding;
        g.fast_truth = [](const double* in) { return from_fast(ref::fast::aabb_aabb(in, true)); };
        g.oracle_check = [](const double* in, const FastTruth& fast) { return oracle_check(in, fast, true); };
        g.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::aabb_aabb(in, true)); };
    };
    return f;
}

const Family& self() {
    static const Family f = make();
    return f;
}

}  // namespace

const Family& aabb_aabb_family() { return self(); }

}  // namespace isect::check
