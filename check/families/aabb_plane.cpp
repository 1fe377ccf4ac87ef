// The aabb_plane families: which side of a plane a closed box is on
// (aabb_plane, seed 001's classifyPlane) and whether they meet
// (aabb_plane_overlap, seed 003). One input layout for both.

#include "family_common.hpp"
#include "check/model/plugin_call.hpp"
#include "isect/aabb_plane.hpp"
#include "check/model/generate.hpp"
#include "isect/ref/aabb_plane.hpp"

namespace isect::check {

namespace {

using namespace detail;
using ref::Rational;

const Family& classify_family();
const Family& overlap_family();

// The input, by key (isect/ref/aabb_plane.hpp): offsets derived, never written.
constexpr auto& kInput = ref::aabb_plane_input;
constexpr size_t kLo = kInput.at("box.lo"), kHi = kInput.at("box.hi"), kN = kInput.at("n"), kD = kInput.at("d");

AabbD box_of(const double* in) { return box_at(in + kLo); }
/// The plane as a float kernel takes it.
Plane plane_f(const double* in) { return {vec_f(in + kN), float(in[kD])}; }

bool in_domain(const Family& f, const double* in, std::string* why) {
    return all_finite(f, in, why) && box_ordered(f, kLo, kHi, in, why) &&
           (nonzero3(in, kN, nullptr, "") || refuse(why, [&] { return "n: '0 0 0' is outside the domain of " + f.name + " (n = 0 is no plane)"; }));
}

/// Classification answers in the family's order: back, straddle, front.
int answer_of(int side) { return side + 1; }

/// touching: the `touching_straddles` convention.
Truth classify_truth(const double* in, bool touching = false) {
    const ref::ExactAabb b = ref::exact(box_of(in));
    const ref::ExactPlane p = ref::exact_plane(in);
    const int r = ref::aabb_plane_classify_rational(in, touching), c = ref::aabb_plane_classify_cgal(b, p, touching);
    if (r != c)
        throw ReferenceMismatch("aabb_plane references disagree: rational says " + std::to_string(r) +
                                ", cgal says " + std::to_string(c));
    return {answer_of(r), {}, {}, {}};
}

Truth overlap_truth(const double* in) {
    const ref::ExactAabb b = ref::exact(box_of(in));
    const ref::ExactPlane p = ref::exact_plane(in);
    const bool r = ref::aabb_plane_overlap_rational(in), c = ref::aabb_plane_overlap_cgal(b, p);
    if (r != c)
        throw ReferenceMismatch(std::string("aabb_plane_overlap references disagree: rational says ") +
                                (r ? "overlap" : "disjoint") + ", cgal says " + (c ? "overlap" : "disjoint"));
    return {yes(r), {}, {}, {}};
}

/// What decides: the margins least n . x - d and greatest n . x - d, exactly:
/// "touching" (one is 0), "in the plane" (both are), "straddling", "clear";
/// and whether n is along an axis (the case seed 001 and most code assume).
std::string deciding(const double* in, const Truth&, int) {
    Rational lo, hi;
    ref::aabb_plane_margins(in, lo, hi);
    const int zeros = (in[kN] == 0) + (in[kN + 1] == 0) + (in[kN + 2] == 0);
    const std::string normal = zeros == 2 ? ", axis normal" : ", oblique normal";
    if (lo == 0 && hi == 0) return "the box lies in the plane" + normal;
    if (lo == 0 || hi == 0) return "touching" + normal;
    if (lo < 0 && hi > 0) return "straddling" + normal;
    return "clear of the plane" + normal;
}

/// The smallest nonzero normal component or box extent.
double feature(const double* in) {
    double m = 0;
    for (int i = 0; i < 3; ++i)
        for (double x : {std::fabs(double(in[kN + i])), double(in[kHi + i]) - double(in[kLo + i])})
            if (x > 0 && (m == 0 || x < m)) m = x;
    return m;
}

/// conventions: those the kernel follows ("touching_straddles").
FamilyKernel classify_kernel(const std::string& name, const std::string& contract,
                             PlaneSide (*fn)(const Aabb&, const Plane&), std::vector<std::string> conventions = {}) {
    FamilyKernel k{name, *Contract::parse(contract), 0,
                   [fn](const double* in) { return Answer{answer_of(int(fn(box_f(in), plane_f(in)))), {}}; }};
    k.conventions = std::move(conventions);
    return k;
}

FamilyKernel overlap_kernel(const std::string& name, const std::string& contract,
                            bool (*fn)(const Aabb&, const Plane&)) {
    return {name, *Contract::parse(contract), 0,
            [fn](const double* in) { return Answer{yes(fn(box_f(in), plane_f(in))), {}}; }};
}

/// Strict comparisons, so a box touching the plane straddles: what the
/// `touching_straddles` convention asks (Ogre's Plane::getSide(AxisAlignedBox)
/// compares the centre's distance with the box's reach strictly), and a
/// planted bug without it.
PlaneSide classify_touching_straddles(const Aabb& box, const Plane& p) {
    if (isect::detail::plane_margin_sign(box, p, true) > 0) return PlaneSide::front;
    if (isect::detail::plane_margin_sign(box, p, false) < 0) return PlaneSide::back;
    return PlaneSide::straddle;
}

/// Planted bug: the sides swapped when n.x is negative (a sign slip).
PlaneSide classify_sign_slip(const Aabb& box, const Plane& p) {
    const PlaneSide s = aabb_plane_classify(box, p);
    return p.n[0] < 0 && s != PlaneSide::straddle ? PlaneSide(-int(s)) : s;
}

/// Planted bug: an absolute epsilon, the habit seed 004 shows, here as
/// |s| <= r + 1e-4: tiny boxes near a tiny plane overlap it.
bool overlap_absolute_epsilon(const Aabb& box, const Plane& p) {
    double r = 0, s = -double(p.d);
    for (int i = 0; i < 3; ++i) {
        const double c = (double(box.lo[i]) + box.hi[i]) * 0.5;
        r += (box.hi[i] - c) * std::fabs(double(p.n[i]));
        s += double(p.n[i]) * c;
    }
    return std::fabs(s) <= r + 1e-4;
}

/// Planted bug: |s| < r, so a box touching the plane misses it.
bool overlap_strict(const Aabb& box, const Plane& p) {
    double r = 0, s = -double(p.d);
    for (int i = 0; i < 3; ++i) {
        const double c = (double(box.lo[i]) + box.hi[i]) * 0.5;
        r += (box.hi[i] - c) * std::fabs(double(p.n[i]));
        s += double(p.n[i]) * c;
    }
    return std::fabs(s) < r;
}

Vec3f nonzero(Source& s, Vec3f n) {
    if (n[0] == 0 && n[1] == 0 && n[2] == 0) n[size_t(s.range(0, 3))] = 1;
    return n;
}

Inputs layout(const Aabb& b, const Vec3f& n, float d) {
    Inputs in = gen::fresh();
    gen::put(in, b);
    gen::put(in, n);
    in.push_back(d);
    return in;
}

/// n . corner computed exactly (grid values keep it a small integer).
float dot_corner(const Aabb& b, const Vec3f& n, int corner) {
    float d = 0;
    for (int i = 0; i < 3; ++i) d += n[i] * ((corner >> i) & 1 ? b.hi[i] : b.lo[i]);
    return d;
}

std::vector<Mix> mixes() {
    return {
        {"grid", 1, [](Source& s) { return layout(gen::grid_box(s, 3), nonzero(s, gen::grid_point(s, 2)), gen::grid(s, 6)); }},
        {"touching", 1, [](Source& s) {  // the plane through a corner: touching, or through an edge or face
             const Aabb b = gen::grid_box(s, 3);
             const Vec3f n = nonzero(s, gen::grid_point(s, 2));
             return layout(b, n, dot_corner(b, n, s.range(0, 8)));
         }},
        {"axis", 1, [](Source& s) {  // an axis normal, the box flat in the plane or touching it
             Aabb b = gen::grid_box(s, 3);
             Vec3f n{0, 0, 0};
             const size_t axis = s.range<size_t>(0, 3);
             n[axis] = s.pick(1.0f, -1.0f, 2.0f, -0.5f);
             if (s.coin()) b.hi[axis] = b.lo[axis];
             return layout(b, n, n[axis] * (s.coin() ? b.lo[axis] : b.hi[axis]));
         }},
        {"diagonal", 1, [](Source& s) {  // 45-degree normals through a corner
             const Aabb b = gen::grid_box(s, 3);
             Vec3f n = {s.pick(1.0f, -1.0f), s.pick(1.0f, -1.0f), s.pick(0.0f, 1.0f)};
             return layout(b, n, dot_corner(b, n, s.range(0, 8)));
         }},
        {"uniform", 1, [](Source& s) {  // random box and normal, d = n . (a point of the box), rounded
             const int e = s.range(-8, 9);
             const Aabb b = gen::box_between({gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)},
                                             {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)});
             const Vec3f n = nonzero(s, {gen::uniform(s, 0), gen::uniform(s, 0), gen::uniform(s, 0)});
             const int c = s.range(0, 8);
             return layout(b, n, float(double(n[0]) * (c & 1 ? b.hi[0] : b.lo[0]) +
                                       double(n[1]) * (c & 2 ? b.hi[1] : b.lo[1]) +
                                       double(n[2]) * (c & 4 ? b.hi[2] : b.lo[2])));
         }},
    };
}

Family common(const std::string& name) {
    Family f;
    f.name = name;
    f.inputs = inputs_of(kInput);
    f.outputs = {};
    f.references = "rational (the fast body on exact numbers: the margins' signs) and cgal (Plane_3)";
    f.value_error = [](const double*, const Truth&, const Answer&) { return ValueError{}; };
    f.deciding = deciding;
    f.feature = feature;
    f.band = band_of(ref::fast::aabb_plane_band());
    return f;
}

/// isect_aabb_plane(box.lo, box.hi, n, d): the side, returned as -1 (back),
/// 0 (straddle), 1 (front); anything else is named as returned.
template <class T> Answer classify_plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    return plugin_answer<T>(f, as<int (*)(P, P, P, T)>(fn)(in + kLo, in + kHi, in + kN, in[kD]), {});
}

/// isect_aabb_plane_overlap(box.lo, box.hi, n, d).
template <class T> Answer overlap_plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    return plugin_answer<T>(f, as<int (*)(P, P, P, T)>(fn)(in + kLo, in + kHi, in + kN, in[kD]), {});
}

Family make_classify() {
    Family f = common("aabb_plane");
    f.answers = {"back", "straddle", "front"};
    f.answer_has_values = {false, false, false};
    f.safe_answer = 1;  // a conservative classifier may say straddle
    f.in_domain = [](const double* in, std::string* why) { return in_domain(classify_family(), in, why); };
    f.truth = [](const double* in) { return classify_truth(in); };
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::aabb_plane(in)); };
    f.oracle_check = [](const double* in, const FastTruth& t) {
        return check_answer(classify_family(), t,
                            answer_of(ref::aabb_plane_classify_rational(in)));
    };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::aabb_plane(in)); };
    f.cgal = [](const double* in) { return double(ref::aabb_plane_classify_cgal(ref::exact(box_of(in)), ref::exact_plane(in))); };
    f.all_kernels = [] {
        return std::vector<FamilyKernel>{classify_kernel("classify", "exact", aabb_plane_classify),
                                         classify_kernel("touching_straddles", "exact", classify_touching_straddles,
                                                         {"touching_straddles"})};
    };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{
            classify_kernel("broken:touching_straddles", "exact", classify_touching_straddles),
            classify_kernel("broken:sign_slip", "exact", classify_sign_slip),
            classify_kernel("broken:touching_takes_a_side", "exact", aabb_plane_classify, {"touching_straddles"})};
    };
    f.mixes = mixes();
    f.plugin_call_f = classify_plugin_call<float>;
    f.plugin_out_args = "";
    f.plugin_call_d = classify_plugin_call<double>;
    f.plugin_returns = {-1, 0, 1};
    f.preconditions = {preconditions::positive_extent(f), preconditions::nonzero_vector(f, "nonzero_normal", "n"),
                       preconditions::unit_vector(f, "unit_normal", "n")};
    f.conventions = {{"touching_straddles", "a box that touches the plane (or lies in it) is on both sides: a side only where "
                                            "no corner is on the plane (Ogre's Plane::getSide with a box)"}};
    f.declare = [](Family& g, const std::vector<std::string>&, const std::vector<std::string>& conventions) {
        if (conventions.empty()) return;  // "touching_straddles", the one convention
        g.truth = [](const double* in) { return classify_truth(in, true); };
        g.fast_truth = [](const double* in) { return from_fast(ref::fast::aabb_plane(in, true)); };
        g.oracle_check = [](const double* in, const FastTruth& t) {
            return check_answer(classify_family(), t, answer_of(ref::aabb_plane_classify_rational(in, true)));
        };
        g.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::aabb_plane(in, true)); };
        g.cgal = [](const double* in) {
            return double(ref::aabb_plane_classify_cgal(ref::exact(box_of(in)), ref::exact_plane(in), true));
        };
    };
    return f;
}

Family make_overlap() {
    Family f = common("aabb_plane_overlap");
    f.answers = {"disjoint", "overlap"};
    f.answer_has_values = {false, false};
    f.in_domain = [](const double* in, std::string* why) { return in_domain(overlap_family(), in, why); };
    f.truth = overlap_truth;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::aabb_plane_overlap(in)); };
    f.oracle_check = [](const double* in, const FastTruth& t) {
        return check_answer(overlap_family(), t,
                            yes(ref::aabb_plane_overlap_rational(in)));
    };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::aabb_plane_overlap(in)); };
    f.cgal = [](const double* in) { return double(ref::aabb_plane_overlap_cgal(ref::exact(box_of(in)), ref::exact_plane(in))); };
    f.all_kernels = [] {
        return std::vector<FamilyKernel>{overlap_kernel("overlap", "exact", aabb_plane_overlap),
                                         overlap_kernel("centre_extents", "tolerant=1", aabb_plane_overlap_centre_extents)};
    };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{
            overlap_kernel("broken:absolute_epsilon", "tolerant=1", overlap_absolute_epsilon),
            overlap_kernel("broken:touching_misses", "exact", overlap_strict)};
    };
    f.mixes = mixes();
    f.plugin_call_f = overlap_plugin_call<float>;
    f.plugin_out_args = "";
    f.plugin_call_d = overlap_plugin_call<double>;
    f.preconditions = {preconditions::positive_extent(f), preconditions::nonzero_vector(f, "nonzero_normal", "n"),
                       preconditions::unit_vector(f, "unit_normal", "n")};
    return f;
}

const Family& classify_family() {
    static const Family f = make_classify();
    return f;
}

const Family& overlap_family() {
    static const Family f = make_overlap();
    return f;
}

}  // namespace

const Family& aabb_plane_family() { return classify_family(); }
const Family& aabb_plane_overlap_family() { return overlap_family(); }

}  // namespace isect::check
