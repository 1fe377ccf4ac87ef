// The obb_obb family: two oriented boxes (centre, three axes, three
// half-extents; the parallelepiped the axes span), overlap or not.

#include "family_common.hpp"
#include "check/model/plugin_call.hpp"
#include "check/model/generate.hpp"
#include "isect/obb_obb.hpp"
#include "isect/ref/obb_obb.hpp"

namespace isect::check {

namespace {

using namespace detail;
using ref::Rational;

const Family& self();

// The input, by key (isect/ref/obb_obb.hpp): offsets derived, never written.
constexpr auto& kInput = ref::obb_obb_input;
constexpr size_t kAC = kInput.at("a.c"), kAAxes = kInput.at("a.axes"), kAH = kInput.at("a.h");
constexpr size_t kBC = kInput.at("b.c"), kBAxes = kInput.at("b.axes"), kBH = kInput.at("b.h");

Truth truth(const double* in) {
    const bool z = ref::obb_obb_rational(in), lp = ref::obb_obb_cgal(in);
    if (z != lp)
        throw ReferenceMismatch(std::string("obb_obb references disagree: the zonotope test says ") +
                                (z ? "overlap" : "disjoint") + ", cgal's linear program says " + (lp ? "overlap" : "disjoint"));
    return {yes(z), {}, {}, {}};
}

/// What decides: a flat box (its generators do not span space), or the
/// kind of axis that separates the boxes by the widest margin per unit of
/// its length squared (a face normal of A, of B, or the cross product of
/// an edge of each); for overlapping boxes, touching (d on Z's boundary: an
/// axis with equality) or overlapping.
std::string deciding(const double* in, const Truth& truth, int) {
    // The axes and gaps as the body's zonotope states them, exactly.
    const ref::ObbAxes x = ref::obb_obb_axes(in);
    if (!x.spans) return "a flat box (the six axes scaled by the extents span no volume)";
    std::string best = truth.answer == 1 ? "overlapping" : "separated";
    Rational widest = 0;
    for (const ref::ObbAxes::Axis& axis : x.axes) {
        const int p = axis.p, q = axis.q;
        const Rational &nn = axis.nn, &gap = axis.gap;
        if (nn == 0) continue;
        if (truth.answer == 1) {
            if (gap == 0) return "touching (a face or an edge of each box meet)";
            continue;
        }
        const Rational share = gap * gap / nn;
        if (gap > 0 && share > widest) {
            widest = share;
            best = p < 3 && q < 3    ? "separated by a face axis of a"
                   : p >= 3 && q >= 3 ? "separated by a face axis of b"
                                      : "separated by an edge-edge axis (a_i x b_j)";
        }
    }
    return best;
}

/// The smallest nonzero half-extent.
double feature(const double* in) {
    double m = 0;
    for (size_t at : {kAH, kBH})
        for (size_t i = 0; i < 3; ++i) {
            const double h = std::fabs(in[at + i]);
            if (h > 0 && (m == 0 || h < m)) m = h;
        }
    return m;
}

// --- Kernels and planted bugs --------------------------------------------------------

template <class T> BasicObb<T> obb_as(const double* in, size_t c, size_t axes, size_t h) {
    BasicObb<T> b;
    for (size_t i = 0; i < 3; ++i) {
        b.c[i] = T(in[c + i]);
        b.h[i] = T(in[h + i]);
        for (size_t k = 0; k < 3; ++k) b.axes[i][k] = T(in[axes + 3 * i + k]);
    }
    return b;
}

using TestFn = bool (*)(const Obb&, const Obb&);

/// The axes a Gottschalk test assumes: orthonormal (within 16 u).
Domain orthonormal_axes() {
    Domain d;
    d.required = {"orthonormal_axes"};
    return d;
}

FamilyKernel kernel(const std::string& name, const std::string& contract, TestFn fn) {
    FamilyKernel k{name, *Contract::parse(contract), 0, [fn](const double* in) {
                       return Answer{yes(fn(obb_as<float>(in, kAC, kAAxes, kAH), obb_as<float>(in, kBC, kBAxes, kBH))), {}};
                   }};
    k.domain = orthonormal_axes();
    return k;
}

/// Planted bug: Gottschalk's test without its epsilon on |R|. Where an edge
/// of each box is parallel, a_i x b_j is zero but R rounds to a near-zero
/// axis whose radii can come out below |t . L|: boxes that overlap are
/// called apart.
bool no_epsilon(const Obb& a, const Obb& b) { return isect::detail::obb_sat(a, b, 0.0); }

/// Planted bug: gszauer/GamePhysicsCookbook#15. Its OBB test projects both
/// boxes on each candidate axis and compares the intervals, and fills the
/// nine edge-edge axes as Cross(test[i], test[0..2]), A's axes with A's
/// own, instead of Cross(test[i], test[3..5]) with B's: the true edge-edge
/// axes are never tried, and boxes apart only along one of them overlap.
bool cookbook_cross_of_own_axes(const Obb& a, const Obb& b) {
    std::array<Vec3d, 15> axes;
    for (size_t i = 0; i < 3; ++i) {
        axes[i] = {a.axes[i][0], a.axes[i][1], a.axes[i][2]};
        axes[3 + i] = {b.axes[i][0], b.axes[i][1], b.axes[i][2]};
    }
    for (size_t i = 0; i < 3; ++i)
        for (size_t j = 0; j < 3; ++j) axes[6 + 3 * i + j] = cross(axes[i], axes[j]);  // the bug: axes[3 + j] meant
    const auto interval = [](const Obb& box, const Vec3d& l, double& lo, double& hi) {
        const double c = box.c[0] * l[0] + box.c[1] * l[1] + box.c[2] * l[2];
        double r = 0;
        for (size_t i = 0; i < 3; ++i) r += box.h[i] * std::fabs(box.axes[i][0] * l[0] + box.axes[i][1] * l[1] + box.axes[i][2] * l[2]);
        lo = c - r;
        hi = c + r;
    };
    for (const Vec3d& l : axes) {
        double alo, ahi, blo, bhi;
        interval(a, l, alo, ahi);
        interval(b, l, blo, bhi);
        if (ahi < blo || bhi < alo) return false;
    }
    return true;
}

// --- Constructions ------------------------------------------------------------------

/// The rows of the rotation of the quaternion (w, x, y, z), rounded to float:
/// orthonormal within an ulp or two.
std::array<Vec3f, 3> rotation(double w, double x, double y, double z) {
    const double n = w * w + x * x + y * y + z * z;
    if (n == 0) return {Vec3f{1, 0, 0}, Vec3f{0, 1, 0}, Vec3f{0, 0, 1}};
    const double m[3][3] = {{w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)},
                            {2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)},
                            {2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z}};
    std::array<Vec3f, 3> r;
    for (size_t i = 0; i < 3; ++i)
        for (size_t k = 0; k < 3; ++k) r[i][k] = float(m[i][k] / n);
    return r;
}
std::array<Vec3f, 3> random_rotation(Source& s) {
    return rotation(s.range(-4, 5), s.range(-4, 5), s.range(-4, 5), s.range(-4, 5));
}
/// The identity's rows permuted, with signs: a box aligned with the axes.
std::array<Vec3f, 3> aligned(Source& s) {
    static constexpr int kPerms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const int* p = kPerms[s.range(0, 6)];
    std::array<Vec3f, 3> r{};
    for (size_t i = 0; i < 3; ++i) r[i][size_t(p[i])] = s.coin() ? 1.0f : -1.0f;
    return r;
}

struct Box {
    Vec3f c;
    std::array<Vec3f, 3> axes;
    Vec3f h;
};
Inputs layout(const Box& a, const Box& b) {
    Inputs in = gen::fresh();
    in.reserve(kInput.size());
    for (const Box* x : {&a, &b}) {
        gen::put(in, x->c);
        for (const Vec3f& v : x->axes) gen::put(in, v);
        gen::put(in, x->h);
    }
    return in;
}
Vec3f grid_extents(Source& s, int n) { return {float(s.range(0, n + 1)), float(s.range(0, n + 1)), float(s.range(0, n + 1))}; }
Vec3f positive_extents(Source& s, int e) {
    return {std::fabs(gen::uniform(s, e)), std::fabs(gen::uniform(s, e)), std::fabs(gen::uniform(s, e))};
}
/// c + sum_i s_i h_i a_i, in float.
Vec3f point_of(const Box& b, float s0, float s1, float s2) {
    Vec3f p = b.c;
    const float s[3] = {s0, s1, s2};
    for (size_t i = 0; i < 3; ++i)
        for (size_t k = 0; k < 3; ++k) p[k] += s[i] * b.h[i] * b.axes[i][k];
    return p;
}

std::vector<Mix> mixes() {
    return {
        {"aligned", 2, [](Source& s) {  // both aligned with the axes, grid centres and extents: touching faces, edges, corners
             return layout({gen::grid_point(s, 4), aligned(s), grid_extents(s, 2)},
                           {gen::grid_point(s, 4), aligned(s), grid_extents(s, 2)});
         }},
        {"shared_rotation", 2, [](Source& s) {  // one rotation for both: every edge of one parallel to an edge of the other
             const auto r = random_rotation(s);
             const int e = s.range(-4, 5);
             return layout({gen::uniform_point(s, e), r, positive_extents(s, e)}, {gen::uniform_point(s, e), r, positive_extents(s, e)});
         }},
        {"ulp_rotated", 1, [](Source& s) {  // b's axes a's, moved by an ulp or two: nearly parallel edges
             const auto r = s.coin() ? random_rotation(s) : aligned(s);
             auto q = r;
             for (int n = s.range(1, 4); n > 0; --n) {
                 float& x = q[size_t(s.range(0, 3))][size_t(s.range(0, 3))];
                 x = std::nextafter(x, s.coin() ? 2.0f : -2.0f);
             }
             const int e = s.range(-3, 4);
             return layout({gen::uniform_point(s, e), r, positive_extents(s, e)}, {gen::uniform_point(s, e), q, positive_extents(s, e)});
         }},
        {"touching", 1, [](Source& s) {  // b's centre where a face, an edge or a corner of a meets one of b's, same axes
             const Box a{gen::grid_point(s, 2), s.coin() ? aligned(s) : random_rotation(s), grid_extents(s, 2)};
             Box b{{}, a.axes, grid_extents(s, 2)};
             const float s0 = float(s.range(-1, 2)), s1 = float(s.range(-1, 2)), s2 = float(s.range(-1, 2));
             const Vec3f on_a = point_of(a, s0, s1, s2);
             b.c = point_of(Box{on_a, a.axes, b.h}, s0, s1, s2);
             return layout(a, b);
         }},
        {"flat", 1, [](Source& s) {  // a half-extent of zero: a rectangle, a segment or a point
             Box a{gen::grid_point(s, 3), s.coin() ? aligned(s) : random_rotation(s), grid_extents(s, 2)};
             Box b{gen::grid_point(s, 3), s.coin() ? aligned(s) : random_rotation(s), grid_extents(s, 2)};
             a.h[size_t(s.range(0, 3))] = 0;
             if (s.coin()) b.h[size_t(s.range(0, 3))] = 0;
             return layout(a, b);
         }},
        {"rotated", 2, [](Source& s) {  // independent rotations, centres and extents of one scale
             const int e = s.range(-8, 9);
             return layout({gen::uniform_point(s, e), random_rotation(s), positive_extents(s, e)},
                           {gen::uniform_point(s, e), random_rotation(s), positive_extents(s, e)});
         }},
        {"far", 1, [](Source& s) {  // both far from the origin: centres of 2^10..2^22, extents of a few units
             const float offset = std::ldexp(float(s.range(1, 8)), s.range(10, 22));
             const Vec3f o{offset, -offset, offset / 2};
             const auto near_o = [&] {
                 const Vec3f g = gen::grid_point(s, 3);
                 return Vec3f{o[0] + g[0], o[1] + g[1], o[2] + g[2]};
             };
             return layout({near_o(), random_rotation(s), grid_extents(s, 2)}, {near_o(), random_rotation(s), grid_extents(s, 2)});
         }},
    };
}

/// isect_obb_obb(a.c, a.axes, a.h, b.c, b.axes, b.h).
template <class T> Answer plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    return plugin_answer<T>(f, as<int (*)(P, P, P, P, P, P)>(fn)(in + kAC, in + kAAxes, in + kAH, in + kBC, in + kBAxes, in + kBH),
                            {});
}

Family make() {
    Family f;
    f.name = "obb_obb";
    f.exchangeable = 15;  // a.c a.axes a.h, b.*
    f.inputs = inputs_of(kInput);
    f.answers = {"disjoint", "overlap"};
    f.answer_has_values = {false, false};
    f.references = "zonotope (exact, the fifteen axes) and cgal (an exact linear program)";
    f.in_domain = [](const double* in, std::string* why) {
        if (!all_finite(self(), in, why)) return false;
        for (size_t at : {kAH, kBH})
            for (size_t i = 0; i < 3; ++i)
                if (in[at + i] < 0)
                    return refuse(why, [&] {
                        return std::string(at == kAH ? "a.h" : "b.h") + ": '" + format_number(in[at + i]) +
                               "' is outside the domain of obb_obb (half-extents >= 0)";
                    });
        return true;
    };
    f.truth = truth;
    f.cgal = [](const double* in) { return double(ref::obb_obb_cgal(in)); };
    f.band = band_of(ref::fast::obb_obb_band());
    f.value_error = [](const double*, const Truth&, const Answer&) { return ValueError{}; };
    f.deciding = deciding;
    f.feature = feature;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::obb_obb(in)); };
    f.oracle_check = [](const double* in, const FastTruth& fast) { return check_answer(self(), fast, yes(ref::obb_obb_rational(in))); };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::obb_obb(in)); };
    f.all_kernels = [] { return std::vector<FamilyKernel>{kernel("gottschalk", "conservative=16", obb_obb_gottschalk<float>)}; };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{kernel("broken:no_epsilon", "conservative=16", no_epsilon),
                                         kernel("broken:cookbook_cross_of_own_axes", "tolerant=2", cookbook_cross_of_own_axes)};
    };
    f.mixes = mixes();
    f.plugin_call_f = plugin_call<float>;
    f.plugin_out_args = "";
    f.plugin_call_d = plugin_call<double>;
    f.preconditions = {preconditions::orthonormal_rows(f, "orthonormal_axes", "a.axes"),
                       preconditions::orthonormal_rows(f, "orthonormal_axes", "b.axes")};
    Precondition extent;
    extent.name = "positive_extent";
    extent.says = "a.h, b.h > 0";
    extent.degeneracy = true;
    extent.holds = [](const double* in) {
        for (size_t at : {kAH, kBH})
            for (size_t i = 0; i < 3; ++i)
                if (!(in[at + i] > 0)) return false;
        return true;
    };
    extent.adapt = [](double* in, Source&, const Domain&) {
        for (size_t at : {kAH, kBH})
            for (size_t i = 0; i < 3; ++i)
                if (!(in[at + i] > 0)) in[at + i] = in[at + i] < 0 ? -in[at + i] : 1.0;
    };
    f.preconditions.push_back(extent);
    return f;
}

const Family& self() {
    static const Family f = make();
    return f;
}

}  // namespace

const Family& obb_obb_family() { return self(); }

}  // namespace isect::check
