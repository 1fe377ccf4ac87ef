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
#include <map>
#include <optional>
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

/// A text mesh (OBJ, ASCII PLY) as the file numbers it, read beside
/// assimp: to say what assimp lets through (a line cut short, a vertex that
/// is not finite, a face naming a vertex the file lacks) by the file's own
/// lines and numbers, and to name a triangle in a report the same way.
/// Vertices and faces counted from 0 here; in messages as the file counts
/// them (an OBJ from 1, "vertex 7"; a PLY from 0, "vertex index 6").
struct FileNumbers {
    bool ply = false;
    std::vector<std::array<float, 3>> vertices;
    std::vector<long long> vertex_line;
    std::vector<std::vector<uint32_t>> faces;
    std::vector<long long> face_line;
};

std::vector<std::string> words_of(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

/// The number `word` spells wholly (strtod's grammar: nan and inf too).
std::optional<double> number_of(const std::string& word) {
    char* end = nullptr;
    errno = 0;
    const double x = std::strtod(word.c_str(), &end);
    if (end == word.c_str() || *end != 0) return std::nullopt;
    return x;
}

/// "line L: " and why.
std::string at_line(long long line, const std::string& why) { return "line " + std::to_string(line) + ": " + why; }

/// "vertex 7" in an OBJ, "vertex index 6" in a PLY ("face", "face index").
std::string numbered(const FileNumbers& f, const std::string& what, uint64_t i) {
    return what + (f.ply ? " index " + std::to_string(i) : " " + std::to_string(i + 1));
}

std::string not_finite(const FileNumbers& f, uint64_t n, const std::array<double, 3>& p) {
    return numbered(f, "vertex", n) + " (" + format_double(p[0]) + " " + format_double(p[1]) + " " + format_double(p[2]) +
           ") is not finite";
}

/// Checks that every face's vertices exist; why names the first that does not.
bool faces_in_range(const FileNumbers& f, std::string& why) {
    for (size_t i = 0; i < f.faces.size(); ++i)
        for (uint32_t v : f.faces[i])
            if (v >= f.vertices.size()) {
                why = at_line(f.face_line[i], numbered(f, "face", i) + " names " + numbered(f, "vertex", v) + ", and the file has " +
                                                  std::to_string(f.vertices.size()) + " vertices");
                return false;
            }
    return true;
}

/// An ASCII PLY: its header's elements, then one line per element.
std::optional<FileNumbers> ascii_ply_numbers(std::istream& in, std::string& why) {
    struct Element {
        std::string name;
        long long count = 0;
        std::vector<std::pair<std::string, bool>> properties;  // name, is a list
    };
    std::vector<Element> elements;
    std::string line;
    long long at = 2;
    bool ended = false;
    while (std::getline(in, line)) {
        ++at;
        const std::vector<std::string> w = words_of(line);
        if ((ended = !w.empty() && w[0] == "end_header")) break;
        if (w.size() >= 3 && w[0] == "element") elements.push_back({w[1], (long long)number_of(w[2]).value_or(0), {}});
        else if (w.size() >= 5 && w[0] == "property" && w[1] == "list" && !elements.empty()) elements.back().properties.push_back({w[4], true});
        else if (w.size() >= 3 && w[0] == "property" && !elements.empty()) elements.back().properties.push_back({w[2], false});
    }
    if (!ended) {
        why = "line " + std::to_string(at) + " is its last, and its header has no end_header: the file is truncated";
        return std::nullopt;
    }
    const long long header = at;
    long long declared = 0, lines = 0;
    std::string declares;
    for (const Element& e : elements) {
        declared += e.count;
        declares += (declares.empty() ? "" : ", ") + e.name + " " + std::to_string(e.count);
    }
    FileNumbers out;
    out.ply = true;
    for (const Element& e : elements)
        for (long long i = 0; i < e.count; ++i) {
            std::vector<std::string> w;
            while (w.empty() && std::getline(in, line)) {
                ++at;
                w = words_of(line);
            }
            if (w.empty()) {
                why = "line " + std::to_string(header + lines) + " is its last: its header (" + declares + ") declares " +
                      std::to_string(declared) + " element lines after end_header (line " + std::to_string(header) +
                      "), it has " + std::to_string(lines) + ": the file is truncated";
                return std::nullopt;
            }
            ++lines;
            const std::string which = numbered(out, e.name, uint64_t(i));
            size_t next = 0;
            std::array<double, 3> p{0, 0, 0};
            std::vector<uint32_t> indices;
            for (const auto& property : e.properties) {
                const std::string& name = property.first;  // (a lambda may not capture a structured binding in C++17)
                const bool list = property.second;
                const auto take = [&]() -> std::optional<double> {
                    if (next >= w.size()) {
                        why = at_line(at, which + " ends before its property " + name +
                                              " (the header's properties are more than the line's numbers): the line is cut short");
                        return std::nullopt;
                    }
                    const std::optional<double> x = number_of(w[next]);
                    if (!x) why = at_line(at, which + ": '" + w[next] + "' is not a number");
                    ++next;
                    return x;
                };
                const std::optional<double> first = take();
                if (!first) return std::nullopt;
                if (!list) {
                    const size_t axis = name == "x" ? 0 : name == "y" ? 1 : name == "z" ? 2 : 3;
                    if (axis < 3) p[axis] = *first;
                    continue;
                }
                for (double n = 0; n < *first; ++n) {
                    const std::optional<double> x = take();
                    if (!x) return std::nullopt;
                    indices.push_back(*x >= 0 && *x < 4294967295.0 ? uint32_t(*x) : UINT32_MAX);
                }
            }
            if (e.name == "vertex") {
                if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) {
                    why = at_line(at, not_finite(out, uint64_t(i), p));
                    return std::nullopt;
                }
                out.vertices.push_back({float(p[0]), float(p[1]), float(p[2])});
                out.vertex_line.push_back(at);
            } else if (e.name == "face") {
                out.faces.push_back(std::move(indices));
                out.face_line.push_back(at);
            }
        }
    if (!faces_in_range(out, why)) return std::nullopt;
    return out;
}

/// An OBJ: its v lines (three coordinates, a fourth or a colour after them)
/// and f lines (vertex numbers, from 1, or negative: back from the last).
std::optional<FileNumbers> obj_numbers(std::istream& in, std::string& why) {
    FileNumbers out;
    std::string line;
    for (long long at = 1; std::getline(in, line); ++at) {
        const std::vector<std::string> w = words_of(line.substr(0, line.find('#')));
        if (w.empty()) continue;
        if (w[0] == "v") {
            const long long n = (long long)out.vertices.size();
            std::array<double, 3> p{};
            for (size_t k = 0; k < 3; ++k) {
                const std::optional<double> x = k + 1 < w.size() ? number_of(w[k + 1]) : std::nullopt;
                if (!x) {
                    why = at_line(at, "vertex " + std::to_string(n + 1) + " has " +
                                          (k + 1 < w.size() ? "'" + w[k + 1] + "' for a coordinate" : std::to_string(k) + " coordinates, not 3") +
                                          ": the line is cut short or malformed");
                    return std::nullopt;
                }
                p[k] = *x;
            }
            if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) {
                why = at_line(at, not_finite(out, uint64_t(n), p));
                return std::nullopt;
            }
            out.vertices.push_back({float(p[0]), float(p[1]), float(p[2])});
            out.vertex_line.push_back(at);
        } else if (w[0] == "f") {
            std::vector<uint32_t> face;
            for (size_t k = 1; k < w.size(); ++k) {
                const std::optional<double> x = number_of(w[k].substr(0, w[k].find('/')));
                const double v = !x ? 0 : *x < 0 ? double(out.vertices.size()) + *x + 1 : *x;
                if (!(v >= 1 && v <= 4294967295.0) || v != std::floor(v)) {
                    why = at_line(at, "face " + std::to_string(out.faces.size() + 1) + ": '" + w[k] + "' names no vertex" +
                                          (x ? " (the file has " + std::to_string(out.vertices.size()) + " before it)" : ""));
                    return std::nullopt;
                }
                face.push_back(uint32_t(v - 1));
            }
            out.faces.push_back(std::move(face));
            out.face_line.push_back(at);
        }
    }
    if (!faces_in_range(out, why)) return std::nullopt;
    return out;
}

/// The file's own numbers when it is an OBJ or an ASCII PLY; nullopt with
/// why empty for any other file, with why set for a malformed one.
std::optional<FileNumbers> file_numbers(const std::string& path, std::string& why) {
    std::ifstream in(path);
    std::string line;
    const std::string ext = std::filesystem::path(path).extension().string();
    if (ext == ".obj" || ext == ".OBJ") return obj_numbers(in, why);
    if (!std::getline(in, line) || line != "ply" || !std::getline(in, line) || line.rfind("format ascii", 0) != 0) return std::nullopt;
    return ascii_ply_numbers(in, why);
}

/// "face F" of the file as assimp read it, "face F of object O" where it
/// made several meshes of it (several), counted from 1.
std::string assimp_face(const TriangleRecord& r, bool several) {
    return "face " + std::to_string(r.face + 1) + (several ? " of object " + std::to_string(r.object + 1) : std::string());
}

/// Names each of a mesh's triangles in the file (Mesh::name_in_file): by
/// the file's face and vertex numbers where the file has them (the face
/// whose vertices, as the file spells them, are the triangle's), else by
/// assimp's order (records, the mesh's triangles as read).
std::function<std::string(const Mesh&, uint32_t)> names_in_file(std::optional<FileNumbers> numbers, std::vector<TriangleRecord> records,
                                                                bool stl, bool several) {
    struct Index {
        FileNumbers file;
        std::map<std::array<float, 3>, std::vector<uint32_t>> at;  // a position -> the file's vertices there
        std::vector<std::vector<uint32_t>> faces_of;                // a file vertex -> its faces
    };
    std::shared_ptr<Index> ix;
    if (numbers) {
        ix = std::make_shared<Index>();
        ix->file = std::move(*numbers);
        ix->faces_of.resize(ix->file.vertices.size());
        for (uint32_t v = 0; v < ix->file.vertices.size(); ++v) ix->at[ix->file.vertices[v]].push_back(v);
        for (uint32_t f = 0; f < ix->file.faces.size(); ++f)
            for (uint32_t v : ix->file.faces[f]) ix->faces_of[v].push_back(f);
    }
    return [ix, records = std::move(records), stl, several](const Mesh& m, uint32_t t) -> std::string {
        if (t >= m.triangles.size()) return "triangle " + std::to_string(t + 1);
        if (ix) {
            // The file's vertices at each corner, and a face holding one of each.
            std::vector<uint32_t> corners[3];
            for (size_t k = 0; k < 3; ++k)
                if (const auto at = ix->at.find(m.vertices[m.triangles[t][k]]); at != ix->at.end()) corners[k] = at->second;
            for (uint32_t a : corners[0])
                for (uint32_t f : ix->faces_of[a]) {
                    const auto& face = ix->file.faces[f];
                    uint32_t chosen[3] = {a, 0, 0};
                    bool all = true;
                    for (size_t k = 1; k < 3 && all; ++k) {
                        all = false;
                        for (uint32_t v : face)
                            if (std::find(corners[k].begin(), corners[k].end(), v) != corners[k].end()) {
                                chosen[k] = v;
                                all = true;
                                break;
                            }
                    }
                    if (!all) continue;
                    const uint32_t base = ix->file.ply ? 0 : 1;
                    return numbered(ix->file, "face", f) + " (line " + std::to_string(ix->file.face_line[f]) +
                           (ix->file.ply ? ": vertex indices " : ": vertices ") + std::to_string(chosen[0] + base) + " " +
                           std::to_string(chosen[1] + base) + " " + std::to_string(chosen[2] + base) + ")";
                }
        }
        if (stl) return "facet " + std::to_string(t + 1);
        return assimp_face(records[t], several) + " as assimp reads it (after splitting polygons into triangles)";
    };
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
    // What assimp lets through in a text mesh, said by the file's own lines.
    std::string malformed;
    std::optional<FileNumbers> numbers = file_numbers(path, malformed);
    if (!malformed.empty()) {
        why = path + ": " + malformed;
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
                    why = path + ": " + assimp_face(r, several) + " (counted from 1 in the file's order" +
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
    const std::shared_ptr<Mesh> m = mesh_by_position(path, triangles);
    const std::string ext = std::filesystem::path(path).extension().string();
    m->name_in_file = names_in_file(std::move(numbers), std::move(records), ext == ".stl" || ext == ".STL", several);
    return m;
}

}  // namespace isect::check
