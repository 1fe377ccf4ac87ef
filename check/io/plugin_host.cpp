#include "isect/check/io/plugin_host.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isect/check/io/fp_env.hpp"
#include "isect/plugin.h"

namespace isect::check {

namespace {

/// Calls fn of the given precision on the engine's input (n doubles), by
/// the family's own call (Family::plugin_call_f, plugin_call_d). A float
/// call gets the input as floats (in a float run nothing rounds).
Answer call_plugin(const Family& f, Precision p, void* fn, const double* in) {
    if (p == Precision::double_) return f.plugin_call_d(fn, in);
    float floats[32];
    for (size_t i = 0; i < f.size(); ++i) floats[i] = float(in[i]);
    return f.plugin_call_f(fn, floats);
}

/// The symbol of family f's function: isect_FAMILY, or isect_FAMILY_d.
std::string symbol(const Family& f, Precision p) { return "isect_" + f.name + (p == Precision::double_ ? "_d" : ""); }

/// Whether the plugin speaks an ABI this isect reads (1 or 2).
bool known_abi(int v) { return v == 1 || v == 2; }

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

/// A reply's fixed part: answer, count, unprovided mask, control state,
/// what the function returned and whether that was set.
constexpr size_t kReplyHead = 32;

[[noreturn]] void worker(const std::string& path, const std::optional<FpEnv>& fp_env, int in, int out) {
    dup2(2, 1);  // a plugin's printf must not reach the report
    // A crash in the plugin must end the worker by its signal, also when
    // the checker runs under a sanitizer that installed its own handlers.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
        struct sigaction dfl = {};
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, nullptr);
    }
    const FpControl before = fp_control();
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    // What loading the plugin left (FTZ and DAZ from a -ffast-math build's
    // constructor), and what its kernels run in: that, or --fp-env.
    const FpControl loaded = fp_control();
    const FpControl env = fp_env ? fp_env->control() : loaded;
    set_fp_control(env);
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
    if (!known_abi(v))
        fail("isect_abi_version() returned " + std::to_string(v) + "; this isect speaks versions 1 and " +
             std::to_string(ISECT_ABI_VERSION));
    std::string name = path.substr(path.find_last_of('/') + 1);
    if (auto named = reinterpret_cast<const char* (*)()>(dlsym(lib, "isect_kernel_name")))
        if (const char* n = named()) name = n;
    // fns[2 i] is family i's float function, fns[2 i + 1] its double one
    // (ABI 2 only); exported names them as their symbols do, less "isect_".
    std::vector<void*> fns;
    std::vector<std::string> exported;
    for (const Family* f : families())
        for (Precision p : {Precision::single, Precision::double_}) {
            fns.push_back(p == Precision::double_ && v < 2 ? nullptr : dlsym(lib, symbol(*f, p).c_str()));
            if (fns.back()) exported.push_back(symbol(*f, p).substr(6));
        }
    if (exported.empty()) {
        std::string all;
        for (const Family* f : families()) all += (all.empty() ? "isect_" : ", isect_") + f->name;
        fail("exports none of the family functions (" + all + ", or their _d forms)");
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
    std::string requires_;
    if (auto declared = reinterpret_cast<const char* (*)()>(dlsym(lib, "isect_requires")))
        if (const char* r = declared()) requires_ = r;
    write_string(out, requires_);
    const uint64_t states[2] = {before.bits, loaded.bits};
    write_all(out, states, sizeof states);
    for (;;) {
        // Family index, count, precision (0 float, 1 double), then the
        // input as doubles.
        uint32_t header[3];
        if (!read_all(in, header, sizeof header, -1, nullptr)) _exit(0);
        const Family* f = header[0] < families().size() ? families()[header[0]] : nullptr;
        std::vector<double> input(header[1]);
        const size_t slot = 2 * size_t(header[0]) + (header[2] ? 1 : 0);
        if (!f || input.size() != f->size() || header[2] > 1 ||
            !read_all(in, input.data(), input.size() * sizeof(double), -1, nullptr) || !fns[slot])
            _exit(3);
        const Answer a = call_plugin(*f, header[2] ? Precision::double_ : Precision::single, fns[slot], input.data());
        // A kernel that changed the control state: said in the reply, and
        // the state set again for the next call.
        const FpControl after = fp_control();
        if (after != env) set_fp_control(env);
        // One write per reply: answer, count, unprovided mask, the state
        // after the call, values.
        const int32_t answer = a.answer;
        const uint32_t n = uint32_t(a.values.size());
        std::vector<char> reply(kReplyHead + n * sizeof(double));
        std::memcpy(reply.data(), &answer, 4);
        std::memcpy(reply.data() + 4, &n, 4);
        std::memcpy(reply.data() + 8, &a.unprovided, 8);
        std::memcpy(reply.data() + 16, &after.bits, 8);
        const int32_t returned[2] = {a.returned.value_or(0), a.returned ? 1 : 0};
        std::memcpy(reply.data() + 24, returned, 8);
        if (n) std::memcpy(reply.data() + kReplyHead, a.values.data(), n * sizeof(double));  // data() may be null at 0
        if (!write_all(out, reply.data(), reply.size())) _exit(0);
    }
}

std::string signal_name(int sig) {
    const char* d = strsignal(sig);
    return std::string("signal ") + std::to_string(sig) + (d ? " (" + std::string(d) + ")" : "");
}

}  // namespace

std::string resolve_plugin_path(const std::string& path) {
    // dlopen searches the library path for a name without a slash; a user
    // who writes my_kernels.so means the file in this folder.
    std::error_code ec;
    if (path.find('/') == std::string::npos && std::filesystem::exists(path, ec))
        return std::filesystem::absolute(path, ec).string();
    return path;
}

InProcessPlugin plugin_kernel_in_process(const std::string& path_in, const Family& f, const Contract& contract,
                                         double error_e, const std::optional<FpEnv>& fp_env) {
    const std::string path = resolve_plugin_path(path_in);
    InProcessPlugin out;
    // Loading may set FTZ and DAZ (a -ffast-math build): that is the
    // kernel's environment, never the judge's.
    out.before_load = fp_control();
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    out.after_load = fp_control();
    set_fp_control(out.before_load);
    if (!lib) throw std::runtime_error(path + ": cannot load: " + dlerror());
    const auto version = reinterpret_cast<int (*)()>(dlsym(lib, "isect_abi_version"));
    if (!version || !known_abi(version()))
        throw std::runtime_error(path + ": not an isect plugin of ABI version 1 or " + std::to_string(ISECT_ABI_VERSION));
    const Precision p = precision();
    void* fn = p == Precision::double_ && version() < 2 ? nullptr : dlsym(lib, symbol(f, p).c_str());
    if (!fn) throw std::runtime_error(path + " does not export " + symbol(f, p));
    std::string name = path.substr(path.find_last_of('/') + 1);
    if (auto named = reinterpret_cast<const char* (*)()>(dlsym(lib, "isect_kernel_name")))
        if (const char* n = named()) name = n;
    FamilyKernel k{name, contract, error_e, [&f, p, fn](const double* in) { return call_plugin(f, p, fn, in); }};
    k.precision = p;
    out.kernel_env = fp_env ? fp_env->control() : out.after_load;
    out.watch = std::make_shared<FpWatch>();
    out.kernel = in_fp_env(std::move(k), out.kernel_env, out.watch);
    return out;
}

PluginHost::PluginHost(const std::string& path, int timeout_ms, const std::optional<FpEnv>& fp_env)
    : path_(resolve_plugin_path(path)), timeout_ms_(timeout_ms), fp_env_(fp_env) {
    std::signal(SIGPIPE, SIG_IGN);  // a dead worker must not take the checker with it
    if (access(path_.c_str(), R_OK) != 0) throw std::runtime_error(path + ": no such file (or not readable)");
    info_.path = path_;
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
        worker(path_, fp_env_, down[0], up[1]);
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
    uint64_t states[2] = {0, 0};
    if (!read_string(from_child_, info_.requires_, 1000) || !read_all(from_child_, states, sizeof states, 1000, nullptr)) {
        stop();
        throw std::runtime_error(path_ + ": broken worker handshake");
    }
    info_.before_load = FpControl{states[0]};
    info_.after_load = FpControl{states[1]};
    kernel_env_ = fp_env_ ? fp_env_->control() : info_.after_load;
    watch_->kernel_env = kernel_env_;
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

Answer PluginHost::call(const Family& f, Precision p, const double* in) {
    if (pid_ < 0) start();
    uint32_t index = 0;
    while (index < families().size() && families()[index] != &f) ++index;
    // One write per request: family index, count, precision, the input.
    std::vector<char> request(12 + f.size() * sizeof(double));
    const uint32_t header[3] = {index, uint32_t(f.size()), p == Precision::double_ ? 1u : 0u};
    std::memcpy(request.data(), header, 12);
    std::memcpy(request.data() + 12, in, f.size() * sizeof(double));
    bool timed_out = false;
    char head[kReplyHead];
    const bool ok = write_all(to_child_, request.data(), request.size()) &&
                    read_all(from_child_, head, kReplyHead, timeout_ms_, &timed_out);
    int32_t answer = 0;
    uint32_t n = 0;
    uint64_t unprovided = 0, after = 0;
    int32_t returned[2] = {0, 0};
    if (ok) {
        std::memcpy(returned, head + 24, 8);
        std::memcpy(&answer, head, 4);
        std::memcpy(&n, head + 4, 4);
        std::memcpy(&unprovided, head + 8, 8);
        std::memcpy(&after, head + 16, 8);
        if (FpControl{after} != kernel_env_ && !watch_->changed_calls++) watch_->first_change = FpControl{after};
    }
    double values[Numbers::kCapacity];
    if (ok && n <= Numbers::kCapacity && read_all(from_child_, values, n * sizeof(double), timeout_ms_, &timed_out)) {
        Answer a{answer, {}, unprovided};
        if (returned[1]) a.returned = returned[0];
        for (uint32_t i = 0; i < n; ++i) a.values.push_back(values[i]);
        return a;
    }
    // The worker died, hung or said something malformed: say which, and
    // start a fresh one for the next call.
    std::string why;
    FailureKind kind = FailureKind::crash;
    if (timed_out) {
        why = "hang: no answer within " + std::to_string(timeout_ms_) + " ms";
        kind = FailureKind::hang;
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
    throw KernelFailure(kind, why);
}

bool PluginInfo::exports(const Family& f, Precision p) const {
    return std::find(families.begin(), families.end(), symbol(f, p).substr(6)) != families.end();
}

FamilyKernel PluginHost::kernel(const Family& f, const Contract& contract, double error_e) {
    const Precision p = precision();
    FamilyKernel k{info_.name, contract, error_e, [this, &f, p](const double* in) { return call(f, p, in); }};
    k.precision = p;
    return k;
}

}  // namespace isect::check
