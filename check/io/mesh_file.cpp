#include "check/io/mesh_file.hpp"

#include <cmath>

#ifdef ISECT_HAVE_ASSIMP
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#endif

namespace isect::check {

std::shared_ptr<const Mesh> read_mesh(const std::string& path, std::string& why) {
#ifndef ISECT_HAVE_ASSIMP
    why = path + ": this isect was built without assimp (apt-get install libassimp-dev, then build again)";
    return nullptr;
#else
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
    if (!scene) {
        why = path + ": " + importer.GetErrorString();
        return nullptr;
    }
    auto mesh = std::make_shared<Mesh>();
    mesh->path = path;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const aiMesh& in = *scene->mMeshes[m];
        const uint32_t base = uint32_t(mesh->vertices.size());
        for (unsigned v = 0; v < in.mNumVertices; ++v) {
            const aiVector3D& p = in.mVertices[v];
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
                why = path + ": vertex " + std::to_string(v + 1) + " of mesh " + std::to_string(m + 1) + " is not finite";
                return nullptr;
            }
            mesh->vertices.push_back({float(p.x), float(p.y), float(p.z)});
        }
        for (unsigned f = 0; f < in.mNumFaces; ++f) {
            const aiFace& face = in.mFaces[f];
            if (face.mNumIndices != 3) continue;  // points and lines: no triangle
            mesh->triangles.push_back({base + face.mIndices[0], base + face.mIndices[1], base + face.mIndices[2]});
        }
    }
    if (mesh->triangles.empty()) {
        why = path + ": no triangles";
        return nullptr;
    }
    index_mesh(*mesh);
    return mesh;
#endif
}

}  // namespace isect::check
