// Reading a mesh file (OBJ, PLY, STL and the other formats assimp reads)
// into check/model/mesh.hpp's Mesh: triangulated, identical vertices joined
// so that shared edges share their vertices.
#pragma once

#include <memory>
#include <string>

#include "check/model/mesh.hpp"

namespace isect::check {

/// The mesh in `path`, or null with why ("PATH: no triangles", the
/// reader's own message).
std::shared_ptr<const Mesh> read_mesh(const std::string& path, std::string& why);

}  // namespace isect::check
