// The ray_triangle family: o + t d, t in [0, tmax], vs a closed triangle,
// two-sided; on a hit the least t and the barycentrics u (of b), v (of c).
#include <limits>

#include "family_common.hpp"
#include "ray_triangle_edges.hpp"
#include "check/model/plugin_call.hpp"
#include "check/model/generate.hpp"
#include "isect/ray_triangle.hpp"
#include "isect/ref/ray_triangle.hpp"

namespace isect::check {

namespace {

using namespace detail;
using ref::Rational;

const Family& self();

// The input, by key (isect/ref/ray_triangle.hpp): offsets derived, never
// written. The vertices a, b, c are tri's three points.
constexpr auto& kInput = ref::ray_triangle_input;
constexpr size_t kOrg = kInput.at("org"), kDir = kInput.at("dir"), kTmax = kInput.at("tmax"), kTri = kInput.at("tri");
constexpr size_t kA = kTri, kB = kTri + 3, kC = kTri + 6;

std::optional<Rational> exact_tmax(const double* in) {
    return std::isinf(in[kTmax]) ? std::nullopt : std::optional<Rational>(ref::exact(in[kTmax]));
}

std::array<ref::Point, 3> exact_tri(const double* in) {
    return {ref::exact(vec_at(in + kA)), ref::exact(vec_at(in + kB)), ref::exact(vec_at(in + kC))};
}

std::string describe(const ref::RayTriangleExact& r) {
    if (!r.hit) return "miss";
    return "hit at t = " + r.t.str() + (r.has_uv ? ", u = " + r.u.str() + ", v = " + r.v.str() : "");
}

/// cull_back: the `cull_back` convention (isect/ref/ray_triangle.hpp).
Truth truth_of(const ref::RayTriangleExact& q) {
    Truth t;
    t.answer = yes(q.hit);
    if (!q.hit) return t;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    t.values = {ref::to_double(q.t), q.has_uv ? ref::to_double(q.u) : nan, q.has_uv ? ref::to_double(q.v) : nan};
    return t;
}

/// line: the `line` convention (cull_back is then not read).
Truth truth(const double* in, bool cull_back, bool line = false) {
    const ref::Point o = ref::exact(vec_at(in + kOrg)), d = ref::exact(vec_at(in + kDir));
    const auto tri = exact_tri(in);
    const ref::RayTriangleExact q = line ? ref::ray_triangle_line_rational(in) : ref::ray_triangle_rational(in, cull_back);
    const ref::RayTriangleExact g =
        line ? ref::ray_triangle_line_cgal(o, d, tri) : ref::ray_triangle_cgal(o, d, exact_tmax(in), tri, cull_back);
    if (q.hit != g.hit || (q.hit && (q.t != g.t || q.has_uv != g.has_uv || (q.has_uv && (q.u != g.u || q.v != g.v)))))
        throw ReferenceMismatch("ray_triangle references disagree: rational says " + describe(q) + ", cgal says " +
                                describe(g));
    return truth_of(q);
}

/// Condition scales, from Cramer's rule with T = o - a, E1 = b - a,
/// E2 = c - a: the numerators of t, u, v are triple products whose terms are
/// at most T E1 E2, d T E2 and d E1 T in size (1-norms, with |o| + |a| for
/// |T| and so on, since forming the differences rounds too), and det's at
/// most d E1 E2. So
///   S_t = (T E1 E2 + |t| d E1 E2) / |det|
///   S_u = (d T E2 + |u| d E1 E2) / |det|
///   S_v = (d E1 T + |v| d E1 E2) / |det|
/// computed in double, each the largest over the three vertices a kernel may
/// take as a (u's and v's alike, with E1 and E2 the larger): the same for
/// every vertex order. u and v are not checked for a degenerate triangle.
/// A zero direction has its own scales (the point o's barycentrics, below);
/// where det = 0 otherwise (a ray in the plane, a degenerate triangle) the
/// numbers are not checked.
ValueError value_error(const double* in, const Truth& truth, const Answer& got) {
    const auto norm1 = [](const double* p, const double* q) {
        double s = 0;
        for (int i = 0; i < 3; ++i) s += std::fabs(double(p[i])) + (q ? std::fabs(double(q[i])) : 0);
        return s;
    };
    const double dd = norm1(in + kDir, nullptr);
    const Vec3d ed1 = sub(vec_at(in + kB), vec_at(in + kA)), ed2 = sub(vec_at(in + kC), vec_at(in + kA));
    const Vec3d dir = vec_at(in + kDir);
    const double det = std::fabs(dot(dir, cross(ed1, ed2)));
    const double t = truth.values[0], u = truth.values[1], v = truth.values[2];
    ValueError e;
    if (dd == 0) {
        // The point o (t = 0, any t would name it): its barycentrics
        // u = ((o - a) x E2) . n / n.n, n = E1 x E2, whose terms are at most
        // T E2 E1 E2 and whose denominator's at most (E1 E2)^2.
        // The largest over the three vertices a kernel may take as a, u's
        // and v's alike: the same for every vertex order.
        const Vec3d n = cross(ed1, ed2);
        const double nn = dot(n, n), w = std::max({std::fabs(u), std::fabs(v), std::fabs(1 - u - v)});
        double top = 0;
        for (int r = 0; r < 3; ++r) {
            const double* va = in + kTri + 3 * r;
            const double tr = norm1(in + kOrg, va), f1 = norm1(in + kTri + 3 * ((r + 1) % 3), va),
                         f2 = norm1(in + kTri + 3 * ((r + 2) % 3), va);
            top = std::max(top, tr * std::max(f1, f2) * f1 * f2 + w * f1 * f1 * f2 * f2);
        }
        worst(e, units(got.values[0], t, 1), "t");
        if (!std::isnan(u)) {
            worst(e, units(got.values[1], u, top / nn), "u");
            worst(e, units(got.values[2], v, top / nn), "v");
        }
        return e;
    }
    // det = 0 (a ray in the plane, a degenerate triangle): no scale, the
    // numbers are not checked (0 / 0 would call any difference infinite).
    // The scales are first-order: they hold while det is above what rounding
    // at the run's precision can take from it, about u d E1 E2 (a ray
    // parallel to the plane to within that is, to the kernel, parallel);
    // below 8 u d E1 E2 the numbers are not checked either, as for
    // triangle_measures' normal. A double kernel on a ray 2^-52 from
    // parallel computed det = -1e42 where the exact one is 3e57.
    double e12 = 0;  // E1 E2 at the vertex that gives the most
    for (int r = 0; r < 3; ++r)
        e12 = std::max(e12, norm1(in + kTri + 3 * ((r + 1) % 3), in + kTri + 3 * r) *
                                norm1(in + kTri + 3 * ((r + 2) % 3), in + kTri + 3 * r));
    const double det_eff = det - 8 * unit_roundoff() * dd * e12;
    const auto scale = [det_eff](double terms) {
        return det_eff > 0 ? terms / det_eff : std::numeric_limits<double>::infinity();
    };
    // Whichever vertex a kernel takes as its a: the largest terms over the
    // three, so that the scales do not depend on the vertex order.
    double st = 0, suv = 0;
    for (int r = 0; r < 3; ++r) {
        const double* va = in + kTri + 3 * r;
        const double* vb = in + kTri + 3 * ((r + 1) % 3);
        const double* vc = in + kTri + 3 * ((r + 2) % 3);
        const double tr = norm1(in + kOrg, va), f1 = norm1(vb, va), f2 = norm1(vc, va);
        st = std::max(st, tr * f1 * f2 + std::fabs(t) * dd * f1 * f2);
        suv = std::max(suv, dd * tr * std::max(f1, f2) + std::max({std::fabs(u), std::fabs(v), std::fabs(1 - u - v)}) * dd * f1 * f2);
    }
    worst(e, units(got.values[0], t, scale(st)), "t");
    if (!std::isnan(u)) {
        worst(e, units(got.values[1], u, scale(suv)), "u");
        worst(e, units(got.values[2], v, scale(suv)), "v");
    }
    return e;
}

/// What decides the exact answer, from Cramer's rule in rationals: a
/// degenerate triangle, a ray parallel to its plane, the edge the point
/// lies beyond (u of b, v of c, w = 1 - u - v of a), behind the origin or
/// past tmax; for a hit, a vertex, an edge, t = 0, tmax, or the interior.
/// line: the `line` convention, where neither t < 0 nor tmax decides.
std::string two_sided_deciding(const double* in, const ref::RayTriangleCramer& cr, bool line = false) {
    if (cr.zero_direction) return "zero direction (the point o)";
    if (cr.degenerate) return "degenerate triangle";
    if (cr.det == 0) return cr.in_plane ? (line ? "coplanar line" : "coplanar ray") : "parallel to the plane";
    const Rational &u = cr.u, &v = cr.v, &t = cr.t;
    const Rational w = 1 - u - v;
    const ref::Point o = ref::exact(vec_at(in + kOrg)), d = ref::exact(vec_at(in + kDir));
    const auto tri = exact_tri(in);
    // Where several tests fail, the cause is the one failing by the widest
    // margin, each as a share of the problem: the barycentrics as they are,
    // t over the problem's length in units of |d| (the largest distance from
    // o to a vertex). A ray through a triangle behind its origin is "behind
    // the origin" whether or not rounding also puts it a hair outside an
    // edge: one bug, one class (a kernel without t >= 0 once showed four).
    const auto length = [&](const ref::Point& p) {
        return std::max({std::fabs(ref::to_double(p[0])), std::fabs(ref::to_double(p[1])), std::fabs(ref::to_double(p[2]))});
    };
    const double dmax = length(d);
    double reach = 0;
    for (const ref::Point& p : tri) reach = std::max(reach, length(ref::sub(p, o)));
    const double t_share = reach > 0 ? ref::to_double(t) * dmax / reach : ref::to_double(t);
    const bool bounded = !line && !std::isinf(in[kTmax]);
    const double beyond = bounded ? (ref::to_double(t) - in[kTmax]) * dmax / std::max(reach, 1e-300) : 0;
    const std::pair<double, const char*> fails[] = {
        {-ref::to_double(u), "beyond edge ca (u < 0)"},
        {-ref::to_double(v), "beyond edge ab (v < 0)"},
        {-ref::to_double(w), "beyond edge bc (u + v > 1)"},
        {-t_share, "behind the origin"},
        {beyond, "beyond tmax"},
    };
    const bool failing[] = {u < 0, v < 0, w < 0, !line && t < 0, bounded && t > ref::exact(in[kTmax])};
    const char* cause = nullptr;
    double widest = -1;
    for (size_t i = 0; i < std::size(fails); ++i)
        if (failing[i] && (cause == nullptr || fails[i].first > widest)) {
            cause = fails[i].second;
            widest = fails[i].first;
        }
    if (cause) return cause;
    const int zeros = (u == 0) + (v == 0) + (w == 0);
    if (zeros >= 2) return "at a vertex";
    if (zeros == 1) return "on an edge";
    if (t == 0 && !line) return "at the origin";
    if (bounded && t == ref::exact(in[kTmax])) return "at tmax";
    return "inside";
}

/// The body's own statement of Cramer's rule, on exact numbers, decides.
std::string deciding(const double* in, const Truth&, int) { return two_sided_deciding(in, ref::ray_triangle_cramer(in)); }

/// Under `line`: as two-sided, where no t is behind.
std::string line_deciding(const double* in, const Truth&, int) {
    return two_sided_deciding(in, ref::ray_triangle_cramer(in), true);
}

/// Under `cull_back`: a back face, or as two-sided.
std::string cull_deciding(const double* in, const Truth&, int) {
    // det = -d . n < 0: the ray travels along the normal, onto the back face.
    const ref::RayTriangleCramer cr = ref::ray_triangle_cramer(in);
    if (cr.det < 0) return "back face (culled)";
    return two_sided_deciding(in, cr);
}

/// Where the fast oracle differs from the rational reference (under
/// cull_back, or under line).
std::string oracle_check(const double* in, const FastTruth& fast, bool cull_back, bool line = false) {
    const ref::RayTriangleExact q = line ? ref::ray_triangle_line_rational(in) : ref::ray_triangle_rational(in, cull_back);
    std::string why = check_answer(self(), fast, yes(q.hit));
    if (!why.empty() || !q.hit) return why;
    why = check_enclosure("t", fast.lo[0], fast.hi[0], q.t);
    if (why.empty() && q.has_uv) why = check_enclosure("u", fast.lo[1], fast.hi[1], q.u);
    if (why.empty() && q.has_uv) why = check_enclosure("v", fast.lo[2], fast.hi[2], q.v);
    if (why.empty() && !q.has_uv && !(std::isnan(fast.lo[1]) && std::isnan(fast.lo[2])))
        why = "u and v enclosed where the triangle is degenerate";
    return why;
}

/// The smallest nonzero direction component or triangle edge (max norm).
double feature(const double* in) {
    double m = 0;
    const auto consider = [&](double x) {
        if (x > 0 && (m == 0 || x < m)) m = x;
    };
    for (int i = 0; i < 3; ++i) consider(std::fabs(double(in[kDir + i])));
    consider(shortest_edge(in + kTri, 3));
    return m;
}

template <class T>
using RayFn = RayTriangleHit (*)(const std::array<T, 3>&, const std::array<T, 3>&, T, const BasicTriangle<T>&);

/// A kernel of scalar T (float, or double for the double-precision runs).
template <class T>
FamilyKernel kernel(const std::string& name, const std::string& contract, double error_e, RayFn<T> fn,
                    std::vector<std::string> conventions = {}) {
    FamilyKernel k{name, *Contract::parse(contract), error_e, [fn](const double* in) {
                       const RayTriangleHit h = fn(vec_as<T>(in + kOrg), vec_as<T>(in + kDir), T(in[kTmax]), tri_as<T>(in + kTri));
                       if (!h.hit) return Answer{0, {0, 0, 0}};
                       return Answer{1, {h.t, h.u, h.v}};
                   }};
    k.precision = precision_of<T>();
    k.conventions = std::move(conventions);
    return k;
}

/// Planted bug: seed 004 as written, in its own precision (float, or
/// double as a double-scalar engine builds it), with its absolute epsilon
/// det < 0.0001 (and tmax honoured, so the epsilon is what is caught).
template <class T>
RayTriangleHit seed_epsilon(const std::array<T, 3>& o, const std::array<T, 3>& d, T tmax, const BasicTriangle<T>& tri) {
    using V = std::array<T, 3>;
    const V& a = tri.v[0];
    const auto sub3 = [](const V& x, const V& y) { return V{x[0] - y[0], x[1] - y[1], x[2] - y[2]}; };
    const auto cross3 = [](const V& x, const V& y) {
        return V{x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
    };
    const auto dot3 = [](const V& x, const V& y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; };
    const V e1 = sub3(tri.v[1], a), e2 = sub3(tri.v[2], a);
    const V p = cross3(d, e2);
    T det = dot3(e1, p);
    V t = sub3(o, a);
    if (!(det > 0)) {
        t = sub3(a, o);
        det = -det;
    }
    RayTriangleHit r;
    if (det < T(0.0001)) return r;
    const T u = dot3(t, p);
    if (u < 0 || u > det) return r;
    const V q = cross3(t, e1);
    const T v = dot3(d, q);
    if (v < 0 || u + v > det) return r;
    const T tt = dot3(e2, q);
    const double inv = T(1) / det;
    if (tt < 0 || tt * inv > tmax) return r;
    return {true, tt * inv, u * inv, v * inv};
}

/// Planted bug: u and v swapped (u as the weight of c).
RayTriangleHit swapped_uv(const Vec3f& o, const Vec3f& d, float tmax, const Triangle& tri) {
    RayTriangleHit r = ray_triangle_mt(o, d, tmax, tri);
    std::swap(r.u, r.v);
    return r;
}

/// Planted bug: strict edge tests (u > 0, v > 0, u + v < det). Rays through
/// an edge or vertex miss: within the band of tolerant=1, but not watertight
/// (properties/ray_triangle_props.cpp catches it).
/// Planted bug for `cull_back`: the culling branch with the winding
/// reversed (det < 0 kept), as a port that mixes up clockwise and
/// counter-clockwise does: every front face is culled, every back face hit.
RayTriangleHit cull_wrong_winding(const Vec3f& o, const Vec3f& d, float tmax, const Triangle& tri) {
    const Triangle flipped{{tri.v[0], tri.v[2], tri.v[1]}};
    RayTriangleHit r = ray_triangle_mt_cull(o, d, tmax, flipped);
    std::swap(r.u, r.v);
    return r;
}

RayTriangleHit strict_edges(const Vec3f& o, const Vec3f& d, float tmax, const Triangle& tri) {
    RayTriangleHit r = ray_triangle_mt(o, d, tmax, tri);
    if (r.hit && (r.u <= 0 || r.v <= 0 || r.u + r.v >= 1)) return {};
    return r;
}

/// Planted bug: the ray turned into the segment from o to o + tmax d, as
/// a segment test takes it, and t = s tmax. At tmax = +inf or the largest
/// float the segment's end overflows (inf times a zero component: NaN) and
/// the hit is lost; at two finite tmax, s and so t round differently. A hit
/// at tmax is no hit, or another entry, at a larger one: not monotone.
RayTriangleHit segment_from_tmax(const Vec3f& o, const Vec3f& d, float tmax, const Triangle& tri) {
    const Vec3f along{d[0] * tmax, d[1] * tmax, d[2] * tmax};
    RayTriangleHit r = ray_triangle_mt(o, along, 1.0f, tri);
    if (r.hit) r.t *= tmax;
    return r;
}

Inputs layout(const Vec3f& o, const Vec3f& d, float tmax, const Triangle& t) {
    Inputs in = gen::fresh();
    gen::put(in, o);
    gen::put(in, d);
    in.push_back(tmax);
    gen::put(in, t);
    return in;
}

float any_tmax(Source& s) { return gen::ray_reach(s); }

Vec3f nonzero(Source& s, Vec3f d) {
    if (d[0] == 0 && d[1] == 0 && d[2] == 0) d[size_t(s.range(0, 3))] = 1;
    return d;
}

Triangle grid_triangle(Source& s, int n) { return {{gen::grid_point(s, n), gen::grid_point(s, n), gen::grid_point(s, n)}}; }

/// Cases from a user's mesh: rays aimed from off the surface at a point of
/// an edge two of its triangles share (its midpoint, or a quarter along;
/// exactly through it wherever the sums allow, ray_through_edge),
/// at one of its vertices, at a triangle's centroid; the triangle one of
/// those the point is on. With --relation watertight the shared edge and
/// the vertex are where a leak would be.
std::vector<Mix> mesh_mixes(const std::shared_ptr<const Mesh>& mesh) {
    const Mesh& m = *mesh;
    const float extent = mesh_extent(m);
    const auto aimed = [mesh, extent](Source& s, const Vec3f& target, const Triangle& t) {
        const Vec3f off = nonzero(s, gen::grid_point(s, 2));
        const float scale = extent * s.pick(1.0f, 0.5f, 2.0f);
        Vec3f o, d;
        for (size_t k = 0; k < 3; ++k) {
            o[k] = target[k] + off[k] * scale;
            d[k] = target[k] - o[k];
        }
        return layout(o, nonzero(s, d), s.pick(INFINITY, 1.0f, 2.0f), t);
    };
    // Each case marks the shared edge or vertex it passes exactly through
    // (the report's reach_summary).
    const auto reaching = [mesh](uint32_t t, Inputs in) {
        mark_reached(*mesh, t, in.data());
        return in;
    };
    std::vector<Mix> out;
    if (!m.shared.empty())
        out.push_back({"mesh_edge", 3, [mesh, aimed, reaching, extent](Source& s) {
                           const Mesh::Shared& e = any_shared(*mesh, s);
                           Vec3f a = mesh_vertex(*mesh, e.v0), b = mesh_vertex(*mesh, e.v1);
                           if (s.coin()) std::swap(a, b);
                           const int along = s.pick(1, 3);
                           const uint32_t t = s.coin() ? e.t2 : e.t1;
                           const float tmax = s.pick(INFINITY, 1.0f, 2.0f);
                           // A few offsets: some keep no sum exact, some run along the surface.
                           for (int tries = 0; tries < 4; ++tries) {
                               const Vec3f off = nonzero(s, gen::grid_point(s, 4));
                               const float scale = extent * s.pick(1.0f, 0.5f, 2.0f);
                               Vec3f o, d;
                               if (!ray_through_edge(a, b, {off[0] * scale, off[1] * scale, off[2] * scale}, along, o, d)) continue;
                               Inputs in = layout(o, d, tmax, mesh_triangle(*mesh, t));
                               if (mark_reached(*mesh, t, in.data())) return in;
                           }
                           Vec3f p;
                           for (size_t c = 0; c < 3; ++c) p[c] = a[c] + (b[c] - a[c]) / float(along + 1);
                           return reaching(t, aimed(s, p, mesh_triangle(*mesh, t)));
                       }});
    out.push_back({"mesh_vertex", 1, [mesh, aimed, reaching](Source& s) {
                       const uint32_t t = any_triangle(*mesh, s);
                       const Triangle tri = mesh_triangle(*mesh, t);
                       return reaching(t, aimed(s, tri.v[size_t(s.range(0, 3))], tri));
                   }});
    out.push_back({"mesh_triangle", 1, [mesh, aimed](Source& s) {
                       const Triangle t = mesh_triangle(*mesh, any_triangle(*mesh, s));
                       Vec3f c;
                       for (size_t k = 0; k < 3; ++k) c[k] = (t.v[0][k] + t.v[1][k] + t.v[2][k]) / 3;
                       return aimed(s, c, t);
                   }});
    return out;
}

std::vector<Mix> mixes() {
    return {
        {"grid", 1, [](Source& s) { return layout(gen::grid_point(s, 4), nonzero(s, gen::grid_point(s, 2)), any_tmax(s), grid_triangle(s, 3)); }},
        {"edge", 1, [](Source& s) {  // aimed exactly at a vertex or an edge's midpoint, reached at t = 1 or 1/2
             const Triangle t = grid_triangle(s, 3);
             const int i = s.range(0, 3), j = s.range(0, 3);
             Vec3f target;
             for (int k = 0; k < 3; ++k) target[k] = 0.5f * (t.v[i][k] + t.v[j][k]);
             const Vec3f o = gen::grid_point(s, 4);
             const float scale = s.pick(1.0f, 2.0f);
             const Vec3f d{(target[0] - o[0]) * scale, (target[1] - o[1]) * scale, (target[2] - o[2]) * scale};
             return layout(o, nonzero(s, d), s.pick(INFINITY, 1.0f, 0.5f), t);
         }},
        {"coplanar", 1, [](Source& s) {  // triangle and ray in a plane z = c
             const float c = gen::grid(s, 2);
             Triangle t = grid_triangle(s, 3);
             for (Vec3f& v : t.v) v[2] = c;
             Vec3f o = gen::grid_point(s, 4), d = nonzero(s, gen::grid_point(s, 2));
             o[2] = c;
             d[2] = s.pick(0.0f, -0.0f);
             return layout(o, nonzero(s, d), any_tmax(s), t);
         }},
        {"sliver", 1, [](Source& s) {  // nearly collinear: the third vertex rounded off the line of the other two
             const int e = s.range(-4, 5);
             Triangle t;
             t.v[0] = {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)};
             t.v[1] = {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)};
             const float scale = s.pick(0.3f, 0.5f, 0.7f, 1.5f);
             for (int k = 0; k < 3; ++k) t.v[2][k] = t.v[0][k] + scale * (t.v[1][k] - t.v[0][k]);
             const Vec3f o{gen::uniform(s, e + 1), gen::uniform(s, e + 1), gen::uniform(s, e + 1)};
             Vec3f target;
             for (int k = 0; k < 3; ++k) target[k] = 0.5f * (t.v[0][k] + t.v[2][k]);
             return layout(o, nonzero(s, {target[0] - o[0], target[1] - o[1], target[2] - o[2]}), INFINITY, t);
         }},
        {"tilted_coplanar", 1, [](Source& s) {  // ray and triangle in one tilted plane: integer combinations of
             // two small integer vectors from a point, so every point lies in the plane exactly
             const Vec3f p = gen::grid_point(s, 4), a = nonzero(s, gen::grid_point(s, 3)), b = nonzero(s, gen::grid_point(s, 3));
             const auto at = [&](float i, float j) {
                 return Vec3f{p[0] + i * a[0] + j * b[0], p[1] + i * a[1] + j * b[1], p[2] + i * a[2] + j * b[2]};
             };
             const auto small = [&] { return float(s.range(-3, 4)); };
             const Triangle t{{at(small(), small()), at(small(), small()), at(small(), small())}};
             const Vec3f o = at(small(), small());
             const float i = small(), j = small();
             const Vec3f d{i * a[0] + j * b[0], i * a[1] + j * b[1], i * a[2] + j * b[2]};
             return layout(o, nonzero(s, d), any_tmax(s), t);
         }},
        {"along_edge", 1, [](Source& s) {  // a ray on an edge's line: from before, on or past the edge, either way
             const Triangle t = grid_triangle(s, 3);
             const int i = s.range(0, 3), j = (i + 1) % 3;
             const float k = s.pick(-1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 2.0f), dir = s.pick(1.0f, -1.0f, 0.5f);
             Vec3f o, d;
             for (int c = 0; c < 3; ++c) {
                 const float e = t.v[j][c] - t.v[i][c];
                 o[c] = t.v[i][c] + k * e;
                 d[c] = dir * e;
             }
             return layout(o, nonzero(s, d), s.pick(INFINITY, 1.0f, 0.5f), t);
         }},
        {"degenerate_triangle", 1, [](Source& s) {  // a segment or a point as a triangle, hit through it or beside it
             const Vec3f a = gen::grid_point(s, 3), b = s.pick(0, 1) ? a : gen::grid_point(s, 3);
             const float k = s.pick(0.0f, 0.5f, 1.0f, 2.0f, -1.0f);
             Vec3f c;
             for (int i = 0; i < 3; ++i) c[i] = a[i] + k * (b[i] - a[i]);
             Triangle t{{a, b, c}};
             std::swap(t.v[0], t.v[size_t(s.range(0, 3))]);
             const float m = s.pick(0.0f, 0.5f, 1.0f, 0.25f);
             Vec3f target;
             for (int i = 0; i < 3; ++i) target[i] = a[i] + m * (b[i] - a[i]);
             const Vec3f o = gen::grid_point(s, 4);
             return layout(o, nonzero(s, {target[0] - o[0], target[1] - o[1], target[2] - o[2]}), s.pick(INFINITY, 1.0f), t);
         }},
        {"zero_direction", 1, [](Source& s) {  // d = 0, the point o: at a vertex, on an edge, inside, beside,
             // off the plane, against a proper or a degenerate triangle
             Triangle t = grid_triangle(s, 3);
             if (s.pick(0, 0, 1)) t.v[2] = s.pick(0, 1) ? t.v[0] : Vec3f{2 * t.v[1][0] - t.v[0][0], 2 * t.v[1][1] - t.v[0][1], 2 * t.v[1][2] - t.v[0][2]};
             const float u = s.pick(0.0f, 0.25f, 0.5f, 1.0f, -0.25f, 1.25f), v = s.pick(0.0f, 0.25f, 0.5f, 1.0f, -0.25f);
             Vec3f o;
             for (int k = 0; k < 3; ++k) o[k] = (1 - u - v) * t.v[0][k] + u * t.v[1][k] + v * t.v[2][k];
             if (s.pick(0, 0, 0, 1)) o[size_t(s.range(0, 3))] += s.pick(0.5f, -0.25f);
             const float z = s.pick(0.0f, -0.0f);
             return layout(o, {z, s.pick(0.0f, -0.0f), z}, any_tmax(s), t);
         }},
        {"small_far", 1, [](Source& s) {  // a small triangle (legs 2^-14..2^-4) at distance 1..2^20 along a
             // unit axis ray, aimed at a point of it: where an absolute epsilon on det or on the
             // barycentrics misses, whatever the ray's reach (tmax inf, FLT_MAX, just past the hit)
             const float leg = std::ldexp(1.0f, -s.range(4, 15)), far = std::ldexp(1.0f, s.range(0, 21));
             const size_t axis = size_t(s.range(0, 3)), a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
             const float sign = s.pick(1.0f, -1.0f);
             Vec3f o = gen::grid_point(s, 2), p0 = o;
             p0[axis] += sign * far;
             Triangle t{{p0, p0, p0}};
             t.v[1][a1] += leg;
             t.v[2][a2] += leg * s.pick(1.0f, -1.0f, 0.5f);
             const float u = float(s.range(0, 5)) / 8, v = float(s.range(0, 5)) / 8;
             o[a1] += u * (t.v[1][a1] - p0[a1]);
             o[a2] += v * (t.v[2][a2] - p0[a2]);
             Vec3f d{0, 0, 0};
             d[axis] = sign;
             const float reach = s.coin() ? gen::ray_reach(s) : std::nextafter(far, s.pick(INFINITY, 0.0f));
             return layout(o, d, reach, t);
         }},
        {"uniform", 1, [](Source& s) {  // aimed at a point of the triangle with random barycentrics
             const int e = s.range(-8, 9);
             Triangle t;
             for (Vec3f& v : t.v) v = {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)};
             const float u = float(s.range(-2, 11)) / 8, v = float(s.range(-2, 11)) / 8;
             Vec3f target;
             for (int k = 0; k < 3; ++k)
                 target[k] = (1 - u - v) * t.v[0][k] + u * t.v[1][k] + v * t.v[2][k];
             const Vec3f o{gen::uniform(s, e + 1), gen::uniform(s, e + 1), gen::uniform(s, e + 1)};
             const float scale = s.pick(1.0f, 1.25f, 4.0f);
             return layout(o, nonzero(s, {(target[0] - o[0]) * scale, (target[1] - o[1]) * scale, (target[2] - o[2]) * scale}),
                           s.pick(INFINITY, 1.0f), t);
         }},
    };
}

/// isect_ray_triangle(org, dir, tmax, tri, out t, out u, out v).
template <class T> Answer plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    const T u = unset_value<T>();
    T t = u, bu = u, bv = u;
    const int r = as<int (*)(P, P, T, P, T*, T*, T*)>(fn)(in + kOrg, in + kDir, in[kTmax], in + kTri, &t, &bu, &bv);
    return plugin_answer<T>(f, r, {t, bu, bv});
}

Family make() {
    Family f;
    f.name = "ray_triangle";
    f.inputs = inputs_of(kInput);
    f.answers = {"miss", "hit"};
    f.answer_has_values = {false, true};
    f.outputs = {"t", "u", "v"};
    f.references = "rational (the fast body on exact numbers: Cramer and coplanar clipping) and cgal (Segment_3 x Triangle_3)";
    f.in_domain = [](const double* in, std::string* why) {
        double rest[kInput.size()];  // every input but tmax must be finite
        std::copy(in, in + kInput.size(), rest);
        rest[kTmax] = 0;
        if (!all_finite(self(), rest, why)) return false;
        if (std::isnan(in[kTmax]) || in[kTmax] < 0 || in[kTmax] == -INFINITY)
            return refuse(why, [&] { return "tmax: '" + format_number(in[kTmax]) + "' is outside the domain of ray_triangle (0 <= tmax <= inf)"; });
        return true;
    };
    f.truth = [](const double* in) { return truth(in, false); };
    f.first_reference = [](const double* in) { return truth_of(ref::ray_triangle_rational(in, false)); };
    f.cgal = [](const double* in) {
        return double(ref::ray_triangle_cgal(ref::exact(vec_at(in + kOrg)), ref::exact(vec_at(in + kDir)), exact_tmax(in), exact_tri(in)).hit);
    };
    f.band = band_of(ref::fast::ray_triangle_band());  // every vertex order inside (RayTriangleBand::run)
    f.value_error = value_error;
    f.deciding = deciding;
    f.feature = feature;
    f.oracle_check = [](const double* in, const FastTruth& fast) { return oracle_check(in, fast, false); };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::ray_triangle(in)); };
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::ray_triangle(in)); };
    f.all_kernels = [] {
        // Woop's test is watertight; Möller-Trumbore is not (its two
        // triangles of an edge round their barycentrics apart). An exact
        // kernel's answers are the truth's, which keeps every relation:
        // it claims none (judging them would only cost).
        // Woop's is claimed in 2^-20:2^20: with a sliver narrower than the
        // rounding of the translation against unit coordinates (mixed
        // scales), both triangles of an edge round flat and miss (3 of
        // 400,000 cases in float). On double input it is not claimed: a ray
        // crossing an edge at a grazing angle projects both triangles flat
        // in double (3 of 89,269 cases in 2^-20:2^20, seed 3).
        // Möller-Trumbore has no double kernel: on double input its t, u
        // and v are quotients of triple products rounded apart, and on a
        // sliver they are off where no perturbation of a few roundings
        // flips the answer (K 3.9e6 on 2^-20:2^20 input; random
        // perturbations of the witness flip it only from K = 1e6; about one
        // case in 100,000). On float input the same code computes in double
        // with 29 bits to spare and holds.
        // Möller-Trumbore (and its culling and line forms) is declared in
        // 2^-20:2^20: where float inputs spread beyond 2^29 (1e33 beside
        // 1e-45) its differences and sums of products round in double, and
        // it hit triangles a K of 8 to 1e8 away (the fuzzer, five classes in
        // four minutes; 2,000,000 generated cases over every float found
        // none). Inside, it takes a det within 2^-44 of the permanents of
        // det, u and v as parallel (core/isect/ray_triangle.hpp): before, a
        // ray nearly parallel to a triangle's plane hit 1 to 5 units beside
        // it (band K 1.7e6..6.0e6, subnormal coordinates), and the fuzzer
        // found a ray lying in a sliver's plane hit 3e-4 beside it (band K
        // 141): the rounding noise of u and v decided.
        const auto mt_domain = [](FamilyKernel k) {
            k.domain = Domain::declared("2^-20:2^20");
            return k;
        };
        return std::vector<FamilyKernel>{claiming(mt_domain(kernel<float>("moller_trumbore", "tolerant=1", 1, ray_triangle_mt<float>)),
                                                  {RelationKind::monotone}),
                                         claiming(kernel<float>("watertight", "tolerant=1", 1, ray_triangle_watertight<float>),
                                                  {RelationKind::watertight, RelationKind::monotone}, "2^-20:2^20"),
                                         kernel<float>("exact", "exact", 1, ray_triangle_exact),
                                         claiming(kernel<double>("watertight", "tolerant=1", 2, ray_triangle_watertight<double>),
                                                  {RelationKind::monotone}),
                                         mt_domain(kernel<float>("moller_trumbore_cull", "tolerant=1", 1,
                                                                 ray_triangle_mt_cull<float>, {"cull_back"})),
                                         mt_domain(kernel<float>("moller_trumbore_line", "tolerant=1", 1, line_triangle_mt<float>,
                                                                 {"line"}))};
    };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{kernel<float>("broken:seed_epsilon", "tolerant=1", 64, seed_epsilon<float>),
                                         kernel<float>("broken:swapped_uv", "tolerant=1", 1, swapped_uv),
                                         kernel<float>("broken:cull_wrong_winding", "tolerant=1", 1, cull_wrong_winding, {"cull_back"}),
                                         // The ray's test under line: behind the origin it misses.
                                         kernel<float>("broken:line_as_ray", "tolerant=1", 1, ray_triangle_mt<float>, {"line"}),
                                         // Within its contract, caught by the relations it claims.
                                         claiming(kernel<float>("broken:strict_edges", "tolerant=1", 1, strict_edges), {RelationKind::watertight}),
                                         claiming(kernel<float>("broken:segment_from_tmax", "tolerant=1", 1, segment_from_tmax), {RelationKind::monotone}),
                                         kernel<double>("broken:seed_epsilon", "tolerant=1", 64, seed_epsilon<double>)};
    };
    f.mixes = mixes();
    f.mesh_mixes = mesh_mixes;
    f.plugin_call_f = plugin_call<float>;
    f.plugin_out_args = "&out[0], &out[1], &out[2]";
    f.plugin_call_d = plugin_call<double>;
    f.preconditions = {preconditions::nonzero_vector(f, "nonzero_direction", "dir"), preconditions::unit_vector(f, "unit_direction", "dir"),
                       preconditions::proper_triangle(f, "tri"), preconditions::finite_value(f, "finite_tmax", "tmax"),
                       preconditions::infinite_value(f, "unbounded_tmax", "tmax")};
    f.conventions = {{"cull_back", "front faces only: a hit needs dir . n < 0, n = (b - a) x (c - a) (counter-clockwise "
                                   "winding; Möller-Trumbore's TEST_CULL, back-face culling in Embree and engines); a ray "
                                   "in the plane misses"},
                     {"line", "the whole line o + t d, t over all reals (tmax not read; d != 0): t the least t where it "
                              "meets the triangle, which may be negative (glm's intersectLineTriangle)"}};
    f.shared_edges = ray_triangle_shared_edges(false);
    f.mesh_shared_edges = ray_triangle_mesh_edges;
    f.declare = [](Family& g, const std::vector<std::string>&, const std::vector<std::string>& conventions) {
        if (conventions.empty()) return;
        if (std::find(conventions.begin(), conventions.end(), "line") != conventions.end()) {
            // The line, two-sided (line with cull_back is not declared: a
            // kernel following both is judged as a line's).
            lines_only(g, kDir);
            g.truth = [](const double* in) { return truth(in, false, true); };
            g.first_reference = [](const double* in) { return truth_of(ref::ray_triangle_line_rational(in)); };
            g.cgal = [](const double* in) {
                return double(
                    ref::ray_triangle_line_cgal(ref::exact(vec_at(in + kOrg)), ref::exact(vec_at(in + kDir)), exact_tri(in)).hit);
            };
            g.band = band_of(ref::fast::ray_triangle_line_band());
            g.deciding = line_deciding;
            g.oracle_check = [](const double* in, const FastTruth& fast) { return oracle_check(in, fast, false, true); };
            g.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::ray_triangle_line(in)); };
            g.fast_truth = [](const double* in) { return from_fast(ref::fast::ray_triangle_line(in)); };
            return;
        }
        // "cull_back"
        g.handed = true;
        g.shared_edges.crossing = ray_triangle_shared_edges(true).crossing;
        g.truth = [](const double* in) { return truth(in, true); };
        g.first_reference = [](const double* in) { return truth_of(ref::ray_triangle_rational(in, true)); };
        g.cgal = [](const double* in) {
            return double(ref::ray_triangle_cgal(ref::exact(vec_at(in + kOrg)), ref::exact(vec_at(in + kDir)), exact_tmax(in),
                                                 exact_tri(in), true)
                              .hit);
        };
        g.band = band_of(ref::fast::ray_triangle_band(true));  // the three rotations inside (RayTriangleCullBand::run)
        g.deciding = cull_deciding;
        g.oracle_check = [](const double* in, const FastTruth& fast) { return oracle_check(in, fast, true); };
        g.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::ray_triangle(in, true)); };
        g.fast_truth = [](const double* in) { return from_fast(ref::fast::ray_triangle(in, true)); };
    };
    return f;
}

const Family& self() {
    static const Family f = make();
    return f;
}

}  // namespace

const Family& ray_triangle_family() { return self(); }

/// For the watertightness property: the planted strict-edge kernel.
FamilyKernel ray_triangle_strict_edges_kernel() {
    return claiming(kernel("broken:strict_edges", "tolerant=1", 1, strict_edges), {RelationKind::watertight});
}

}  // namespace isect::check
