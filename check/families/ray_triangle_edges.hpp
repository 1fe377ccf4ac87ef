// ray_triangle's shared edges and vertices, for --relation watertight
// (check/engine/run.hpp's Relation): the triangles that close a case's
// triangle around each edge and vertex, built from the case or found in the
// user's mesh, and where the ray crosses them. Beside the family
// (ray_triangle.cpp), which wires them into its description.
#pragma once

#include <memory>

#include "check/model/family.hpp"
#include "check/model/mesh.hpp"

namespace isect::check {

/// The family's own: neighbourhoods built from the case (the triangle
/// across each edge, the fan around each vertex), the exact crossing
/// (under cull_back, onto a front face), the planes crossed alike.
Family::SharedEdges ray_triangle_shared_edges(bool cull_back);

/// `own` with a mesh's own neighbours where the case's triangle is the
/// mesh's (Family::mesh_shared_edges).
Family::SharedEdges ray_triangle_mesh_edges(const Family::SharedEdges& own, const std::shared_ptr<const Mesh>& mesh);

/// Marks in m.reached the shared edge or the vertex of the mesh's triangle
/// t that the case `in` (a ray against t) passes exactly through, if any;
/// whether it passes through one.
bool mark_reached(const Mesh& m, uint32_t t, const double* in);

}  // namespace isect::check
