// Reading a mesh file (OBJ, PLY, STL and the other formats assimp reads)
// into check/model/mesh.hpp's Mesh: triangulated, and vertices at the same
// position joined so that shared edges share their vertices. assimp reads
// the file in a process of its own (this program started again), so that
// a malformed file is an error naming it, never a crash of isect.
#pragma once

#include <memory>
#include <string>

#include "check/model/mesh.hpp"

namespace isect::check {

/// The mesh in `path`, or null with why, naming the file ("PATH: no
/// triangles", "PATH: is a directory", "PATH: the mesh reader (assimp)
/// crashed on it (SIGSEGV): ...", the reader's own message, a non-finite
/// vertex by its face and corner).
std::shared_ptr<const Mesh> read_mesh(const std::string& path, std::string& why);

/// The first argument that starts a program as a mesh reader. A program
/// that reads meshes calls mesh_reader_main first thing in main when
/// argv[1] is this (the isect command does).
inline constexpr const char* kMeshReaderArg = "--isect-mesh-reader";

/// A mesh reader's life: reads the file named on its command line and
/// writes its triangles on descriptor 3. Returns the exit status.
int mesh_reader_main(int argc, char** argv);

}  // namespace isect::check
