#include "check/model/mesh.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace isect::check {

void index_mesh(Mesh& m) {
    m.shared.clear();
    m.border_edges = m.non_manifold_edges = m.degenerate_triangles = 0;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> edges;  // an edge, by its vertices in order -> its triangles
    for (uint32_t t = 0; t < m.triangles.size(); ++t) {
        const auto& tri = m.triangles[t];
        for (int e = 0; e < 3; ++e) {
            const uint32_t a = tri[size_t(e)], b = tri[size_t((e + 1) % 3)];
            if (a == b) continue;
            std::vector<uint32_t>& at = edges[std::minmax(a, b)];
            if (at.empty() || at.back() != t) at.push_back(t);
        }
        const auto& p = m.vertices[tri[0]];
        const auto& q = m.vertices[tri[1]];
        const auto& r = m.vertices[tri[2]];
        double u[3], v[3];
        for (size_t i = 0; i < 3; ++i) {
            u[i] = double(q[i]) - double(p[i]);
            v[i] = double(r[i]) - double(p[i]);
        }
        // A repeated vertex makes an edge vector 0, so its cross product too.
        m.degenerate_triangles += u[1] * v[2] - u[2] * v[1] == 0 && u[2] * v[0] - u[0] * v[2] == 0 && u[0] * v[1] - u[1] * v[0] == 0;
    }
    for (const auto& [key, ts] : edges) {
        if (ts.size() == 1) ++m.border_edges;
        if (ts.size() > 2) ++m.non_manifold_edges;
        for (size_t k = 1; k < ts.size(); ++k) m.shared.push_back({ts[0], ts[k], key.first, key.second});
    }
    if (m.vertices.empty()) return;
    m.lo = m.hi = m.vertices.front();
    for (const auto& v : m.vertices)
        for (size_t i = 0; i < 3; ++i) {
            m.lo[i] = std::min(m.lo[i], v[i]);
            m.hi[i] = std::max(m.hi[i], v[i]);
        }
}

std::string Mesh::summary() const {
    return path + ": " + std::to_string(triangles.size()) + " triangles, " + std::to_string(vertices.size()) +
           " vertices joined by position, " + std::to_string(shared.size()) + " shared edges, " +
           std::to_string(border_edges) + " border edges, " + std::to_string(non_manifold_edges) + " non-manifold edges, " +
           std::to_string(degenerate_triangles) + " degenerate triangles";
}

std::shared_ptr<const Mesh> mesh_by_position(const std::string& path, const std::vector<std::array<float, 9>>& triangles) {
    auto m = std::make_shared<Mesh>();
    m->path = path;
    std::map<std::array<float, 3>, uint32_t> index;  // -0 and 0 compare equal: one vertex
    for (const auto& t : triangles) {
        std::array<uint32_t, 3> tri{};
        for (size_t k = 0; k < 3; ++k) {
            const std::array<float, 3> v{t[3 * k], t[3 * k + 1], t[3 * k + 2]};
            const auto [at, fresh] = index.emplace(v, uint32_t(m->vertices.size()));
            if (fresh) m->vertices.push_back(v);
            tri[k] = at->second;
        }
        m->triangles.push_back(tri);
    }
    index_mesh(*m);
    return m;
}

std::shared_ptr<const Mesh> mesh_of(const std::vector<std::array<double, 9>>& triangles) {
    std::vector<std::array<float, 9>> in;
    for (const auto& t : triangles) {
        std::array<float, 9> f{};
        for (size_t i = 0; i < 9; ++i) f[i] = float(t[i]);
        in.push_back(f);
    }
    return mesh_by_position("the case's neighbours", in);
}

}  // namespace isect::check
