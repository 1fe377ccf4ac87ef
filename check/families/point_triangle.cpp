// The point_triangle family: the closest point of a closed triangle
// (collinear and point triangles allowed) to a point. Answer: the Voronoi
// region, the feature whose relative interior holds the closest point q;
// where p lies on the boundary of two regions, either is right (also_right).
// Numbers: dist2, q, and the barycentric weights v, w of q.
#include <limits>

#include "family_common.hpp"
#include "check/model/plugin_call.hpp"
#include "check/model/generate.hpp"
#include "isect/point_triangle.hpp"
#include "isect/ref/point_triangle.hpp"

namespace isect::check {

namespace {

using namespace detail;
using ref::Rational;

const Family& self();

constexpr auto& kInput = ref::point_triangle_input;
constexpr size_t kTri = kInput.at("tri"), kP = kInput.at("p");

const char* const kOutputs[] = {"dist2", "q.x", "q.y", "q.z", "v", "w"};
const char* const kRegions[] = {"vertex_a", "vertex_b", "vertex_c", "edge_ab", "edge_bc", "edge_ca", "face"};

struct ExactInput {
    ref::Point a, b, c, p;
    explicit ExactInput(const double* in)
        : a(ref::exact(vec_at(in + kTri))), b(ref::exact(vec_at(in + kTri + 3))), c(ref::exact(vec_at(in + kTri + 6))),
          p(ref::exact(vec_at(in + kP))) {}
};

/// Whether region r is right for q, the exact closest point: the nearest
/// point of r's affine hull to p (a vertex itself; for an edge, p's
/// projection on its line; for the face, on the plane) lies in r, closed,
/// and is q. A zero-length edge is its point; a degenerate triangle has no
/// face.
bool right_region(const ExactInput& x, const ref::Point& q, int r) {
    const ref::Point* v[3] = {&x.a, &x.b, &x.c};
    if (r < 3) return *v[r] == q;
    if (r < 6) {
        const ref::Point& from = *v[r - 3];
        const ref::Point& to = *v[(r - 2) % 3];
        const ref::Point e = ref::sub(to, from);
        const Rational l = ref::dot(e, e);
        if (l == 0) return from == q;
        const Rational t = ref::dot(ref::sub(x.p, from), e) / l;
        if (t < 0 || t > 1) return false;
        return ref::Point{from[0] + t * e[0], from[1] + t * e[1], from[2] + t * e[2]} == q;
    }
    const ref::Point n = ref::cross(ref::sub(x.b, x.a), ref::sub(x.c, x.a));
    const Rational nn = ref::dot(n, n);
    if (nn == 0) return false;
    const Rational h = ref::dot(n, ref::sub(x.p, x.a)) / nn;
    return ref::Point{x.p[0] - h * n[0], x.p[1] - h * n[1], x.p[2] - h * n[2]} == q;
}

/// The exact region: the first right one (vertices, then edges, then the
/// face), which for a proper triangle is the one whose relative interior
/// holds q.
int region_of(const ExactInput& x, const ref::Point& q) {
    for (int r = 0; r < 7; ++r)
        if (right_region(x, q, r)) return r;
    throw std::logic_error("point_triangle: the closest point is in no region");
}

/// q's weights v, w (q = a + v (b - a) + w (c - a)): unique for a proper
/// triangle; for a degenerate one, those of the edge q lies on.
std::pair<Rational, Rational> weights(const ExactInput& x, const ref::Point& q) {
    const ref::Point ab = ref::sub(x.b, x.a), ac = ref::sub(x.c, x.a), aq = ref::sub(q, x.a);
    const ref::Point n = ref::cross(ab, ac);
    const Rational nn = ref::dot(n, n);
    if (nn != 0) return {ref::dot(ref::cross(aq, ac), n) / nn, ref::dot(ref::cross(ab, aq), n) / nn};
    const auto along = [&](const ref::Point& from, const ref::Point& to) -> std::optional<Rational> {
        const ref::Point e = ref::sub(to, from);
        const Rational l = ref::dot(e, e);
        if (l == 0) return from == q ? std::optional<Rational>(0) : std::nullopt;
        const Rational t = ref::dot(ref::sub(q, from), e) / l;
        if (t < 0 || t > 1 || ref::Point{from[0] + t * e[0], from[1] + t * e[1], from[2] + t * e[2]} != q) return std::nullopt;
        return t;
    };
    if (const auto t = along(x.a, x.b)) return {*t, 0};
    if (const auto t = along(x.b, x.c)) return {1 - *t, *t};
    if (const auto t = along(x.c, x.a)) return {0, 1 - *t};
    throw std::logic_error("point_triangle: the closest point is on no edge of a degenerate triangle");
}

Truth truth_of(const ExactInput& x, const ref::PointTriangleExact& q) {
    Truth t;
    t.answer = region_of(x, q.q);
    const auto [v, w] = weights(x, q.q);
    t.values = {ref::to_double(q.dist2), ref::to_double(q.q[0]), ref::to_double(q.q[1]), ref::to_double(q.q[2]),
                ref::to_double(v), ref::to_double(w)};
    return t;
}

Truth truth(const double* in) {
    const ExactInput x(in);
    const ref::PointTriangleExact q = ref::point_triangle_rational(in);
    const Rational g = ref::point_triangle_cgal(x.a, x.b, x.c, x.p);
    if (q.dist2 != g)
        throw ReferenceMismatch("point_triangle references disagree: rational says dist2 = " + q.dist2.str() + ", cgal says " +
                                g.str());
    return truth_of(x, q);
}

/// Scales. dist2 as segment_segment's: S = 7 M dist + 12 u M^2 + dist2 (p
/// and every point of the triangle move by at most sqrt(3) u M). q moves
/// with the inputs by u M, and with the feature's turning: for the face its
/// normal turns by about u M L / |n| (L the longest edge), an edge's line by
/// u M / l, and at the distance dist that moves q by dist times that: S_q
/// = M + dist M L / |n| for a proper triangle (L / |n| >= 1 / l for every
/// edge), M + dist M / l for a degenerate one (l the shortest nonzero
/// edge). v and w are judged by the point they give, a + v (b - a) + w (c -
/// a), against q, within S_q plus the magnitudes that combination rounds.
ValueError value_error(const double* in, const Truth& truth, const Answer& got) {
    ValueError e;
    const double u = unit_roundoff(), m = largest_magnitude(in, kInput.size()), d2 = truth.values[0], dist = std::sqrt(d2);
    worst(e, units(got.values[0], d2, 7 * m * dist + 12 * u * m * m + d2), "dist2");
    const Vec3d a = vec_at(in + kTri), b = vec_at(in + kTri + 3), c = vec_at(in + kTri + 6);
    const Vec3d ab = sub(b, a), ac = sub(c, a), bc = sub(c, b);
    const Vec3d n = cross(ab, ac);
    const double nn = std::sqrt(dot(n, n));
    double longest = 0, shortest = 0;
    for (const Vec3d* x : {&ab, &ac, &bc}) {
        const double l = std::sqrt(dot(*x, *x));
        longest = std::max(longest, l);
        if (l > 0 && (shortest == 0 || l < shortest)) shortest = l;
    }
    const double turn = nn > 0 ? longest / nn : shortest > 0 ? 1 / shortest : 0;
    const double sq = m + dist * m * turn;
    const double v = got.values[4], w = got.values[5];
    for (size_t i = 0; i < 3; ++i) {
        worst(e, units(got.values[1 + i], truth.values[1 + i], sq), kOutputs[1 + i]);
        const long double given = (long double)a[i] + (long double)v * ab[i] + (long double)w * ac[i];
        const double rounds = std::fabs(a[i]) + std::fabs(v * ab[i]) + std::fabs(w * ac[i]);
        worst(e, units(double(given), truth.values[1 + i], sq + rounds), "v, w (the point they give)");
    }
    return e;
}

/// What decides the closest point: the triangle's shape as the body's signs
/// found it, and the region.
std::string deciding(const double* in, const Truth& truth, int) {
    const std::string region = kRegions[truth.answer];
    switch (isect::detail::TriangleShape(ref::point_triangle_rational(in).shape)) {
        case isect::detail::TriangleShape::point: return "a point triangle, " + region;
        case isect::detail::TriangleShape::collinear: return "a collinear triangle, " + region;
        case isect::detail::TriangleShape::proper: break;
    }
    return "closest in " + region;
}

/// The shortest nonzero edge (max norm).
double feature(const double* in) { return shortest_edge(in + kTri, 3); }

// --- Kernels and planted bugs --------------------------------------------------------

template <class T> using ClosestFn = PointTriangleClosest (*)(const BasicTriangle<T>&, const std::array<T, 3>&);

template <class T>
FamilyKernel kernel(const std::string& name, const std::string& contract, double error_e, ClosestFn<T> fn, const char* domain = nullptr,
                    bool proper = false) {
    FamilyKernel k{name, *Contract::parse(contract), error_e, [fn](const double* in) {
                       const PointTriangleClosest c = fn(tri_as<T>(in + kTri), vec_as<T>(in + kP));
                       return Answer{int(c.region), {c.dist2, c.q[0], c.q[1], c.q[2], c.v, c.w}};
                   }};
    k.precision = precision_of<T>();
    k.domain = Domain::declared(domain);
    if (proper) {
        if (!k.domain) k.domain = Domain{};
        k.domain->required = {"proper_triangle"};
    }
    return k;
}

/// Ericson's code in arithmetic R. Not a built-in: on a sliver the face's
/// weights v = vb / (va + vb + vc), w = vc / (...) divide differences of
/// products of dot products, each of size L^4, by a sum of size |n|^2, and
/// even in double on float input q came out 6.7e-3 from the exact closest
/// point of a triangle 2 long and 1e-7 wide, with p 1.3e-8 from it (E 1.1e8;
/// corpus/point_triangle/ericson_sliver_face_weights.case). No K or E
/// bounds that, so the code is kept as planted bugs: in double on float
/// input (broken:ericson, in 2^-20:2^20), in float and in double.
template <class R, class T> PointTriangleClosest ericson(const BasicTriangle<T>& t, const std::array<T, 3>& p) {
    return closest_point_triangle_ericson<R, T>(t, p);
}
template <class T> PointTriangleClosest exact(const BasicTriangle<T>& t, const std::array<T, 3>& p) {
    return closest_point_triangle_exact<T>(t, p);
}

/// Planted bug: the face's weights swapped, v = vc / (...), w = vb / (...)
/// (vb and vc are easily confused: each is named for the vertex it is
/// opposite to, not the weight it gives).
PointTriangleClosest swapped_weights(const Triangle& t, const Vec3f& p) {
    PointTriangleClosest c = closest_point_triangle_ericson<double, float>(t, p);
    if (c.region != TriangleRegion::face) return c;
    std::swap(c.v, c.w);
    for (size_t i = 0; i < 3; ++i) c.q[i] = double(t.v[0][i]) + (double(t.v[1][i]) - t.v[0][i]) * c.v + (double(t.v[2][i]) - t.v[0][i]) * c.w;
    const Vec3d g = sub(Vec3d{p[0], p[1], p[2]}, c.q);
    c.dist2 = dot(g, g);
    return c;
}

/// Planted bug: the face branch taken for every point inside the three
/// edge planes' wedge without the vertex tests first: p's projection on the
/// plane, clamped to nothing, for any point whose signed areas va, vb, vc
/// are all nonnegative, and the vertex regions only after. A point beyond
/// a vertex whose projection falls outside keeps its projection's weights.
PointTriangleClosest projection_only(const Triangle& t, const Vec3f& p) {
    const Vec3d a{t.v[0][0], t.v[0][1], t.v[0][2]}, b{t.v[1][0], t.v[1][1], t.v[1][2]}, c{t.v[2][0], t.v[2][1], t.v[2][2]};
    const Vec3d pp{p[0], p[1], p[2]};
    const Vec3d ab = sub(b, a), ac = sub(c, a), n = cross(ab, ac);
    const double nn = dot(n, n);
    if (!(nn > 0)) return closest_point_triangle_ericson<double, float>(t, p);
    const double h = dot(n, sub(pp, a)) / nn;
    const Vec3d q{pp[0] - h * n[0], pp[1] - h * n[1], pp[2] - h * n[2]};
    PointTriangleClosest out;
    out.region = TriangleRegion::face;
    out.v = dot(cross(sub(q, a), ac), n) / nn;
    out.w = dot(cross(ab, sub(q, a)), n) / nn;
    out.q = q;
    const Vec3d g = sub(pp, q);
    out.dist2 = dot(g, g);
    return out;
}

// --- Constructions ------------------------------------------------------------------

Inputs layout(const Triangle& t, const Vec3f& p) {
    Inputs in = gen::fresh();
    in.reserve(kInput.size());
    gen::put(in, t);
    gen::put(in, p);
    return in;
}

Vec3f add(const Vec3f& p, const Vec3f& q, float s = 1) { return {p[0] + s * q[0], p[1] + s * q[1], p[2] + s * q[2]}; }

Triangle grid_triangle(Source& s) { return {{gen::grid_point(s, 3), gen::grid_point(s, 3), gen::grid_point(s, 3)}}; }

std::vector<Mix> mixes() {
    return {
        {"grid", 2, [](Source& s) { return layout(grid_triangle(s), gen::grid_point(s, 4)); }},
        {"boundary", 2, [](Source& s) {  // p on a region boundary: above a vertex or an edge point, or on a vertex's edge plane
             const Triangle t = grid_triangle(s);
             const Vec3f n = gen::grid_point(s, 2);
             const size_t k = s.range<size_t>(0, 3);
             const Vec3f &x = t.v[k], &y = t.v[(k + 1) % 3];
             Vec3f base = x;
             if (s.coin()) base = {0.5f * (x[0] + y[0]), 0.5f * (x[1] + y[1]), 0.5f * (x[2] + y[2])};
             return layout(t, add(base, n, s.pick(0.0f, 1.0f, 0.5f)));
         }},
        {"collinear", 1, [](Source& s) {  // a segment or a point triangle
             const Vec3f a = gen::grid_point(s, 3), d = gen::grid_point(s, 2);
             Triangle t{{a, add(a, d, s.pick(1.0f, 0.0f, 2.0f)), add(a, d, s.pick(0.5f, -1.0f, 0.0f, 3.0f))}};
             return layout(t, gen::grid_point(s, 4));
         }},
        {"sliver", 2, [](Source& s) {  // the third vertex an ulp or a few off the line of the other two
             const int e = s.range(-4, 5);
             Triangle t{{gen::uniform_point(s, e), gen::uniform_point(s, e), {}}};
             const float f = s.pick(0.5f, 0.25f, 2.0f, -1.0f);
             for (size_t i = 0; i < 3; ++i) {
                 t.v[2][i] = t.v[0][i] + f * (t.v[1][i] - t.v[0][i]);
                 for (int k = s.range(0, 3); k > 0; --k) t.v[2][i] = std::nextafter(t.v[2][i], s.coin() ? INFINITY : -INFINITY);
             }
             if (s.coin()) return layout(t, gen::uniform_point(s, e));
             // p next to the sliver, where its face's weights are ill-conditioned.
             const float g = s.pick(0.25f, 0.5f, 0.75f);
             Vec3f p;
             for (size_t i = 0; i < 3; ++i) p[i] = t.v[0][i] + g * (t.v[1][i] - t.v[0][i]);
             p[size_t(s.range(0, 3))] += std::ldexp(gen::uniform(s, 0), e - s.range(20, 26));
             return layout(t, p);
         }},
        {"in_plane", 1, [](Source& s) {  // p in the triangle's plane: inside, on an edge, or beyond it
             const Triangle t = grid_triangle(s);
             const float v = s.pick(0.25f, 0.5f, 0.0f, 1.0f, -0.5f, 1.5f), w = s.pick(0.25f, 0.5f, 0.0f, -0.25f);
             Vec3f p;
             for (size_t i = 0; i < 3; ++i) p[i] = t.v[0][i] + v * (t.v[1][i] - t.v[0][i]) + w * (t.v[2][i] - t.v[0][i]);
             return layout(t, p);
         }},
        {"uniform", 2, [](Source& s) {
             const int e = s.range(-8, 9);
             Triangle t;
             for (Vec3f& v : t.v) v = gen::uniform_point(s, e);
             return layout(t, gen::uniform_point(s, e + 1));
         }},
        {"far", 1, [](Source& s) {  // a small triangle far from the origin
             const float far = std::ldexp(float(s.range(1, 8)), s.range(10, 20));
             const Vec3f c{far, far * s.pick(1.0f, -1.0f, 0.5f), far * s.pick(0.0f, 1.0f)};
             Triangle t{{add(c, gen::grid_point(s, 3)), add(c, gen::grid_point(s, 3)), add(c, gen::grid_point(s, 3))}};
             return layout(t, add(c, gen::grid_point(s, 4)));
         }},
    };
}

/// isect_point_triangle(tri, p, out[6]): returns the region (0 vertex a, 1
/// vertex b, 2 vertex c, 3 edge ab, 4 edge bc, 5 edge ca, 6 face).
template <class T> Answer plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    const T u = unset_value<T>();
    T out[6] = {u, u, u, u, u, u};
    const int r = as<int (*)(P, P, T*)>(fn)(in + kTri, in + kP, out);
    return plugin_answer<T>(f, r, {out[0], out[1], out[2], out[3], out[4], out[5]});
}

Family make() {
    Family f;
    f.name = "point_triangle";
    f.inputs = inputs_of(kInput);
    f.answers.assign(std::begin(kRegions), std::end(kRegions));
    f.answer_has_values.assign(7, true);
    f.safe_answer = 6;
    f.outputs.assign(std::begin(kOutputs), std::end(kOutputs));
    f.references = "rational (the fast body on exact numbers: Ericson's Voronoi tests) and cgal (squared_distance to Triangle_3)";
    f.in_domain = [](const double* in, std::string* why) { return all_finite(self(), in, why); };
    f.truth = truth;
    f.first_reference = [](const double* in) { return truth_of(ExactInput(in), ref::point_triangle_rational(in)); };
    f.also_right = [](const double* in, int answer) {
        if (answer < 0 || answer >= 7) return false;
        const ExactInput x(in);
        return right_region(x, ref::point_triangle_rational(in).q, answer);
    };
    f.cgal = [](const double* in) {
        const ExactInput x(in);
        return ref::to_double(ref::point_triangle_cgal(x.a, x.b, x.c, x.p));
    };
    f.band = band_of(ref::fast::point_triangle_band());
    f.value_error = value_error;
    f.deciding = deciding;
    f.feature = feature;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::point_triangle(in)); };
    f.oracle_check = [](const double* in, const FastTruth& fast) {
        const ExactInput x(in);
        const ref::PointTriangleExact q = ref::point_triangle_rational(in);
        // The oracle's region must be right (on a boundary, either is).
        if (!right_region(x, q.q, fast.answer))
            return std::string("the oracle says ") + kRegions[fast.answer] + ", which does not hold the closest point";
        const double exact[4] = {ref::to_double(q.dist2), ref::to_double(q.q[0]), ref::to_double(q.q[1]), ref::to_double(q.q[2])};
        return check_rounded_enclosures(self(), fast, exact, 4);
    };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::point_triangle(in)); };
    f.all_kernels = [] {
        return std::vector<FamilyKernel>{kernel<float>("exact", "exact", 4, exact<float>),
                                         kernel<double>("exact", "exact", 4, exact<double>, "2^-100:2^100")};
    };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{kernel<float>("broken:ericson", "tolerant=1", 4, ericson<double, float>, "2^-20:2^20", true),
                                         kernel<float>("broken:ericson_in_float", "tolerant=1", 4, ericson<float, float>, nullptr, true),
                                         kernel<float>("broken:swapped_weights", "tolerant=1", 4, swapped_weights, nullptr, true),
                                         kernel<float>("broken:projection_only", "tolerant=1", 4, projection_only, nullptr, true),
                                         kernel<double>("broken:ericson_in_double", "tolerant=1", 4, ericson<double, double>,
                                                        nullptr, true)};
    };
    f.mixes = mixes();
    f.plugin_call_f = plugin_call<float>;
    f.plugin_out_args = "out";
    f.plugin_call_d = plugin_call<double>;
    f.preconditions = {preconditions::proper_triangle(f, "tri")};
    return f;
}

const Family& self() {
    static const Family f = make();
    return f;
}

}  // namespace

const Family& point_triangle_family() { return self(); }

}  // namespace isect::check
