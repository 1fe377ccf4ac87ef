#include "check/io/mesh_file.hpp"

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "check/io/child.hpp"
#include "check/io/plugin_abi.hpp"
#include "check/model/family.hpp"

#ifdef ISECT_HAVE_ASSIMP
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#endif

namespace isect::check {

namespace {

// What the reader writes on its descriptor 3: 'T', then for each triangle
// the object and face it came from (assimp's meshes and their faces, from
// 0) and its nine numbers; or 'E' and a message. A reader that stops
// before its last byte crashed, whatever it wrote.
struct TriangleRecord {
    uint32_t object, face;
    std::array<float, 9> v;
};

constexpr int kReaderFd = 3;

int reader_fails(const std::string& why) {
    const char e = 'E';
    plugin_abi::write_all(kReaderFd, &e, 1);
    plugin_abi::write_all(kReaderFd, why.data(), why.size());
    return 3;
}

/// An ASCII PLY holds one line per element after its header: assimp takes
/// a file cut short there as a smaller mesh, or garbage. Empty when the
/// file is no ASCII PLY or has every line its header declares.
std::string ply_short(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line) || line != "ply" || !std::getline(in, line) || line.rfind("format ascii", 0) != 0) return {};
    long long declared = 0, at = 2;
    std::string elements;
    bool ended = false;
    while (std::getline(in, line)) {
        ++at;
        if ((ended = line == "end_header")) break;
        std::istringstream words(line);
        std::string word, name;
        long long n = 0;
        if (words >> word >> name >> n && word == "element") {
            declared += n;
            elements += (elements.empty() ? "" : ", ") + name + " " + std::to_string(n);
        }
    }
    if (!ended) return "line " + std::to_string(at) + " is its last, and its header has no end_header: the file is truncated";
    const long long header = at;
    long long lines = 0;
    while (std::getline(in, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos) ++lines;
    if (lines >= declared) return {};
    return "line " + std::to_string(header + lines) + " is its last: its header (" + elements + ") declares " +
           std::to_string(declared) + " element lines after end_header (line " + std::to_string(header) + "), it has " +
           std::to_string(lines) + ": the file is truncated";
}

}  // namespace

int mesh_reader_main(int argc, char** argv) {
    if (argc != 3) return reader_fails("usage: isect " + std::string(kMeshReaderArg) + " FILE");
#ifndef ISECT_HAVE_ASSIMP
    (void)argv;
    return reader_fails("this isect was built without assimp (apt-get install libassimp-dev, then build again)");
#else
    Assimp::Importer importer;
    // Triangulated and checked, nothing joined: isect joins vertices by
    // position alone (assimp's join also compares normals and texture
    // coordinates, and loses the edges a faceted export shares).
    const aiScene* scene = importer.ReadFile(argv[2], aiProcess_Triangulate | aiProcess_ValidateDataStructure);
    if (!scene) return reader_fails(importer.GetErrorString());
    std::vector<TriangleRecord> out;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const aiMesh& in = *scene->mMeshes[m];
        for (unsigned f = 0; f < in.mNumFaces; ++f) {
            const aiFace& face = in.mFaces[f];
            if (face.mNumIndices != 3) continue;  // points and lines: no triangle
            TriangleRecord r{m, f, {}};
            for (size_t k = 0; k < 3; ++k) {
                const unsigned at = face.mIndices[k];
                if (at >= in.mNumVertices)
                    return reader_fails("face " + std::to_string(f + 1) + " names vertex " + std::to_string(at + 1) + " of " +
                                        std::to_string(in.mNumVertices));
                const aiVector3D& p = in.mVertices[at];
                r.v[3 * k] = p.x;
                r.v[3 * k + 1] = p.y;
                r.v[3 * k + 2] = p.z;
            }
            out.push_back(r);
        }
    }
    const char t = 'T';
    if (!plugin_abi::write_all(kReaderFd, &t, 1) || !plugin_abi::write_all(kReaderFd, out.data(), out.size() * sizeof(TriangleRecord))) return 4;
    return 0;
#endif
}

std::shared_ptr<const Mesh> read_mesh(const std::string& path, std::string& why) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        why = path + ": is a directory, not a mesh file";
        return nullptr;
    }
    if (!std::filesystem::exists(path, ec)) {
        why = path + ": Unable to open file: no such file";
        return nullptr;
    }
    if (!std::ifstream(path, std::ios::binary)) {
        why = path + ": Unable to open file: " + std::strerror(errno);
        return nullptr;
    }
    if (const std::string short_by = ply_short(path); !short_by.empty()) {
        why = path + ": " + short_by;
        return nullptr;
    }
    // Read by assimp in a process of its own: a malformed file can crash
    // it (a truncated binary PLY reads past its buffer, a truncated ASCII
    // PLY fails an assertion), and that must be an error that names the
    // file, never the end of isect.
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        why = path + ": cannot start the mesh reader: " + std::strerror(errno);
        return nullptr;
    }
    ChildSpec spec;
    spec.argv = {this_program().string(), kMeshReaderArg, path};
    spec.fds = {{fds[1], kReaderFd}};
    std::string start_why;
    const pid_t pid = start_child(spec, start_why);
    ::close(fds[1]);
    std::string bytes;
    // A truncated header can send assimp round a loop for ever: the reader
    // gets 10 s and 10 s more per MB of file.
    const auto size = std::filesystem::file_size(path, ec);
    const long long limit_s = 10 + 10 * (ec ? 0 : (long long)(size >> 20));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limit_s);
    bool late = false;
    if (pid > 0) {
        char buffer[1 << 16];
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            pollfd p{fds[0], POLLIN, 0};
            const int ready = left.count() > 0 ? ::poll(&p, 1, int(left.count())) : 0;
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0) {
                late = true;
                ::kill(pid, SIGKILL);
                break;
            }
            const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            bytes.append(buffer, size_t(n));
        }
    }
    ::close(fds[0]);
    if (pid <= 0) {
        why = path + ": cannot start the mesh reader: " + start_why;
        return nullptr;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (late) {
        why = path + ": the mesh reader (assimp) did not finish within " + std::to_string(limit_s) +
              " s: the file is malformed or truncated";
        return nullptr;
    }
    if (!bytes.empty() && bytes[0] == 'E') {
        why = path + ": " + bytes.substr(1);
        return nullptr;
    }
    const bool complete = WIFEXITED(status) && WEXITSTATUS(status) == 0 && !bytes.empty() && bytes[0] == 'T' &&
                          (bytes.size() - 1) % sizeof(TriangleRecord) == 0;
    if (!complete) {
        why = path + ": the mesh reader (assimp) " +
              (WIFSIGNALED(status) ? "crashed on it (" + plugin_abi::signal_name(WTERMSIG(status)) + ")"
                                   : "stopped on it (exit " + std::to_string(WEXITSTATUS(status)) + ")") +
              ": the file is malformed or truncated";
        return nullptr;
    }
    std::vector<TriangleRecord> records((bytes.size() - 1) / sizeof(TriangleRecord));
    std::memcpy(records.data(), bytes.data() + 1, records.size() * sizeof(TriangleRecord));
    bool several = false;
    for (const TriangleRecord& r : records) several = several || r.object != 0;
    std::vector<std::array<float, 9>> triangles;
    for (const TriangleRecord& r : records) {
        for (size_t k = 0; k < 3; ++k)
            for (size_t i = 0; i < 3; ++i)
                if (!std::isfinite(r.v[3 * k + i])) {
                    why = path + ": face " + std::to_string(r.face + 1) +
                          (several ? " of object " + std::to_string(r.object + 1) : std::string()) + " (counted from 1 in the file's order" +
                          (several ? " within its object" : "") + "), corner " + std::to_string(k + 1) + ": vertex (" +
                          format_float(r.v[3 * k]) + " " + format_float(r.v[3 * k + 1]) + " " + format_float(r.v[3 * k + 2]) +
                          ") is not finite";
                    return nullptr;
                }
        triangles.push_back(r.v);
    }
    if (triangles.empty()) {
        why = path + ": no triangles";
        return nullptr;
    }
    return mesh_by_position(path, triangles);
}

}  // namespace isect::check
