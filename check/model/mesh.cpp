#include "check/model/mesh.hpp"

#include <algorithm>
#include <map>

namespace isect::check {

void index_mesh(Mesh& m) {
    m.shared.clear();
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> first;  // an edge, by its vertices in order, -> its first triangle
    for (uint32_t t = 0; t < m.triangles.size(); ++t)
        for (int e = 0; e < 3; ++e) {
            const uint32_t a = m.triangles[t][size_t(e)], b = m.triangles[t][size_t((e + 1) % 3)];
            const auto key = std::minmax(a, b);
            const auto [at, fresh] = first.emplace(key, t);
            if (!fresh && at->second != t) m.shared.push_back({at->second, t, key.first, key.second});
        }
    if (m.vertices.empty()) return;
    m.lo = m.hi = m.vertices.front();
    for (const auto& v : m.vertices)
        for (size_t i = 0; i < 3; ++i) {
            m.lo[i] = std::min(m.lo[i], v[i]);
            m.hi[i] = std::max(m.hi[i], v[i]);
        }
}

std::shared_ptr<const Mesh> mesh_of(const std::vector<std::array<double, 9>>& triangles) {
    auto m = std::make_shared<Mesh>();
    m->path = "the case's neighbours";
    std::map<std::array<float, 3>, uint32_t> index;
    for (const auto& t : triangles) {
        std::array<uint32_t, 3> tri{};
        for (size_t k = 0; k < 3; ++k) {
            const std::array<float, 3> v{float(t[3 * k]), float(t[3 * k + 1]), float(t[3 * k + 2])};
            const auto [at, fresh] = index.emplace(v, uint32_t(m->vertices.size()));
            if (fresh) m->vertices.push_back(v);
            tri[k] = at->second;
        }
        m->triangles.push_back(tri);
    }
    index_mesh(*m);
    return m;
}

}  // namespace isect::check
