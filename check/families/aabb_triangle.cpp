// The aabb_triangle family: closed box vs closed triangle, yes or no.
#include <cmath>
#include <optional>

#include "family_common.hpp"
#include "check/model/plugin_call.hpp"
#include "isect/aabb_triangle.hpp"
#include "check/model/generate.hpp"
#include "isect/ref/aabb_triangle.hpp"

namespace isect::check {

namespace {

using namespace detail;
using ref::Rational;

const Family& self();

// The input, by key (isect/ref/aabb_triangle.hpp): offsets derived, never
// written. box_at reads a box's lo and hi as adjacent keys.
constexpr auto& kInput = ref::aabb_triangle_input;
constexpr size_t kBox = kInput.at("box.lo"), kBoxHi = kInput.at("box.hi"), kTri = kInput.at("tri");
static_assert(kBoxHi == kBox + 3);

/// Both references on a rational box; they must agree.
bool exact_answer_of(const ref::ExactAabb& box, const ref::ExactTriangle& tri) {
    const bool clip = ref::aabb_triangle_clip(box, tri);
    const bool cgal = ref::aabb_triangle_cgal(box, tri);
    if (clip != cgal)
        throw ReferenceMismatch(std::string("aabb_triangle references disagree: clip says ") +
                                (clip ? "overlap" : "disjoint") + ", cgal says " + (cgal ? "overlap" : "disjoint"));
    return clip;
}

Truth truth(const double* in) { return {yes(exact_answer_of(ref::exact(box_at(in + kBox)), ref::exact(tri_at(in + kTri)))), {}, {}, {}}; }

/// Which kind of the 13 axes separates the closed sets most robustly (the
/// widest gap per unit of box growth), decided exactly: a face axis, the
/// normal, an edge axis; when they meet, "touching" (some
/// move, however small, separates them) or "overlapping".
std::string deciding_axis(const double* in, const Truth& truth, int) {
    if (truth.answer == 1) {
        double delta[kInput.size()];
        band_deltas(self(), in, 0x1p-40 * unit_roundoff(), delta);
        return self().band.exact(in, 1, delta) ? "touching" : "overlapping";
    }
    // Growing the box by g on every side widens its projection on x by
    // g |x|_1, so gap / |x|_1 is how far it must grow before x stops
    // separating. The axes and gaps as the band's separating-axis test
    // states them; ties go to the first axis in the usual order.
    const std::array<ref::AabbTriangleAxis, 13> axes = ref::aabb_triangle_axes(in);
    std::string best = "touching";
    Rational widest = 0;
    for (size_t a = 0; a < axes.size(); ++a) {
        if (axes[a].norm1 == 0 || axes[a].gap <= 0) continue;
        if (const Rational g = axes[a].gap / axes[a].norm1; g > widest) {
            widest = g;
            best = a < 3 ? "separated by a face axis" : a == 3 ? "separated by the normal"
                                                               : "separated by an edge axis (box direction x triangle edge)";
        }
    }
    return best;
}

/// The smallest nonzero triangle edge (max norm) or box extent.
double feature(const double* in) {
    double m = 0;
    const auto consider = [&](double x) {
        if (x > 0 && (m == 0 || x < m)) m = x;
    };
    for (int i = 0; i < 3; ++i) consider(double(in[kBoxHi + i]) - double(in[kBox + i]));
    consider(shortest_edge(in + kTri, 3));
    return m;
}

// --- The fast exact oracle -------------------------------------------------------

std::optional<FastTruth> fast_truth(const double* in) {
    return FastTruth{yes(ref::aabb_triangle_cgal_fast(box_at(in + kBox), tri_at(in + kTri))), {}, {}};
}

// --- Kernels and planted bugs ------------------------------------------------------

template <class T> using TestFn = bool (*)(const BasicAabb<T>&, const BasicTriangle<T>&);

/// A kernel of scalar T (float, or double for the double-precision runs).
template <class T> FamilyKernel kernel(const std::string& name, const std::string& contract, TestFn<T> fn) {
    FamilyKernel k{name, *Contract::parse(contract), 0,
                   [fn](const double* in) { return Answer{yes(fn(box_as<T>(in + kBox), tri_as<T>(in + kTri))), {}}; }};
    k.precision = precision_of<T>();
    return k;
}

/// The normal test as isect first shipped it: only v0 projected onto the
/// computed normal, as if every vertex projected alike. True for a real
/// normal; for a collinear triangle the computed normal is rounding noise.
/// Returns true when it separates.
bool normal_one_vertex_separates(const Aabb& box, const Triangle& tri) {
    Vec3d c, h, v[3];
    for (int i = 0; i < 3; ++i) {
        c[i] = 0.5 * (double(box.lo[i]) + box.hi[i]);
        h[i] = 0.5 * (double(box.hi[i]) - box.lo[i]);
        for (int k = 0; k < 3; ++k) v[k][i] = tri.v[k][i] - c[i];
    }
    const Vec3d f0{v[1][0] - v[0][0], v[1][1] - v[0][1], v[1][2] - v[0][2]};
    const Vec3d f1{v[2][0] - v[1][0], v[2][1] - v[1][1], v[2][2] - v[1][2]};
    const Vec3d n = cross(f0, f1);
    const double d = dot(n, v[0]);
    const double r = h[0] * std::fabs(n[0]) + h[1] * std::fabs(n[1]) + h[2] * std::fabs(n[2]);
    return d > r || d < -r;
}

/// Planted bug: sat without the nine edge axes, seed 002's trap (its +-10
/// case is a false hit).
bool sat_without_edge_axes(const Aabb& box, const Triangle& tri) {
    return !isect::detail::face_axes_separate(box, tri) && !normal_one_vertex_separates(box, tri);
}

/// Planted bug: the triangle-normal test in float, as seed 000 computes it:
/// n . v is a product of three inputs and overflows to inf above about 2^42,
/// or flushes to zero below about 2^-50.
bool sat_normal_in_float(const Aabb& box, const Triangle& tri) {
    if (isect::detail::face_axes_separate(box, tri)) return false;
    Vec3f c, h, v[3];
    for (int i = 0; i < 3; ++i) {
        c[i] = 0.5f * (box.lo[i] + box.hi[i]);
        h[i] = 0.5f * (box.hi[i] - box.lo[i]);
        for (int k = 0; k < 3; ++k) v[k][i] = tri.v[k][i] - c[i];
    }
    const Vec3f f0{v[1][0] - v[0][0], v[1][1] - v[0][1], v[1][2] - v[0][2]};
    const Vec3f f1{v[2][0] - v[1][0], v[2][1] - v[1][1], v[2][2] - v[1][2]};
    const Vec3f n{f0[1] * f1[2] - f0[2] * f1[1], f0[2] * f1[0] - f0[0] * f1[2], f0[0] * f1[1] - f0[1] * f1[0]};
    const float d = n[0] * v[0][0] + n[1] * v[0][1] + n[2] * v[0][2];
    const float r = h[0] * std::fabs(n[0]) + h[1] * std::fabs(n[1]) + h[2] * std::fabs(n[2]);
    if (d > r || d < -r) return false;
    return aabb_triangle_sat(box, tri);  // the rest as shipped
}

/// Planted bug: an absolute epsilon added to every box radius "for
/// robustness": right at unit scale, false hits once the scene is small.
template <class T> bool sat_absolute_epsilon(const BasicAabb<T>& box, const BasicTriangle<T>& tri) {
    BasicAabb<T> grown = box;
    for (int i = 0; i < 3; ++i) {
        grown.lo[i] -= T(1e-6);
        grown.hi[i] += T(1e-6);
    }
    return aabb_triangle_sat(grown, tri);
}

/// Planted bug: sat as isect first shipped it (corpus:
/// sat_collinear_garbage_normal, found by the fuzzer).
bool sat_normal_one_vertex(const Aabb& box, const Triangle& tri) {
    return !normal_one_vertex_separates(box, tri) && aabb_triangle_sat(box, tri);
}

/// Planted bug: the conservative kernel with seed 002's edge-axis
/// comparison: touching on an edge axis (boxMax <= triMin) separates, so a
/// triangle touching a box edge with an edge of its own is missed.
bool conservative_touching_separates(const Aabb& box, const Triangle& tri) {
    if (!aabb_triangle_conservative(box, tri)) return false;
    Vec3d v[3];
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i) v[k][i] = tri.v[k][i];
    const Vec3d f[3] = {sub(tri.v[1], tri.v[0]), sub(tri.v[2], tri.v[1]), sub(tri.v[0], tri.v[2])};
    for (const Vec3d& e : f) {
        for (const Vec3d& x : {Vec3d{0, -e[2], e[1]}, Vec3d{e[2], 0, -e[0]}, Vec3d{-e[1], e[0], 0}}) {
            if (x[0] == 0 && x[1] == 0 && x[2] == 0) continue;
            double bmin = 0, bmax = 0;
            for (int i = 0; i < 3; ++i) {
                bmin += std::min(x[i] * box.lo[i], x[i] * box.hi[i]);
                bmax += std::max(x[i] * box.lo[i], x[i] * box.hi[i]);
            }
            const double p0 = dot(x, v[0]), p1 = dot(x, v[1]), p2 = dot(x, v[2]);
            if (bmax <= min3(p0, p1, p2) || bmin >= max3(p0, p1, p2)) return false;
        }
    }
    return true;
}

// --- Constructions ------------------------------------------------------------------

Inputs layout(const Aabb& b, const Triangle& t) {
    Inputs in = gen::fresh();
    gen::put(in, b);
    gen::put(in, t);
    return in;
}

/// Cases from a user's mesh, as a voxeliser calls aabb_triangle: one of its
/// triangles against a box of a grid over the mesh (2^1 to 2^8 cells an
/// axis), the cell of one of the triangle's vertices or of its centroid,
/// or a cell beside it.
std::vector<Mix> mesh_mixes(const std::shared_ptr<const Mesh>& mesh) {
    return {{"mesh_voxel", 3, [mesh](Source& s) {
                 const Mesh& m = *mesh;
                 const Triangle t = mesh_triangle(m, any_triangle(m, s));
                 const int k = s.range(1, 9);
                 Vec3f p = t.v[size_t(s.range(0, 3))];
                 if (s.coin())
                     for (size_t c = 0; c < 3; ++c) p[c] = (t.v[0][c] + t.v[1][c] + t.v[2][c]) / 3;
                 Aabb box;
                 for (size_t c = 0; c < 3; ++c) {
                     const float size = std::max(m.hi[c] - m.lo[c], mesh_extent(m) / 256) / float(1 << k);
                     const float cell = std::floor((p[c] - m.lo[c]) / size) + float(s.pick(0, 0, 0, 1, -1));
                     box.lo[c] = m.lo[c] + cell * size;
                     box.hi[c] = m.lo[c] + (cell + 1) * size;
                 }
                 return layout(box, t);
             }}};
}

/// Uniform: 24-bit mantissas at a common random exponent. A quarter of the
/// triangles are slivers: the third vertex is v0 + t (v1 - v0) rounded to
/// float, collinear but for the rounding.
Inputs make_uniform(Source& s) {
    const int e = s.range(-8, 9);
    const Aabb box = gen::uniform_box(s, e);
    Triangle tri;
    for (Vec3f& v : tri.v) v = gen::uniform_point(s, e);
    if (s.range(0, 4) == 0) {
        const float t = s.pick(0.5f, -1.0f, 0.3f, 0.7f, 2.0f);
        for (int i = 0; i < 3; ++i) tri.v[2][i] = tri.v[0][i] + t * (tri.v[1][i] - tri.v[0][i]);
    }
    return layout(box, tri);
}

/// Grid-snapped near-degenerate constructions, at a scale of 2^-3..2^3.
Inputs make_grid(Source& s) {
    const Vec3f p = gen::grid_point(s, 3), q = gen::grid_point(s, 3);
    const Aabb b = gen::box_between(p, q);  // flat on an axis when p and q share it
    Triangle tri;
    auto& v = tri.v;
    for (Vec3f& x : v) x = gen::grid_point(s, 4);
    switch (s.range(0, 11)) {
        case 0: break;
        case 1: v[1] = v[0]; break;                 // repeated vertex: a segment
        case 2: v[2] = v[1] = v[0]; break;          // a point
        case 3: {                                   // collinear, third vertex outside the edge
            const int m = s.pick(2, -2, -1, 3);
            for (int i = 0; i < 3; ++i) v[2][i] = v[0][i] + float(m) * (v[1][i] - v[0][i]);
            break;
        }
        case 4:                                     // collinear, third vertex inside the edge
            for (int i = 0; i < 3; ++i) v[2][i] = 0.5f * (v[0][i] + v[1][i]);
            break;
        case 5: {                                   // an edge parallel to an axis
            const int axis = s.range(0, 3);
            v[1] = v[0];
            v[1][axis] = gen::grid(s, 4);
            break;
        }
        case 6:                                     // a vertex on a box corner
            for (int i = 0; i < 3; ++i) v[0][i] = s.coin() ? b.lo[i] : b.hi[i];
            break;
        case 7:                                     // a vertex on a box edge or face
            for (int i = 0; i < 3; ++i) {
                const int pick = s.range(0, 3);
                v[0][i] = pick == 0 ? b.lo[i] : pick == 1 ? b.hi[i] : v[0][i];
            }
            break;
        case 8: {                                   // triangle in a face's plane
            const int axis = s.range(0, 3);
            const float plane = s.coin() ? b.lo[axis] : b.hi[axis];
            for (Vec3f& x : v) x[axis] = plane;
            break;
        }
        case 9: {                                   // an edge along a box edge's line
            const int axis = s.range(0, 3);
            for (int i = 0; i < 3; ++i)
                if (i != axis) v[0][i] = v[1][i] = s.coin() ? b.lo[i] : b.hi[i];
            break;
        }
        case 10: {                                  // a sliver: collinear, then one coordinate a few ulps off
            const int m = s.pick(2, -2, -1, 3);
            for (int i = 0; i < 3; ++i) v[2][i] = v[0][i] + float(m) * (v[1][i] - v[0][i]);
            float& x = v[2][s.range(0, 3)];
            for (int steps = s.range(1, 4); steps > 0; --steps) x = std::nextafter(x, s.coin() ? INFINITY : -INFINITY);
            break;
        }
    }
    Inputs in = layout(b, tri);
    const int k = int(s.range(0, 7)) - 3;
    for (double& x : in) x = to_precision(std::ldexp(x, k));
    return in;
}

/// Seed 002's family: a triangle by a box edge that no face separates, with
/// only the edge axis (1,1,0) (up to symmetry) left to decide. a >= b keeps
/// the near vertices on or beyond the plane x + y = 2s; a == b touches it.
Inputs make_pm10(Source& s) {
    const int n = s.range(1, 17);
    const auto pair = [&s] {
        const int a = s.range(1, 5);
        return std::pair<int, int>{a, s.range(1, a + 1)};
    };
    const auto [a1, b1] = pair();
    const auto [a2, b2] = pair();
    const auto z = [&s, n] { return float(s.range(-n, n + 11)); };
    const float fn = float(n);
    Triangle tri;
    tri.v[0] = {fn + float(a1), fn - float(b1), z()};
    tri.v[1] = {fn - float(b2), fn + float(a2), z()};
    const float x2 = fn + float(s.range(0, 11)), y2 = fn + float(s.range(0, 11));
    tri.v[2] = {x2, y2, z()};
    Inputs in = layout({{-fn, -fn, -fn}, {fn, fn, fn}}, tri);
    // Any of the 48 symmetries of the cube, then 2^k.
    const int perm = s.range(0, 6), mirror = s.range(0, 8), k = s.range(-4, 5);
    static constexpr int kPerms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    Inputs out(15);
    for (int i = 0; i < 3; ++i) {
        const int src = kPerms[perm][i];
        const bool flip = (mirror >> i) & 1;
        out[size_t(i)] = flip ? -in[size_t(3 + src)] : in[size_t(src)];
        out[size_t(3 + i)] = flip ? -in[size_t(src)] : in[size_t(3 + src)];
        for (int v = 0; v < 3; ++v) out[size_t(6 + 3 * v + i)] = flip ? -in[size_t(6 + 3 * v + src)] : in[size_t(6 + 3 * v + src)];
    }
    for (double& x : out) x = to_precision(std::ldexp(x, k));
    return out;
}

/// Exactly collinear triangles of full-precision coordinates through a point
/// of the box, often much longer than the box, some box bounds of unrelated
/// exponents: the computed normal is pure rounding noise, and the vertices'
/// projections on it differ by more than the box radius (how the fuzzer found
/// corpus/aabb_triangle/sat_collinear_garbage_normal).
Inputs make_collinear(Source& s) {
    std::vector<float> in = as_floats(make_uniform(s));
    for (int i = 0; i < 3; ++i)
        if (s.coin()) in[size_t(3 + i)] = std::ldexp(in[size_t(3 + i)], -s.range(10, 60));
    for (int i = 0; i < 3; ++i)
        if (in[size_t(i)] > in[size_t(3 + i)]) std::swap(in[size_t(i)], in[size_t(3 + i)]);
    const int longer = s.range(0, 13);  // a segment up to 2^12 times the box
    for (int i = 0; i < 3; ++i) {
        float& v0 = in[size_t(6 + i)];
        float& v1 = in[size_t(9 + i)];
        float& v2 = in[size_t(12 + i)];
        // v0 = v1 - d and v2 = v1 + d exactly: d with its last mantissa bit
        // clear, and v1 (a point of the box) a multiple of d's doubled ulp.
        float d = std::ldexp(v2 - v1, longer);
        const float step = 2 * (std::nextafter(std::fabs(d), INFINITY) - std::fabs(d));
        d = step > 0 && std::isfinite(step) ? std::round(d / step) * step : 0.0f;
        const float t = float(s.range(1, 8)) / 8;
        const float lo = in[size_t(i)], hi = in[size_t(3 + i)];
        float mid = lo + t * (hi - lo);
        if (step > 0 && std::fabs(mid) < std::fabs(d)) mid = std::round(mid / step) * step;
        const float a = mid - d, c = mid + d;
        const bool exact = double(a) + double(c) == 2.0 * double(mid) && double(c) - double(mid) == double(d);
        v1 = mid;
        v0 = exact ? a : mid;  // else the coordinate is shared: still collinear
        v2 = exact ? c : mid;
    }
    return {in.begin(), in.end()};
}

/// isect_aabb_triangle(box.lo, box.hi, tri).
template <class T> Answer plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    return plugin_answer<T>(f, as<int (*)(P, P, P)>(fn)(in + kBox, in + kBoxHi, in + kTri), {});
}

Family make() {
    Family f;
    f.name = "aabb_triangle";
    f.inputs = inputs_of(kInput);
    f.answers = {"disjoint", "overlap"};
    f.answer_has_values = {false, false};
    f.references = "clip (Boost rationals, the triangle clipped by the box's half-spaces) and cgal (Triangle_3 x Iso_cuboid_3)";
    f.in_domain = [](const double* in, std::string* why) {
        return all_finite(self(), in, why) && box_ordered(self(), kBox, kBoxHi, in, why);
    };
    f.truth = truth;
    f.fast_truth = fast_truth;
    f.cgal = [](const double* in) {
        return double(ref::aabb_triangle_cgal(ref::exact(box_at(in + kBox)), ref::exact(tri_at(in + kTri))));
    };
    f.band = band_of(ref::fast::aabb_triangle_band());
    f.value_error = [](const double*, const Truth&, const Answer&) { return ValueError{}; };
    f.deciding = deciding_axis;
    f.oracle_check = [](const double* in, const FastTruth& t) {
        return check_answer(self(), t, yes(ref::aabb_triangle_clip(ref::exact(box_at(in + kBox)), ref::exact(tri_at(in + kTri)))));
    };
    // Planted wrong oracle: isect's own sat kernel, double with tolerant=1.
    f.wrong_oracle = [](const double* in) { return FastTruth{yes(aabb_triangle_sat(box_f(in + kBox), tri_f(in + kTri))), {}, {}}; };
    f.feature = feature;
    f.all_kernels = [] {
        // The separating axes do not depend on the triangle's vertex order,
        // but their rounding does: at mixed scales (a vertex 2^110 from
        // another) the fuzzer found sat answering otherwise rotated, so
        // rotation is claimed in 2^-20:2^20.
        return std::vector<FamilyKernel>{claiming(kernel<float>("sat", "tolerant=1", aabb_triangle_sat<float>), {RelationKind::rotation}, "2^-20:2^20"),
                                         claiming(kernel<double>("sat", "tolerant=2", aabb_triangle_sat<double>), {RelationKind::rotation}, "2^-20:2^20"),
                                         claiming(kernel("conservative", "conservative", aabb_triangle_conservative), {RelationKind::rotation}, "2^-20:2^20"),
                                         kernel("exact", "exact", aabb_triangle_exact)};
    };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{
            kernel<double>("broken:sat_absolute_epsilon", "tolerant=1", sat_absolute_epsilon<double>),
            kernel("broken:sat_without_edge_axes", "tolerant=1", sat_without_edge_axes),
            kernel("broken:sat_normal_in_float", "tolerant=1", sat_normal_in_float),
            kernel("broken:sat_absolute_epsilon", "tolerant=1", sat_absolute_epsilon<float>),
            kernel("broken:sat_normal_one_vertex", "tolerant=1", sat_normal_one_vertex),
            kernel("broken:conservative_touching_separates", "conservative", conservative_touching_separates)};
    };
    f.mixes = {{"uniform", 2, make_uniform}, {"grid", 4, make_grid}, {"pm10", 2, make_pm10}, {"collinear", 1, make_collinear}};
    f.mesh_mixes = mesh_mixes;
    f.plugin_call_f = plugin_call<float>;
    f.plugin_out_args = "";
    f.plugin_call_d = plugin_call<double>;
    f.preconditions = {preconditions::positive_extent(f), preconditions::proper_triangle(f, "tri")};
    return f;
}

const Family& self() {
    static const Family f = make();
    return f;
}

}  // namespace

const Family& aabb_triangle_family() { return self(); }

}  // namespace isect::check
