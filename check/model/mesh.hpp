// A triangle mesh a run draws cases from (--mesh FILE): its vertices, its
// triangles, and the edges two triangles share, where the cracks of a
// renderer and the misses of a voxeliser live. Read by check/io/mesh_file.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace isect::check {

struct Mesh {
    std::string path;
    std::vector<std::array<float, 3>> vertices;
    std::vector<std::array<uint32_t, 3>> triangles;
    /// An edge two triangles share: the triangles, and the edge's vertices.
    struct Shared {
        uint32_t t1, t2, v0, v1;
    };
    std::vector<Shared> shared;
    std::array<float, 3> lo{}, hi{};  ///< the bounds of its vertices
};

/// Fills m.shared (edges matched by their vertex indices) and the bounds.
void index_mesh(Mesh& m);

/// A mesh of the given triangles (each three vertices, nine numbers),
/// vertices equal in every coordinate made one: a witness's neighbourhood.
std::shared_ptr<const Mesh> mesh_of(const std::vector<std::array<double, 9>>& triangles);

}  // namespace isect::check
