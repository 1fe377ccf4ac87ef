// The triangle_measures and polygon_measures families: seed 001's measures
// of a triangle (area, barycentrics, circumcircle, distance of a point) and
// of a polygon (Newell's plane, distance of a point, convexity).

#include "family_common.hpp"
#include "check/model/plugin_call.hpp"
#include "check/model/generate.hpp"
#include "isect/ref/triangle_measures.hpp"
#include "isect/triangle_measures.hpp"

namespace isect::check {

namespace {

using namespace detail;

const Family& triangle_family();
const Family& polygon_family();

double norm1(const double* p) { return std::fabs(double(p[0])) + std::fabs(double(p[1])) + std::fabs(double(p[2])); }

// --- triangles -------------------------------------------------------------------

// The inputs, by key (isect/ref/triangle_measures.hpp): offsets derived,
// never written.
constexpr size_t kTri = ref::triangle_measures_input.at("tri"), kP = ref::triangle_measures_input.at("p");
constexpr size_t kPoly = ref::polygon_measures_input.at("poly"), kQ = ref::polygon_measures_input.at("q");

const char* const kTriangleValues[] = {"area", "u", "v", "centre.x", "centre.y", "centre.z", "radius", "distance"};

std::array<ref::Point, 3> exact_tri(const double* in) {
    return {ref::exact(vec_at(in + kTri)), ref::exact(vec_at(in + kTri + 3)), ref::exact(vec_at(in + kTri + 6))};
}

Truth triangle_truth(const double* in) {
    const auto tri = exact_tri(in);
    const ref::Point p = ref::exact(vec_at(in + kP));
    const ref::TriangleMeasuresExact q = ref::triangle_measures_rational(in), g = ref::triangle_measures_cgal(tri, p);
    std::string what;
    if (q.degenerate != g.degenerate) what = "degeneracy";
    else if (q.area2 != g.area2) what = "area";
    else if (!q.degenerate && (q.u != g.u || q.v != g.v)) what = "barycentrics";
    else if (!q.degenerate && (q.centre != g.centre || q.radius2 != g.radius2)) what = "circumcircle";
    else if (!q.degenerate && (q.distance2 != g.distance2 || q.distance_sign != g.distance_sign)) what = "distance";
    if (!what.empty()) throw ReferenceMismatch("triangle_measures references disagree on the " + what);
    Truth t;
    t.answer = q.degenerate ? 0 : 1;
    if (q.degenerate) return t;
    t.values = {ref::sqrt_to_double(q.area2), ref::to_double(q.u), ref::to_double(q.v)};
    for (const ref::Rational& x : q.centre) t.values.push_back(ref::to_double(x));
    t.values.push_back(ref::sqrt_to_double(q.radius2));
    t.values.push_back(ref::sqrt_to_double(q.distance2, q.distance_sign));
    return t;
}

/// Scales, with E1 = |b| + |a|, E2 = |c| + |a|, P = |p| + |a| (1-norms),
/// N = |n| = 2 area and L = max(E1, E2), each over the three vertices a
/// kernel may take as a (the least for the area, the most for the rest), so
/// that they do not depend on the vertex order:
///   area      |b - a| |c - a| (edges, 1-norms)
///   u         (P E2 E1 E2 + |u| N E1 E2) / N^2, v alike with E1
///   centre    |a| + (L^5 + R L^2 N) / N^2, R the radius (and the radius too)
///   distance  (P E1 E2 + |dist| E1 E2) / N
/// These are first-order bounds: they hold while the computed n is close to
/// the exact one. A computation at the run's precision gets n within about
/// u E1 E2, so the N in each denominator is N - 8 u E1 E2; where that
/// is not positive (a sliver whose normal is below rounding) every output but
/// the area is meaningless and its scale is +inf (the fuzzer found a
/// circumcentre 10^53 times off on such a sliver).
ValueError triangle_value_error(const double* in, const Truth& truth, const Answer& got) {
    // The area's scale from the vertex that gives the least: computed at
    // another (the far vertex of a needle, as three.js's getArea does) its
    // rounding is the kernel's own, not the area's. The same for every
    // vertex order.
    // The others from the vertex that gives the most (a kernel may start
    // from any), u's and v's alike: the same for every vertex order too.
    double area_scale = INFINITY, e12 = 0, uv = 0, a1 = 0, dist_top = 0;
    const double r = truth.values[6], u = truth.values[1], v = truth.values[2], dist = truth.values[7];
    for (int k = 0; k < 3; ++k) {
        const double ak = norm1(in + kTri + 3 * k), e1 = norm1(in + kTri + 3 * ((k + 1) % 3)) + ak,
                     e2 = norm1(in + kTri + 3 * ((k + 2) % 3)) + ak, pp = norm1(in + kP) + ak, l = std::max(e1, e2);
        // The area's from the edges themselves: a float difference is
        // rounded relative to itself, so a kernel working at the best vertex
        // gets the area within a few u |b - a| |c - a| wherever the triangle
        // is (the same after any translation).
        double ea = 0, eb = 0;
        for (int i = 0; i < 3; ++i) {
            const double x = in[kTri + 3 * k + size_t(i)];
            ea += std::fabs(in[kTri + 3 * ((k + 1) % 3) + size_t(i)] - x);
            eb += std::fabs(in[kTri + 3 * ((k + 2) % 3) + size_t(i)] - x);
        }
        area_scale = std::min(area_scale, ea * eb);
        e12 = std::max(e12, e1 * e2);
        uv = std::max(uv, pp * l * e1 * e2);
        a1 = std::max(a1, ak);
        dist_top = std::max(dist_top, pp * e1 * e2);
    }
    const double n_eff = 2 * truth.values[0] - 8 * unit_roundoff() * e12;
    const double n = n_eff > 0 ? n_eff : 0;
    double centre = a1;
    for (int k = 0; k < 3; ++k) {
        const double ak = norm1(in + kTri + 3 * k), l = std::max(norm1(in + kTri + 3 * ((k + 1) % 3)) + ak,
                                                                 norm1(in + kTri + 3 * ((k + 2) % 3)) + ak);
        centre = std::max(centre, a1 + (std::pow(l, 5) + r * l * l * n) / (n * n));
    }
    const double inf = std::numeric_limits<double>::infinity();
    const auto over = [&](double x) { return n > 0 ? x : inf; };
    const double uv_scale = over((uv + std::max({std::fabs(u), std::fabs(v), std::fabs(1 - u - v)}) * n * e12) / (n * n));
    const double scales[] = {area_scale,
                             uv_scale,
                             uv_scale,
                             over(centre),
                             over(centre),
                             over(centre),
                             over(centre),
                             over((dist_top + std::fabs(dist) * e12) / n)};
    ValueError e;
    for (size_t i = 0; i < 8; ++i) worst(e, units(got.values[i], truth.values[i], scales[i]), kTriangleValues[i]);
    return e;
}

/// What decides degeneracy: repeated vertices, collinear ones, or a
/// proper triangle.
std::string triangle_deciding(const double* in, const Truth& truth, int) {
    if (truth.answer == 1) return "proper";
    for (int k = 0; k < 3; ++k) {
        const double* a = in + kTri + 3 * k;
        const double* b = in + kTri + 3 * ((k + 1) % 3);
        if (a[0] == b[0] && a[1] == b[1] && a[2] == b[2]) return "repeated vertex";
    }
    return "collinear vertices";
}


using MeasureFn = TriangleMeasures (*)(const Triangle&, const Vec3f&);

FamilyKernel triangle_kernel(const std::string& name, MeasureFn fn) {
    return {name, Contract::tolerant(1), 1, [fn](const double* in) {
                const TriangleMeasures m = fn(tri_f(in + kTri), vec_f(in + kP));
                return Answer{m.degenerate ? 0 : 1,
                              {m.area, m.u, m.v, m.circumcentre[0], m.circumcentre[1], m.circumcentre[2],
                               m.circumradius, m.distance}};
            }};
}

/// Planted bug: seed 001's caculateOutHeart, faithfully, in float: its d3
/// multiplies e1.z by e3.z where it means e2.z, so the circumcentre is wrong
/// whenever e2.z != e3.z.
TriangleMeasures seed_circumcentre(const Triangle& t, const Vec3f& p) {
    TriangleMeasures m = triangle_measures(t, p);
    if (m.degenerate) return m;
    const Vec3f &v1 = t.v[0], &v2 = t.v[1], &v3 = t.v[2];
    const Vec3f e1{v3[0] - v2[0], v3[1] - v2[1], v3[2] - v2[2]};
    const Vec3f e2{v1[0] - v3[0], v1[1] - v3[1], v1[2] - v3[2]};
    const Vec3f e3{v2[0] - v1[0], v2[1] - v1[1], v2[2] - v1[2]};
    const float d1 = -(e2[0] * e3[0] + e2[1] * e3[1] + e2[2] * e3[2]);
    const float d2 = -(e3[0] * e1[0] + e3[1] * e1[1] + e3[2] * e1[2]);
    const float d3 = -(e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e3[2]);
    const float c1 = d2 * d3, c2 = d1 * d3, c3 = d1 * d2, c = c1 + c2 + c3, cc = 2 * c;
    const float g1 = (c2 + c3) / cc, g2 = (c1 + c3) / cc, g3 = (c1 + c2) / cc;
    for (int i = 0; i < 3; ++i) m.circumcentre[i] = g1 * v1[i] + g2 * v2[i] + g3 * v3[i];
    m.circumradius = 0.5 * std::sqrt((d1 + d2) * (d2 + d3) * (d3 + d1) / c);
    return m;
}

/// Planted bug: |n| taken as the area (the / 2 forgotten).
TriangleMeasures area_not_halved(const Triangle& t, const Vec3f& p) {
    TriangleMeasures m = triangle_measures(t, p);
    m.area *= 2;
    return m;
}

/// Planted bug: seed 001's distance q . n - d with an n that is not unit.
TriangleMeasures distance_unnormalised(const Triangle& t, const Vec3f& p) {
    TriangleMeasures m = triangle_measures(t, p);
    const Vec3d n = cross(sub(t.v[1], t.v[0]), sub(t.v[2], t.v[0]));
    m.distance = dot(sub(p, t.v[0]), n);
    return m;
}

Inputs triangle_layout(const Triangle& t, const Vec3f& p) {
    Inputs in = gen::fresh();
    gen::put(in, t);
    gen::put(in, p);
    return in;
}

std::vector<Mix> triangle_mixes() {
    return {
        {"grid", 1, [](Source& s) {
             return triangle_layout({{gen::grid_point(s, 3), gen::grid_point(s, 3), gen::grid_point(s, 3)}}, gen::grid_point(s, 4));
         }},
        {"right", 1, [](Source& s) {  // right angles: the circumcentre is the hypotenuse's midpoint
             const Vec3f a = gen::grid_point(s, 3);
             Vec3f b = a, c = a;
             const size_t i = s.range<size_t>(0, 3), j = (i + size_t(s.range(1, 3))) % 3;
             b[i] += float(s.range(1, 5));
             c[j] -= float(s.range(1, 5));
             return triangle_layout({{a, b, c}}, gen::grid_point(s, 4));
         }},
        {"sliver", 1, [](Source& s) {  // nearly collinear: the third vertex rounded off the line
             const int e = s.range(-6, 7);
             Triangle t;
             t.v[0] = {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)};
             t.v[1] = {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)};
             const float scale = s.pick(0.3f, 0.5f, 0.7f, 3.0f);
             for (int k = 0; k < 3; ++k) t.v[2][k] = t.v[0][k] + scale * (t.v[1][k] - t.v[0][k]);
             return triangle_layout(t, {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)});
         }},
        {"needle", 1, [](Source& s) {  // two vertices close, one far, in any slot
             const int e = s.range(-12, 13), near = e - s.range(8, 30), far = e + s.range(2, 20);
             const Vec3f a{gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)};
             const Vec3f c{a[0] + gen::uniform(s, near), a[1] + gen::uniform(s, near), a[2] + gen::uniform(s, near)};
             const Vec3f b{gen::uniform(s, far), gen::uniform(s, far), gen::uniform(s, far)};
             const size_t slot = s.range<size_t>(0, 3);
             Triangle t;
             t.v[slot] = b;
             t.v[(slot + 1) % 3] = a;
             t.v[(slot + 2) % 3] = c;
             return triangle_layout(t, {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)});
         }},
        {"uniform", 1, [](Source& s) {
             const int e = s.range(-8, 9);
             Triangle t;
             for (Vec3f& v : t.v) v = {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)};
             return triangle_layout(t, {gen::uniform(s, e + 1), gen::uniform(s, e + 1), gen::uniform(s, e + 1)});
         }},
    };
}

// --- polygons ----------------------------------------------------------------------

constexpr int kN = kPolygonVertices;
static_assert(3 * kN == ref::polygon_measures_input.count("poly"));
const char* const kPolygonValues[] = {"normal.x", "normal.y", "normal.z", "offset", "distance"};

std::vector<ref::Point> exact_poly(const double* in) {
    std::vector<ref::Point> poly;
    for (int i = 0; i < kN; ++i) poly.push_back(ref::exact(vec_at(in + kPoly + 3 * i)));
    return poly;
}

Truth polygon_truth(const double* in) {
    const auto poly = exact_poly(in);
    const ref::Point q = ref::exact(vec_at(in + kQ));
    const ref::PolygonExact r = ref::polygon_rational(in), g = ref::polygon_cgal(poly, q);
    std::string what;
    if (r.normal != g.normal) what = "Newell normal";
    else if (r.offset != g.offset) what = "plane offset";
    else if (r.convex != g.convex) what = "convexity";
    else if (r.distance2 != g.distance2 || r.distance_sign != g.distance_sign) what = "distance";
    if (!what.empty()) throw ReferenceMismatch("polygon_measures references disagree on the " + what);
    Truth t;
    t.answer = r.convex ? 1 : 0;
    for (const ref::Rational& x : r.normal) t.values.push_back(ref::to_double(x));
    t.values.push_back(ref::to_double(r.offset));
    const bool flat = r.normal[0] == 0 && r.normal[1] == 0 && r.normal[2] == 0;
    t.values.push_back(flat ? std::numeric_limits<double>::quiet_NaN() : ref::sqrt_to_double(r.distance2, r.distance_sign));
    return t;
}

/// Scales: S_N per component, the sum over edges of (|y_i| + |y_i+1|)
/// (|z_i| + |z_i+1|) and alike; the offset sum_i sum_c |p_ic| (|N_c| +
/// S_Nc) / k; the distance (sum_c |q_c| (|N_c| + S_Nc) + S_d + |dist| sum_c
/// S_Nc) / (|N| - 8 u |S_N|), +inf where that is not positive.
ValueError polygon_value_error(const double* in, const Truth& truth, const Answer& got) {
    double sn[3] = {0, 0, 0};
    for (int i = 0; i < kN; ++i) {
        const double* a = in + kPoly + 3 * i;
        const double* b = in + kPoly + 3 * ((i + 1) % kN);
        for (int c = 0; c < 3; ++c) {
            const int y = (c + 1) % 3, z = (c + 2) % 3;
            sn[c] += (std::fabs(double(a[y])) + std::fabs(double(b[y]))) * (std::fabs(double(a[z])) + std::fabs(double(b[z])));
        }
    }
    const double* n = truth.values.data();
    double sd = 0, sq = 0, sum_sn = 0, nn = 0;
    for (int c = 0; c < 3; ++c) {
        for (int i = 0; i < kN; ++i) sd += std::fabs(double(in[kPoly + 3 * i + c])) * (std::fabs(n[c]) + sn[c]);
        sq += std::fabs(double(in[kQ + c])) * (std::fabs(n[c]) + sn[c]);
        sum_sn += sn[c];
        nn += n[c] * n[c];
    }
    sd /= kN;
    ValueError e;
    for (size_t c = 0; c < 3; ++c) worst(e, units(got.values[c], n[c], sn[c]), kPolygonValues[c]);
    worst(e, units(got.values[3], truth.values[3], sd), "offset");
    // As for triangles: the first-order scale needs |N| above what rounding
    // at the run's precision can take away, 8 u |S_N|.
    const double n_eff = std::sqrt(nn) - 8 * unit_roundoff() * std::sqrt(sn[0] * sn[0] + sn[1] * sn[1] + sn[2] * sn[2]);
    if (!std::isnan(truth.values[4]))
        worst(e,
              units(got.values[4], truth.values[4],
                    n_eff > 0 ? (sq + sd + std::fabs(truth.values[4]) * sum_sn) / n_eff
                              : std::numeric_limits<double>::infinity()),
              "distance");
    return e;
}

/// What decides convexity: no plane (N = 0), a vertex strictly right of an
/// edge, or all on the left (convex), from the exact polygon.
std::string polygon_deciding(const double* in, const Truth& truth, int) {
    const ref::PolygonExact r = ref::polygon_rational(in);
    if (r.normal[0] == 0 && r.normal[1] == 0 && r.normal[2] == 0) return "no plane: Newell's normal is 0";
    return truth.answer == 1 ? "convex" : "a vertex right of an edge";
}

using ConvexFn = bool (*)(const Vec3f*, int);
using NewellFn = Vec3d (*)(const Vec3f*, int);

FamilyKernel polygon_kernel(const std::string& name, ConvexFn convex, NewellFn newell = newell_normal) {
    return {name, Contract::tolerant(1), 1, [=](const double* in) {
                Vec3f v[kN];
                for (int i = 0; i < kN; ++i) v[i] = vec_f(in + kPoly + 3 * i);
                const Vec3d n = newell(v, kN);
                const double d = newell_offset(v, kN, n);
                return Answer{convex(v, kN) ? 1 : 0, {n[0], n[1], n[2], d, plane_distance(n, d, vec_f(in + kQ))}};
            }};
}

/// Planted bug: convex when every turn has the same sign, which a pentagram
/// (the vertices of a convex pentagon taken two apart) passes.
bool convex_turns_only(const Vec3f* v, int count) {
    const Vec3d n = newell_normal(v, count);
    if (!(dot(n, n) > 0)) return false;
    for (int i = 0; i < count; ++i) {
        const Vec3d a = sub(v[(i + 1) % count], v[i]), b = sub(v[(i + 2) % count], v[(i + 1) % count]);
        if (dot(cross(a, b), n) < 0) return false;
    }
    return true;
}

/// Planted bug: Newell's sum without the closing edge p_k -> p_1.
Vec3d newell_open(const Vec3f* v, int count) {
    Vec3d n{0, 0, 0};
    for (int i = 0; i + 1 < count; ++i) {
        const Vec3f& p = v[i];
        const Vec3f& q = v[i + 1];
        n[0] += (double(p[1]) - q[1]) * (double(p[2]) + q[2]);
        n[1] += (double(p[2]) - q[2]) * (double(p[0]) + q[0]);
        n[2] += (double(p[0]) - q[0]) * (double(p[1]) + q[1]);
    }
    return n;
}

/// A convex pentagon with grid coordinates in a random axis plane, tilted.
std::array<Vec3f, kN> pentagon(Source& s) {
    static const float xy[kN][2] = {{2, 0}, {1, 2}, {-1, 2}, {-2, 0}, {0, -2}};
    const size_t ax = s.range<size_t>(0, 3), ay = (ax + 1) % 3, az = (ax + 2) % 3;
    const float tilt = float(s.range(-2, 3)), scale = float(s.range(1, 4)), lift = gen::grid(s, 3);
    std::array<Vec3f, kN> p;
    for (int i = 0; i < kN; ++i) {
        p[size_t(i)][ax] = scale * xy[i][0];
        p[size_t(i)][ay] = scale * xy[i][1];
        p[size_t(i)][az] = lift + tilt * xy[i][0];
    }
    if (s.coin()) std::reverse(p.begin(), p.end());
    return p;
}

Inputs polygon_layout(const std::array<Vec3f, kN>& p, const Vec3f& q) {
    Inputs in = gen::fresh();
    for (const Vec3f& v : p) gen::put(in, v);
    gen::put(in, q);
    return in;
}

std::vector<Mix> polygon_mixes() {
    return {
        {"pentagon", 1, [](Source& s) { return polygon_layout(pentagon(s), gen::grid_point(s, 4)); }},
        {"pentagram", 1, [](Source& s) {  // the same vertices taken two apart: every turn agrees, not convex
             const auto p = pentagon(s);
             return polygon_layout({p[0], p[2], p[4], p[1], p[3]}, gen::grid_point(s, 4));
         }},
        {"collinear", 1, [](Source& s) {  // a vertex moved onto the line of its neighbours, or repeated
             auto p = pentagon(s);
             const size_t i = s.range<size_t>(0, kN);
             const Vec3f &a = p[(i + kN - 1) % kN], &b = p[(i + 1) % kN];
             if (s.coin())
                 p[i] = {0.5f * (a[0] + b[0]), 0.5f * (a[1] + b[1]), 0.5f * (a[2] + b[2])};
             else
                 p[i] = a;
             return polygon_layout(p, gen::grid_point(s, 4));
         }},
        {"nonplanar", 1, [](Source& s) {  // one vertex lifted out of the plane
             auto p = pentagon(s);
             p[size_t(s.range(0, kN))][size_t(s.range(0, 3))] += gen::grid(s, 2);
             return polygon_layout(p, gen::grid_point(s, 4));
         }},
        {"grid", 1, [](Source& s) {
             std::array<Vec3f, kN> p;
             for (Vec3f& v : p) v = gen::grid_point(s, 3);
             return polygon_layout(p, gen::grid_point(s, 4));
         }},
        {"uniform", 1, [](Source& s) {
             const int e = s.range(-8, 9);
             auto p = pentagon(s);
             for (Vec3f& v : p)
                 for (float& x : v) x = std::ldexp(x, e) + gen::uniform(s, e - 12);
             return polygon_layout(p, {gen::uniform(s, e + 1), gen::uniform(s, e + 1), gen::uniform(s, e + 1)});
         }},
    };
}

/// isect_triangle_measures(tri, p, out[8]).
template <class T> Answer triangle_plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    const T u = unset_value<T>();
    T out[8] = {u, u, u, u, u, u, u, u};
    const int r = as<int (*)(P, P, T*)>(fn)(in + kTri, in + kP, out);
    return plugin_answer<T>(f, r, {out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]});
}

/// isect_polygon_measures(poly, q, out[5]).
template <class T> Answer polygon_plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    const T u = unset_value<T>();
    T out[5] = {u, u, u, u, u};
    const int r = as<int (*)(P, P, T*)>(fn)(in + kPoly, in + kQ, out);
    return plugin_answer<T>(f, r, {out[0], out[1], out[2], out[3], out[4]});
}

Family make_triangle() {
    Family f;
    f.name = "triangle_measures";
    f.inputs = inputs_of(ref::triangle_measures_input);
    f.answer_keys = {"tri"};  // degenerate or not: p plays no part
    f.answers = {"degenerate", "proper"};
    f.answer_has_values = {false, true};
    f.safe_answer = 1;
    f.outputs.assign(std::begin(kTriangleValues), std::end(kTriangleValues));
    f.references = "rational (Boost, MPFR roots) and cgal (squared_area, circumcenter, Plane_3)";
    f.in_domain = [](const double* in, std::string* why) { return all_finite(triangle_family(), in, why); };
    f.truth = triangle_truth;
    f.cgal = [](const double* in) {
        return double(ref::triangle_measures_cgal(exact_tri(in), ref::exact(vec_at(in + kP))).degenerate);
    };
    f.band = rotation_symmetric(ref::fast::triangle_measures_band(), ref::triangle_measures_input.size(), {kTri});
    f.value_error = triangle_value_error;
    f.deciding = triangle_deciding;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::triangle_measures(in)); };
    f.oracle_check = [](const double* in, const FastTruth& fast) {
        const ref::TriangleMeasuresExact q = ref::triangle_measures_rational(in);
        std::string why = check_answer(triangle_family(), fast, q.degenerate ? 0 : 1);
        if (!why.empty() || q.degenerate) return why;
        const auto root = [&](size_t i, int s, const Rational& x2) {
            if (why.empty()) why = check_root_enclosure(kTriangleValues[i], fast.lo[i], fast.hi[i], s, x2);
        };
        const auto plain = [&](size_t i, const Rational& x) {
            if (why.empty()) why = check_enclosure(kTriangleValues[i], fast.lo[i], fast.hi[i], x);
        };
        root(0, 1, q.area2);
        plain(1, q.u);
        plain(2, q.v);
        for (size_t i = 0; i < 3; ++i) plain(3 + i, q.centre[i]);
        root(6, 1, q.radius2);
        root(7, q.distance_sign, q.distance2);
        return why;
    };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::triangle_measures(in)); };
    f.feature = [](const double* in) { return shortest_edge(in + kTri, 3); };
    f.all_kernels = [] { return std::vector<FamilyKernel>{claiming(triangle_kernel("measures", triangle_measures), {RelationKind::rotation}, "2^-20:2^20")}; };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{triangle_kernel("broken:seed_circumcentre", seed_circumcentre),
                                         triangle_kernel("broken:area_not_halved", area_not_halved),
                                         triangle_kernel("broken:distance_unnormalised", distance_unnormalised)};
    };
    f.mixes = triangle_mixes();
    f.plugin_call_f = triangle_plugin_call<float>;
    f.plugin_out_args = "out";
    f.plugin_call_d = triangle_plugin_call<double>;
    f.preconditions = {preconditions::proper_triangle(f, "tri")};
    return f;
}

Family make_polygon() {
    Family f;
    f.name = "polygon_measures";
    f.inputs = inputs_of(ref::polygon_measures_input);
    f.answer_keys = {"poly"};  // convex or not: q plays no part
    f.answers = {"not_convex", "convex"};
    f.answer_has_values = {true, true};
    f.safe_answer = 1;
    f.outputs.assign(std::begin(kPolygonValues), std::end(kPolygonValues));
    f.references = "rational (Boost, MPFR roots) and cgal (normal_vector_newell_3, Projection_traits_3)";
    f.in_domain = [](const double* in, std::string* why) { return all_finite(polygon_family(), in, why); };
    f.truth = polygon_truth;
    f.cgal = [](const double* in) { return double(ref::polygon_cgal(exact_poly(in), ref::exact(vec_at(in + kQ))).convex); };
    f.band = band_of(ref::fast::polygon_measures_band());
    f.value_error = polygon_value_error;
    f.deciding = polygon_deciding;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::polygon_measures(in)); };
    f.oracle_check = [](const double* in, const FastTruth& fast) {
        const ref::PolygonExact r = ref::polygon_rational(in);
        std::string why = check_answer(polygon_family(), fast, r.convex ? 1 : 0);
        for (size_t i = 0; i < 3 && why.empty(); ++i) why = check_enclosure(kPolygonValues[i], fast.lo[i], fast.hi[i], r.normal[i]);
        if (why.empty()) why = check_enclosure("offset", fast.lo[3], fast.hi[3], r.offset);
        const bool flat = r.normal[0] == 0 && r.normal[1] == 0 && r.normal[2] == 0;
        if (why.empty() && flat && !(std::isnan(fast.lo[4]) && std::isnan(fast.hi[4])))
            why = "a distance enclosed where Newell's normal is 0";
        if (why.empty() && !flat) why = check_root_enclosure("distance", fast.lo[4], fast.hi[4], r.distance_sign, r.distance2);
        return why;
    };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::polygon_measures(in)); };
    f.feature = [](const double* in) { return shortest_edge(in + kPoly, kN); };
    f.all_kernels = [] { return std::vector<FamilyKernel>{polygon_kernel("newell_convex", polygon_convex)}; };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{polygon_kernel("broken:convex_turns_only", convex_turns_only),
                                         polygon_kernel("broken:newell_open", polygon_convex, newell_open)};
    };
    f.mixes = polygon_mixes();
    f.plugin_call_f = polygon_plugin_call<float>;
    f.plugin_out_args = "out";
    f.plugin_call_d = polygon_plugin_call<double>;
    return f;
}

const Family& triangle_family() {
    static const Family f = make_triangle();
    return f;
}

const Family& polygon_family() {
    static const Family f = make_polygon();
    return f;
}

}  // namespace

const Family& triangle_measures_family() { return triangle_family(); }
const Family& polygon_measures_family() { return polygon_family(); }

}  // namespace isect::check
