#include "isect/check/plugin.hpp"

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <dlfcn.h>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isect/plugin.h"

namespace isect::check {

namespace {

// --- The calls, one per family: the plugin's C signature to an Answer. -------

using Invoke = Answer (*)(void* fn, const float* in);

/// Every output starts as this NaN; one still holding it was not computed.
const float kUnset = [] {
    const uint32_t bits = 0x7fc1dea5u;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}();

bool unset(float x) {
    uint32_t bits;
    std::memcpy(&bits, &x, 4);
    return bits == 0x7fc1dea5u;
}

Answer hit_values(int ret, std::initializer_list<float> values) {
    Answer a{ret, {}};
    for (float v : values) {
        if (unset(v)) a.unprovided |= uint64_t(1) << a.values.size();
        a.values.push_back(unset(v) ? 0.0 : double(v));
    }
    return a;
}

const struct {
    const char* family;
    Invoke invoke;
} kCalls[] = {
    {"aabb_triangle",
     [](void* fn, const float* in) {
         return Answer{reinterpret_cast<decltype(&isect_aabb_triangle)>(fn)(in, in + 3, in + 6), {}};
     }},
    {"ray_triangle",
     [](void* fn, const float* in) {
         float t = kUnset, u = kUnset, v = kUnset;
         const int r = reinterpret_cast<decltype(&isect_ray_triangle)>(fn)(in, in + 3, in[6], in + 7, &t, &u, &v);
         return hit_values(r, {t, u, v});
     }},
    {"ray_aabb",
     [](void* fn, const float* in) {
         float t0 = kUnset, t1 = kUnset, n[3] = {kUnset, kUnset, kUnset};
         const int r = reinterpret_cast<decltype(&isect_ray_aabb)>(fn)(in, in + 3, in + 6, in + 9, &t0, &t1, n);
         return hit_values(r, {t0, t1, n[0], n[1], n[2]});
     }},
    {"segment_aabb",
     [](void* fn, const float* in) {
         float t0 = kUnset, t1 = kUnset, n[3] = {kUnset, kUnset, kUnset};
         const int r = reinterpret_cast<decltype(&isect_segment_aabb)>(fn)(in, in + 3, in + 6, in + 9, &t0, &t1, n);
         return hit_values(r, {t0, t1, n[0], n[1], n[2]});
     }},
    {"aabb_plane",
     [](void* fn, const float* in) {
         const int side = reinterpret_cast<decltype(&isect_aabb_plane)>(fn)(in, in + 3, in + 6, in[9]);
         return Answer{side >= -1 && side <= 1 ? side + 1 : 100 + side, {}};  // back, straddle, front
     }},
    {"aabb_plane_overlap",
     [](void* fn, const float* in) {
         return Answer{reinterpret_cast<decltype(&isect_aabb_plane_overlap)>(fn)(in, in + 3, in + 6, in[9]), {}};
     }},
    {"aabb_aabb",
     [](void* fn, const float* in) {
         float lo[3] = {kUnset, kUnset, kUnset}, hi[3] = {kUnset, kUnset, kUnset};
         const int r = reinterpret_cast<decltype(&isect_aabb_aabb)>(fn)(in, in + 3, in + 6, in + 9, lo, hi);
         return hit_values(r, {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]});
     }},
    {"sphere_aabb",
     [](void* fn, const float* in) {
         float q[3] = {kUnset, kUnset, kUnset};
         int contains = -1;
         const int r = reinterpret_cast<decltype(&isect_sphere_aabb)>(fn)(in, in + 3, in + 6, in[9], q, &contains);
         Answer a = hit_values(r, {q[0], q[1], q[2]});
         if (contains == -1) a.unprovided |= uint64_t(1) << 3;
         a.values.push_back(contains == -1 ? 0 : contains);
         return a;
     }},
    {"moving_aabb",
     [](void* fn, const float* in) {
         float t = kUnset;
         const int r = reinterpret_cast<decltype(&isect_moving_aabb)>(fn)(in, in + 3, in + 6, in + 9, in + 12, &t);
         return hit_values(r, {t});
     }},
    {"moving_aabb_plane",
     [](void* fn, const float* in) {
         float t = kUnset;
         const int r = reinterpret_cast<decltype(&isect_moving_aabb_plane)>(fn)(in, in + 3, in + 6, in[9], in + 10, &t);
         return hit_values(r, {t});
     }},
    {"transformed_aabb",
     [](void* fn, const float* in) {
         float lo[3] = {kUnset, kUnset, kUnset}, hi[3] = {kUnset, kUnset, kUnset};
         reinterpret_cast<decltype(&isect_transformed_aabb)>(fn)(in, in + 3, in + 6, in + 15, lo, hi);
         return hit_values(0, {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]});
     }},
    {"triangle_measures",
     [](void* fn, const float* in) {
         float out[8] = {kUnset, kUnset, kUnset, kUnset, kUnset, kUnset, kUnset, kUnset};
         const int r = reinterpret_cast<decltype(&isect_triangle_measures)>(fn)(in, in + 9, out);
         return hit_values(r, {out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]});
     }},
    {"polygon_measures",
     [](void* fn, const float* in) {
         float out[5] = {kUnset, kUnset, kUnset, kUnset, kUnset};
         const int r = reinterpret_cast<decltype(&isect_polygon_measures)>(fn)(in, in + 15, out);
         return hit_values(r, {out[0], out[1], out[2], out[3], out[4]});
     }},
};

Invoke invoker(const std::string& family) {
    for (const auto& c : kCalls)
        if (family == c.family) return c.invoke;
    return nullptr;
}

// --- Pipes ------------------------------------------------------------------------

bool write_all(int fd, const void* data, size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= size_t(w);
    }
    return true;
}

/// Reads n bytes; false on EOF or error. With timeout_ms >= 0, sets
/// timed_out and returns false when nothing arrives in time.
bool read_all(int fd, void* data, size_t n, int timeout_ms, bool* timed_out) {
    char* p = static_cast<char*>(data);
    while (n > 0) {
        if (timeout_ms >= 0) {
            pollfd pfd{fd, POLLIN, 0};
            const int r = ::poll(&pfd, 1, timeout_ms);
            if (r < 0 && errno == EINTR) continue;
            if (r == 0) {
                if (timed_out) *timed_out = true;
                return false;
            }
        }
        const ssize_t got = ::read(fd, p, n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        p += got;
        n -= size_t(got);
    }
    return true;
}

bool write_string(int fd, const std::string& s) {
    const uint32_t n = uint32_t(s.size());
    return write_all(fd, &n, 4) && write_all(fd, s.data(), n);
}

bool read_string(int fd, std::string& s, int timeout_ms) {
    uint32_t n = 0;
    if (!read_all(fd, &n, 4, timeout_ms, nullptr) || n > (1u << 20)) return false;
    s.resize(n);
    return read_all(fd, s.data(), n, timeout_ms, nullptr);
}

// --- The worker ---------------------------------------------------------------------

[[noreturn]] void worker(const std::string& path, int in, int out) {
    dup2(2, 1);  // a plugin's printf must not reach the report
    // A crash in the plugin must end the worker by its signal, also when
    // the checker runs under a sanitizer that installed its own handlers.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
        struct sigaction dfl = {};
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, nullptr);
    }
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    const auto fail = [&](const std::string& why) {
        const uint8_t status = 1;
        write_all(out, &status, 1);
        write_string(out, why);
        _exit(0);
    };
    if (!lib) fail(std::string("cannot load: ") + dlerror());
    using Version = int (*)();
    auto version = reinterpret_cast<Version>(dlsym(lib, "isect_abi_version"));
    if (!version) fail("exports no isect_abi_version(); is it an isect plugin? (core/include/isect/plugin.h)");
    const int v = version();
    if (v != ISECT_ABI_VERSION)
        fail("isect_abi_version() returned " + std::to_string(v) + "; this isect speaks version " +
             std::to_string(ISECT_ABI_VERSION));
    std::string name = path.substr(path.find_last_of('/') + 1);
    if (auto named = reinterpret_cast<const char* (*)()>(dlsym(lib, "isect_kernel_name")))
        if (const char* n = named()) name = n;
    std::vector<void*> fns;
    std::vector<std::string> exported;
    for (const Family* f : families()) {
        fns.push_back(dlsym(lib, ("isect_" + f->name).c_str()));
        if (fns.back()) exported.push_back(f->name);
    }
    if (exported.empty()) {
        std::string all;
        for (const Family* f : families()) all += (all.empty() ? "isect_" : ", isect_") + f->name;
        fail("exports none of the family functions (" + all + ")");
    }
    const uint8_t ok = 0;
    write_all(out, &ok, 1);
    write_string(out, name);
    const uint32_t count = uint32_t(exported.size());
    write_all(out, &count, 4);
    for (const std::string& e : exported) write_string(out, e);
    double domain[2] = {0, 0};  // lo, hi; 0 0 when not declared
    if (auto declared = reinterpret_cast<void (*)(double*, double*)>(dlsym(lib, "isect_domain")))
        declared(&domain[0], &domain[1]);
    write_all(out, domain, sizeof domain);
    for (;;) {
        uint32_t header[2];
        if (!read_all(in, header, sizeof header, -1, nullptr)) _exit(0);
        const Family* f = header[0] < families().size() ? families()[header[0]] : nullptr;
        std::vector<float> floats(header[1]);
        if (!f || floats.size() != f->size() ||
            !read_all(in, floats.data(), floats.size() * sizeof(float), -1, nullptr) || !fns[header[0]])
            _exit(3);
        const Answer a = invoker(f->name)(fns[header[0]], floats.data());
        // One write per reply: answer, count, unprovided mask, values.
        const int32_t answer = a.answer;
        const uint32_t n = uint32_t(a.values.size());
        std::vector<char> reply(16 + n * sizeof(double));
        std::memcpy(reply.data(), &answer, 4);
        std::memcpy(reply.data() + 4, &n, 4);
        std::memcpy(reply.data() + 8, &a.unprovided, 8);
        if (n) std::memcpy(reply.data() + 16, a.values.data(), n * sizeof(double));  // data() may be null at 0
        if (!write_all(out, reply.data(), reply.size())) _exit(0);
    }
}

std::string signal_name(int sig) {
    const char* d = strsignal(sig);
    return std::string("signal ") + std::to_string(sig) + (d ? " (" + std::string(d) + ")" : "");
}

}  // namespace

FamilyKernel plugin_kernel_in_process(const std::string& path, const Family& f, const Contract& contract,
                                      double error_e) {
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) throw std::runtime_error(path + ": cannot load: " + dlerror());
    const auto version = reinterpret_cast<int (*)()>(dlsym(lib, "isect_abi_version"));
    if (!version || version() != ISECT_ABI_VERSION)
        throw std::runtime_error(path + ": not an isect plugin of ABI version " + std::to_string(ISECT_ABI_VERSION));
    void* fn = dlsym(lib, ("isect_" + f.name).c_str());
    if (!fn) throw std::runtime_error(path + " does not export isect_" + f.name);
    std::string name = path.substr(path.find_last_of('/') + 1);
    if (auto named = reinterpret_cast<const char* (*)()>(dlsym(lib, "isect_kernel_name")))
        if (const char* n = named()) name = n;
    const Invoke invoke = invoker(f.name);
    return {name, contract, error_e, [fn, invoke](const float* in) { return invoke(fn, in); }};
}

PluginHost::PluginHost(const std::string& path, int timeout_ms) : path_(path), timeout_ms_(timeout_ms) {
    std::signal(SIGPIPE, SIG_IGN);  // a dead worker must not take the checker with it
    if (access(path.c_str(), R_OK) != 0) throw std::runtime_error(path + ": no such file (or not readable)");
    info_.path = path;
    start();
}

PluginHost::~PluginHost() { stop(); }

void PluginHost::start() {
    int down[2], up[2];
    if (pipe(down) != 0 || pipe(up) != 0) throw std::runtime_error("pipe: " + std::string(strerror(errno)));
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork: " + std::string(strerror(errno)));
    if (pid == 0) {
        close(down[1]);
        close(up[0]);
        worker(path_, down[0], up[1]);
    }
    close(down[0]);
    close(up[1]);
    pid_ = pid;
    to_child_ = down[1];
    from_child_ = up[0];
    uint8_t status = 2;
    bool timed_out = false;
    if (!read_all(from_child_, &status, 1, 10000, &timed_out)) {
        int ws = 0;
        if (timed_out) kill(pid_, SIGKILL);
        waitpid(pid_, &ws, 0);
        pid_ = -1;
        stop();
        throw std::runtime_error(path_ + ": the plugin " +
                                 (timed_out ? std::string("did not load within 10 s")
                                  : WIFSIGNALED(ws) ? "crashed while loading (" + signal_name(WTERMSIG(ws)) + ")"
                                                    : std::string("exited while loading")));
    }
    if (status != 0) {
        std::string why;
        read_string(from_child_, why, 1000);
        stop();
        throw std::runtime_error(path_ + ": " + why);
    }
    std::string name;
    uint32_t count = 0;
    std::vector<std::string> families;
    if (!read_string(from_child_, name, 1000) || !read_all(from_child_, &count, 4, 1000, nullptr)) {
        stop();
        throw std::runtime_error(path_ + ": broken worker handshake");
    }
    for (uint32_t i = 0; i < count; ++i) {
        std::string f;
        if (!read_string(from_child_, f, 1000)) break;
        families.push_back(f);
    }
    double domain[2] = {0, 0};
    if (!read_all(from_child_, domain, sizeof domain, 1000, nullptr)) {
        stop();
        throw std::runtime_error(path_ + ": broken worker handshake");
    }
    if (domain[0] != 0 || domain[1] != 0) {
        if (!(domain[0] > 0) || !(domain[1] >= domain[0]) || !std::isfinite(domain[1])) {
            stop();
            throw std::runtime_error(path_ + ": isect_domain() declared [" + std::to_string(domain[0]) + ", " +
                                     std::to_string(domain[1]) + "]; it must be 0 < lo <= hi, finite");
        }
        Domain d;
        d.lo = domain[0];
        d.hi = domain[1];
        info_.domain = d;
    }
    info_.name = name;
    info_.families = families;
}

void PluginHost::stop() {
    if (to_child_ >= 0) close(to_child_);
    if (from_child_ >= 0) close(from_child_);
    to_child_ = from_child_ = -1;
    if (pid_ > 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    pid_ = -1;
}

Answer PluginHost::call(const Family& f, const float* in) {
    if (pid_ < 0) start();
    uint32_t index = 0;
    while (index < families().size() && families()[index] != &f) ++index;
    // One write per request: family index, count, floats.
    std::vector<char> request(8 + f.size() * sizeof(float));
    const uint32_t header[2] = {index, uint32_t(f.size())};
    std::memcpy(request.data(), header, 8);
    std::memcpy(request.data() + 8, in, f.size() * sizeof(float));
    bool timed_out = false;
    char head[16];
    const bool ok = write_all(to_child_, request.data(), request.size()) &&
                    read_all(from_child_, head, 16, timeout_ms_, &timed_out);
    int32_t answer = 0;
    uint32_t n = 0;
    uint64_t unprovided = 0;
    if (ok) {
        std::memcpy(&answer, head, 4);
        std::memcpy(&n, head + 4, 4);
        std::memcpy(&unprovided, head + 8, 8);
    }
    double values[Numbers::kCapacity];
    if (ok && n <= Numbers::kCapacity && read_all(from_child_, values, n * sizeof(double), timeout_ms_, &timed_out)) {
        Answer a{answer, {}, unprovided};
        for (uint32_t i = 0; i < n; ++i) a.values.push_back(values[i]);
        return a;
    }
    // The worker died, hung or said something malformed: say which, and
    // start a fresh one for the next call.
    std::string why;
    if (timed_out) {
        why = "hang: no answer within " + std::to_string(timeout_ms_) + " ms";
        stop();
    } else {
        int ws = 0;
        const pid_t pid = pid_;
        close(to_child_);
        close(from_child_);
        to_child_ = from_child_ = -1;
        waitpid(pid, &ws, 0);
        pid_ = -1;
        why = WIFSIGNALED(ws) ? "crash: " + signal_name(WTERMSIG(ws))
              : WIFEXITED(ws) ? "crash: the plugin exited with status " + std::to_string(WEXITSTATUS(ws))
                              : std::string("crash: the worker vanished");
    }
    throw KernelFailure(why);
}

FamilyKernel PluginHost::kernel(const Family& f, const Contract& contract, double error_e) {
    return {info_.name, contract, error_e, [this, &f](const float* in) { return call(f, in); }};
}

}  // namespace isect::check
