// ray_triangle's shared edges and vertices, for --relation watertight
// (check/engine/run.hpp's Relation): the triangles that close a case's
// triangle around each edge and vertex, built from the case or found in the
// user's mesh, and where the ray crosses them. Beside the family
// (ray_triangle.cpp), which wires them into its description.
#pragma once

#include <memory>

#include "check/model/family.hpp"
#include "check/model/mesh.hpp"
#include "isect/fp.hpp"

namespace isect::check {

/// The family's own: neighbourhoods built from the case (the triangle
/// across each edge, the fan around each vertex), the exact crossing
/// (under cull_back, onto a front face), the planes crossed alike.
Family::SharedEdges ray_triangle_shared_edges(bool cull_back);

/// `own` with a mesh's own neighbours where the case's triangle is the
/// mesh's (Family::mesh_shared_edges).
Family::SharedEdges ray_triangle_mesh_edges(const Family::SharedEdges& own, const std::shared_ptr<const Mesh>& mesh);

/// A ray o + t d that passes exactly through the point 1 / (m + 1) of the
/// way along the edge ab, at t = 1 / (m + 1), from about a + off: every
/// sum that builds it exact (the edge's points are rarely floats, so a ray
/// aimed at a rounded one misses the edge by a rounding). False where the
/// ends' bits leave no such ray near off.
bool ray_through_edge(const Vec3f& a, const Vec3f& b, const Vec3f& off, int m, Vec3f& o, Vec3f& d);

/// Marks in m.reached the shared edge or the vertex of the mesh's triangle
/// t that the case `in` (a ray against t) passes exactly through, if any;
/// whether it passes through one.
bool mark_reached(const Mesh& m, uint32_t t, const double* in);

}  // namespace isect::check
