#include "ray_triangle_edges.hpp"

#include <algorithm>
#include <map>

#include "family_common.hpp"
#include "isect/ref/ray_triangle.hpp"

namespace isect::check {

namespace {

constexpr auto& kInput = ref::ray_triangle_input;
constexpr size_t kTmax = kInput.at("tmax"), kTri = kInput.at("tri");
constexpr size_t kA = kTri, kB = kTri + 3, kC = kTri + 6;

// --- Shared edges and vertices (--relation watertight) -----------------------------

/// The case's triangle with another third of its vertices: the same query.
Inputs with_triangle(const double* in, const double* a, const double* b, const double* c) {
    Inputs n(in, in + kInput.size());
    for (size_t i = 0; i < 3; ++i) {
        n[kA + i] = a[i];
        n[kB + i] = b[i];
        n[kC + i] = c[i];
    }
    return n;
}

/// The groups that close the case's triangle abc, each wound alike: across
/// each edge (ab, bc, ca) the triangle (b, a, a + b - c), its third vertex
/// the opposite one mirrored through the edge's midpoint; around each
/// vertex (a, b, c) the fan (v, q, p'), (v, p', q'), (v, q', p) of the
/// triangle (v, p, q) and its edges mirrored through v (p' = 2 v - p),
/// which covers the plane around v. Each new vertex is rounded to the run's
/// precision (the groups are then a hair off planar).
std::vector<std::vector<Inputs>> neighbourhoods(const double* in) {
    std::vector<std::vector<Inputs>> out;
    const auto vertex = [&](size_t k) { return in + kTri + 3 * (k % 3); };
    for (size_t e = 0; e < 3; ++e) {
        const double *p = vertex(e), *q = vertex(e + 1), *r = vertex(e + 2);
        double third[3];
        for (size_t i = 0; i < 3; ++i) third[i] = to_precision(p[i] + q[i] - r[i]);
        out.push_back({with_triangle(in, q, p, third)});
    }
    for (size_t k = 0; k < 3; ++k) {
        const double *v = vertex(k), *p = vertex(k + 1), *q = vertex(k + 2);
        double pm[3], qm[3];
        for (size_t i = 0; i < 3; ++i) {
            pm[i] = to_precision(2 * v[i] - p[i]);
            qm[i] = to_precision(2 * v[i] - q[i]);
        }
        out.push_back({with_triangle(in, v, q, pm), with_triangle(in, v, pm, qm), with_triangle(in, v, qm, p)});
    }
    return out;
}

/// Which of the mesh's triangles the case's is: its vertices the mesh's, in
/// the order of the mesh's triangle or a rotation of it.
std::optional<uint32_t> mesh_triangle_of(const Mesh& m, const std::map<std::array<float, 3>, uint32_t>& index,
                                         const std::vector<std::vector<uint32_t>>& around, const double* in,
                                         uint32_t (&v)[3]) {
    for (size_t k = 0; k < 3; ++k) {
        const double* p = in + kTri + 3 * k;
        const std::array<float, 3> key{float(p[0]), float(p[1]), float(p[2])};
        const auto at = index.find(key);
        if (at == index.end() || double(key[0]) != p[0] || double(key[1]) != p[1] || double(key[2]) != p[2])
            return std::nullopt;
        v[k] = at->second;
    }
    for (uint32_t t : around[v[0]]) {
        const auto& x = m.triangles[t];
        for (size_t r = 0; r < 3; ++r)
            if (x[r] == v[0] && x[(r + 1) % 3] == v[1] && x[(r + 2) % 3] == v[2]) return t;
    }
    return std::nullopt;
}

/// The neighbourhoods of a case from a user's mesh: where the case's
/// triangle is one of the mesh's (its vertices, in its order), across each
/// edge the mesh triangle that shares it (none at the mesh's border), and
/// around each vertex every other triangle at it when they close a fan (each
/// of their edges at the vertex shared by two of them; none else). Another
/// case gets the family's own.
std::vector<std::vector<Inputs>> mesh_neighbourhoods(
    const Mesh& m, const std::map<std::array<float, 3>, uint32_t>& index, const std::vector<std::vector<uint32_t>>& around,
    const double* in, const std::function<std::vector<std::vector<Inputs>>(const double*)>& own) {
    uint32_t v[3];
    const std::optional<uint32_t> found = mesh_triangle_of(m, index, around, in, v);
    if (!found) return own(in);
    const uint32_t self = *found;
    const auto as_case = [&](uint32_t t) {
        double tri[9];
        for (size_t k = 0; k < 3; ++k)
            for (size_t i = 0; i < 3; ++i) tri[3 * k + i] = m.vertices[m.triangles[t][k]][i];
        return with_triangle(in, tri, tri + 3, tri + 6);
    };
    const auto has = [&](uint32_t t, uint32_t a) {
        return m.triangles[t][0] == a || m.triangles[t][1] == a || m.triangles[t][2] == a;
    };
    std::vector<std::vector<Inputs>> out(6);
    for (size_t e = 0; e < 3; ++e)
        for (uint32_t t : around[v[e]])
            if (t != self && has(t, v[(e + 1) % 3])) out[e].push_back(as_case(t));
    for (size_t k = 0; k < 3; ++k) {
        if (!m.closed_fan[v[k]]) continue;  // every edge at it in two triangles (index_mesh)
        for (uint32_t t : around[v[k]])
            if (t != self) out[3 + k].push_back(as_case(t));
    }
    for (size_t e = 0; e < 3; ++e)
        if (out[e].size() != 1) out[e].clear();  // a border edge, or more than two triangles at it
    return out;
}

/// Which group's shared edge or vertex the ray passes exactly through
/// (groups 0 to 2 the interiors of edges ab, bc, ca; 3 to 5 the vertices a,
/// b, c), at 0 < t < tmax, not in the case's plane (under cull_back, onto
/// its front face): the case's barycentric weights at the crossing say
/// where. nullopt elsewhere.
std::optional<size_t> crossing(const double* in, bool cull_back) {
    const ref::RayTriangleCramer base = ref::ray_triangle_cramer(in);
    if (base.zero_direction || base.degenerate || base.det == 0 || (cull_back && base.det < 0)) return std::nullopt;
    if (!(base.t > 0) || (!std::isinf(in[kTmax]) && !(base.t < ref::exact(in[kTmax])))) return std::nullopt;
    const ref::Rational w[3] = {1 - base.u - base.v, base.u, base.v};  // of a, b, c
    for (size_t k = 0; k < 3; ++k)
        if (w[k] == 1) return 3 + k;
    for (size_t g = 0; g < 3; ++g)  // the edge from vertex g to g + 1: the third's weight 0, theirs positive
        if (w[(g + 2) % 3] == 0 && w[g] > 0 && w[(g + 1) % 3] > 0) return g;
    return std::nullopt;
}

/// Whether the ray crosses the plane of every proper triangle of the group
/// the way it crosses the case's (det of the same sign, none 0). A
/// degenerate one (a mesh's zero-area triangle in a fan) covers nothing:
/// the others close the fan without it, and it claims nothing either way.
bool crosses_alike(const double* in, const std::vector<Inputs>& group) {
    for (const Inputs& n : group)
        for (size_t i = 0; i < 9; ++i)
            if (!std::isfinite(n[kTri + i])) return false;
    const ref::RayTriangleCramer base = ref::ray_triangle_cramer(in);
    for (const Inputs& n : group) {
        const ref::RayTriangleCramer other = ref::ray_triangle_cramer(n.data());
        if (other.degenerate) continue;
        if (other.det == 0 || (other.det > 0) != (base.det > 0)) return false;
    }
    return true;
}

/// The value of x's lowest set bit (0 for 0): every multiple of it that is
/// no larger than x's binade allows is a float.
double lowest_bit(float x) {
    if (x == 0 || !std::isfinite(x)) return 0;
    int e;
    auto m = uint32_t(std::ldexp(std::fabs(std::frexp(x, &e)), 24));  // 24 bits, the top one set
    int zeros = 0;
    for (; (m & 1) == 0; m >>= 1) ++zeros;
    return std::ldexp(1.0, e - 24 + zeros);
}

}  // namespace

/// From a + v towards b - m v, with v near `off` on the grid of a's and b's
/// bits, halved in a coordinate until each sum there is exact (a ray aimed
/// at a rounded edge point missed it by a rounding: on assimp's sphere with
/// a hole, half its shared edges were never crossed exactly).
bool ray_through_edge(const Vec3f& a, const Vec3f& b, const Vec3f& off, int m, Vec3f& o, Vec3f& d) {
    for (size_t i = 0; i < 3; ++i) {
        const double grid = std::max({lowest_bit(a[i]), lowest_bit(b[i]), lowest_bit(off[i])});
        if (grid == 0) return false;
        for (double v = std::round(double(off[i]) / grid) * grid;; v = std::trunc(v / 2 / grid) * grid) {
            const double x = double(a[i]) + v, y = double(b[i]) - m * v, step = y - x;
            o[i] = float(x);
            d[i] = float(step);
            if (std::isfinite(o[i]) && std::isfinite(d[i]) && double(o[i]) == x && double(float(y)) == y && double(d[i]) == step)
                break;
            if (v == 0) return false;
        }
    }
    return d[0] != 0 || d[1] != 0 || d[2] != 0;
}

Family::SharedEdges ray_triangle_shared_edges(bool cull_back) {
    Family::SharedEdges s;
    s.neighbours = neighbourhoods;
    s.crossing = [cull_back](const double* in) { return crossing(in, cull_back); };
    s.crosses_alike = crosses_alike;
    s.names = {"edge ab", "edge bc", "edge ca", "vertex a", "vertex b", "vertex c"};
    return s;
}

Family::SharedEdges ray_triangle_mesh_edges(const Family::SharedEdges& own, const std::shared_ptr<const Mesh>& mesh) {
    Family::SharedEdges s = own;
    auto index = std::make_shared<std::map<std::array<float, 3>, uint32_t>>();
    auto around = std::make_shared<std::vector<std::vector<uint32_t>>>(mesh->vertices.size());
    for (uint32_t i = 0; i < mesh->vertices.size(); ++i) index->emplace(mesh->vertices[i], i);
    for (uint32_t t = 0; t < mesh->triangles.size(); ++t)
        for (uint32_t x : mesh->triangles[t]) (*around)[x].push_back(t);
    s.neighbours = [mesh, index, around, own = own.neighbours](const double* in) {
        return mesh_neighbourhoods(*mesh, *index, *around, in, own);
    };
    s.mesh_triangle = [mesh, index, around](const double* in) {
        uint32_t v[3];
        return mesh_triangle_of(*mesh, *index, *around, in, v);
    };
    s.mesh_place = [mesh, index, around, names = own.names](const double* in) -> std::string {
        uint32_t v[3];
        const std::optional<uint32_t> t = mesh_triangle_of(*mesh, *index, *around, in, v);
        if (!t || !mesh->name_in_file) return {};
        std::string out = "its triangle is " + mesh->name_in_file(*mesh, *t);
        const std::optional<size_t> g = crossing(in, false);
        if (!g) return out;
        // The mesh's triangles at the edge (both its vertices) or vertex.
        std::vector<std::string> others;
        for (uint32_t n : (*around)[v[*g % 3]]) {
            const auto& x = mesh->triangles[n];
            const auto has = [&](uint32_t a) { return x[0] == a || x[1] == a || x[2] == a; };
            if (n != *t && (*g >= 3 || has(v[(*g + 1) % 3]))) others.push_back(mesh->name_in_file(*mesh, n));
        }
        out += "; around its " + (*g < names.size() ? names[*g] : std::to_string(*g)) + ": ";
        for (size_t i = 0; i < others.size(); ++i) out += (i ? ", " : "") + others[i];
        return out;
    };
    return s;
}

bool mark_reached(const Mesh& m, uint32_t t, const double* in) {
    const std::optional<size_t> g = crossing(in, false);
    if (!g || !m.reached) return g.has_value();
    const auto& tri = m.triangles[t];
    if (*g >= 3) {
        m.reached->vertices[tri[*g - 3]].store(true, std::memory_order_relaxed);
        return true;
    }
    // m.shared is sorted by its vertex pairs (index_mesh).
    const auto [a, b] = std::minmax(tri[*g], tri[(*g + 1) % 3]);
    auto at = std::lower_bound(m.shared.begin(), m.shared.end(), std::make_pair(a, b),
                               [](const Mesh::Shared& e, const std::pair<uint32_t, uint32_t>& k) {
                                   return std::make_pair(e.v0, e.v1) < k;
                               });
    for (; at != m.shared.end() && at->v0 == a && at->v1 == b; ++at)
        m.reached->edges[size_t(at - m.shared.begin())].store(true, std::memory_order_relaxed);
    return true;
}

}  // namespace isect::check
