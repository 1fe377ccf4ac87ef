#include "check/model/mesh.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace isect::check {

void index_mesh(Mesh& m) {
    m.shared.clear();
    m.border_edges = m.non_manifold_edges = m.degenerate_triangles = m.closed_fans = 0;
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
    // A vertex's fan is closed when every edge at it is in two triangles.
    std::vector<uint8_t> fan(m.vertices.size(), 0);  // 0: no edge, 1: closed so far, 2: open
    for (const auto& [key, ts] : edges) {
        if (ts.size() == 1) ++m.border_edges;
        if (ts.size() > 2) ++m.non_manifold_edges;
        for (size_t k = 1; k < ts.size(); ++k) m.shared.push_back({ts[0], ts[k], key.first, key.second});
        for (const uint32_t v : {key.first, key.second}) fan[v] = ts.size() == 2 && fan[v] != 2 ? 1 : 2;
    }
    m.closed_fan.assign(m.vertices.size(), false);
    for (size_t v = 0; v < fan.size(); ++v) m.closed_fan[v] = fan[v] == 1;
    m.closed_fans = size_t(std::count(fan.begin(), fan.end(), 1));
    m.reached = std::make_shared<Mesh::Reached>(m.shared.size(), m.vertices.size());
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
           std::to_string(closed_fans) + " closed vertex fans, " + std::to_string(degenerate_triangles) + " degenerate triangles";
}

std::string Mesh::reach_summary() const {
    if (!reached) return {};
    size_t edges = 0, fans = 0;
    for (const auto& e : reached->edges) edges += e.load(std::memory_order_relaxed);
    for (size_t v = 0; v < reached->vertices.size(); ++v)
        fans += closed_fan[v] && reached->vertices[v].load(std::memory_order_relaxed);
    return "rays passed exactly through " + std::to_string(edges) + " of its " + std::to_string(shared.size()) +
           " shared edges and " + std::to_string(fans) + " of its " + std::to_string(closed_fans) + " closed vertex fans";
}

std::shared_ptr<Mesh> mesh_by_position(const std::string& path, const std::vector<std::array<float, 9>>& triangles) {
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
