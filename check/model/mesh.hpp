// A triangle mesh a run draws cases from (--mesh FILE): its vertices, its
// triangles, and the edges two triangles share, where the cracks of a
// renderer and the misses of a voxeliser live. Read by check/io/mesh_file.cpp.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace isect::check {

struct Mesh {
    std::string path;
    std::vector<std::array<float, 3>> vertices;
    std::vector<std::array<uint32_t, 3>> triangles;
    /// An edge two triangles share: the triangles, and the edge's vertices
    /// (v0 < v1; the list in order of its vertex pairs).
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
    /// Whether each vertex's fan is closed (every edge at it in exactly two
    /// triangles: where a watertight case can be judged at a vertex), and
    /// how many are.
    std::vector<bool> closed_fan;
    size_t closed_fans = 0;
    /// "PATH: T triangles, V vertices joined by position, S shared edges,
    /// B border edges, N non-manifold edges, F closed vertex fans, D
    /// degenerate triangles".
    std::string summary() const;

    /// What a run's cases reached on it: the shared edges (by their index
    /// in `shared`) and the vertices that a generated ray passed exactly
    /// through, aimed at one of the mesh's own triangles: where a
    /// watertight kernel was put to the test. Marked by the generators from
    /// any worker, read by the report (reach_summary).
    struct Reached {
        Reached(size_t n_edges, size_t n_vertices) : edges(n_edges), vertices(n_vertices) {}
        std::vector<std::atomic<bool>> edges, vertices;
    };
    std::shared_ptr<Reached> reached;
    /// A triangle of this mesh (the first argument) by the file's own
    /// numbers ("face 12 (line 40: vertices 5 6 7)", "facet 9"), for a
    /// report to point into the file; null when the mesh came from no file.
    std::function<std::string(const Mesh&, uint32_t triangle)> name_in_file;
    /// "rays passed exactly through E of the S shared edges and V of the F
    /// vertices with a closed fan"; empty when nothing was generated on it.
    std::string reach_summary() const;
};

/// Fills m.shared (edges matched by their vertex indices), the topology
/// counts and the bounds.
void index_mesh(Mesh& m);

/// A mesh of the given triangles (each three vertices, nine numbers),
/// vertices equal in every coordinate made one (by position alone:
/// whatever normals or texture coordinates a file gave them), indexed.
std::shared_ptr<Mesh> mesh_by_position(const std::string& path, const std::vector<std::array<float, 9>>& triangles);

/// The same for a witness's neighbourhood (its triangles' numbers are
/// floats held in doubles).
std::shared_ptr<const Mesh> mesh_of(const std::vector<std::array<double, 9>>& triangles);

}  // namespace isect::check
