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
    /// Its topology, as index_mesh found it: edges of one triangle (a
    /// hole's rim, an open surface's border), edges of three or more, and
    /// triangles with a repeated vertex or a cross product of exactly 0
    /// (kept: still part of the surface a ray must not leak through).
    size_t border_edges = 0, non_manifold_edges = 0, degenerate_triangles = 0;
    /// "PATH: T triangles, V vertices joined by position, S shared edges,
    /// B border edges, N non-manifold edges, D degenerate triangles".
    std::string summary() const;
};

/// Fills m.shared (edges matched by their vertex indices), the topology
/// counts and the bounds.
void index_mesh(Mesh& m);

/// A mesh of the given triangles (each three vertices, nine numbers),
/// vertices equal in every coordinate made one (by position alone:
/// whatever normals or texture coordinates a file gave them), indexed.
std::shared_ptr<const Mesh> mesh_by_position(const std::string& path, const std::vector<std::array<float, 9>>& triangles);

/// The same for a witness's neighbourhood (its triangles' numbers are
/// floats held in doubles).
std::shared_ptr<const Mesh> mesh_of(const std::vector<std::array<double, 9>>& triangles);

}  // namespace isect::check
