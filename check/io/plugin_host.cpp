#include "isect/check/io/plugin_host.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "../families/plugin_call.hpp"
#include "isect/check/io/fp_env.hpp"
#include "isect/check/io/interrupt.hpp"
#include "isect/plugin.h"

extern char** environ;

namespace isect::check {

static_assert(PluginHost::kBatch == ISECT_BATCH_MAX, "the host never calls a batch entry with more than plugin.h promises");

namespace {
/// The name reports give a loaded plugin: isect_kernel_name() made safe to
/// print (control characters as '?', at most 200 characters), or its file's
/// name where it has none or an empty one.
std::string plugin_name(void* lib, const std::string& path) {
    std::string name;
    if (auto named = reinterpret_cast<const char* (*)()>(dlsym(lib, "isect_kernel_name")))
        if (const char* n = named()) name = n;
    for (char& c : name)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    if (name.size() > 200) name = name.substr(0, 197) + "...";
    if (name.find_first_not_of(" \t") == std::string::npos) name = path.substr(path.find_last_of('/') + 1);
    return name;
}
}  // namespace

namespace {

/// Calls fn of the given precision on the engine's input (n doubles), by
/// the family's own call (Family::plugin_call_f, plugin_call_d). A float
/// call gets the input as floats (in a float run nothing rounds).
Answer call_plugin(const Family& f, Precision p, void* fn, const double* in) {
    if (p == Precision::double_) return f.plugin_call_d(f, fn, in);
    float floats[32];
    for (size_t i = 0; i < f.size(); ++i) floats[i] = float(in[i]);
    return f.plugin_call_f(f, fn, floats);
}

/// The symbol of family f's function: isect_FAMILY, or isect_FAMILY_d.
std::string symbol(const Family& f, Precision p) { return "isect_" + f.name + (p == Precision::double_ ? "_d" : ""); }
/// And of its batch entry: isect_FAMILY_batch, or isect_FAMILY_batch_d.
std::string batch_symbol(const Family& f, Precision p) {
    return "isect_" + f.name + "_batch" + (p == Precision::double_ ? "_d" : "");
}

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

// --- Shared memory ------------------------------------------------------------------

/// The most numbers of one input (obb_obb has 24).
constexpr size_t kMaxInput = 32;

/// One input's answer as the worker leaves it.
struct Slot {
    int32_t answer = 0;
    uint32_t count = 0;       ///< numbers in values
    uint64_t unprovided = 0;
    uint64_t after = 0;       ///< the control state after the call
    int32_t returned = 0, has_returned = 0;
    double values[Numbers::kCapacity];
};

/// One round trip's request, in the shared memory beside its inputs:
/// which function, how many inputs, and whether in one call of the batch
/// entry or input by input.
struct Request {
    uint32_t family = 0, precision = 0, count = 0, whole = 0;
};

}  // namespace

/// The memory host and worker share: a round trip's request, inputs and
/// answers, and how many inputs the worker has answered so far (the input
/// in hand when it died is the next one). A round trip: the host writes
/// the request and inputs, then raises `asked`; the worker answers, then
/// sets `done` to it. Each waits for the other by watching these for up to
/// `spin_us` (where a core is spare, no wake-up then delays a chunk), then
/// by sleeping on its pipe, where the other writes a byte only when it sees
/// the sleeper's flag up (each side raises its flag, then looks again, so
/// that no wake-up is lost; a byte too many only wakes a sleeper to look).
struct PluginHost::Shared {
    std::atomic<uint32_t> answered{0};
    std::atomic<uint32_t> asked{0}, done{0};
    std::atomic<uint32_t> worker_asleep{0}, host_asleep{0};
    std::atomic<uint32_t> spin_us{0};
    Request request;
    double in[PluginHost::kBatch * kMaxInput];
    Slot out[PluginHost::kBatch];
};

namespace {

/// Watches `ready` for up to us microseconds; true once it holds.
template <class Ready> bool spin_for(uint32_t us, const Ready& ready) {
    if (us == 0) return ready();
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
    for (unsigned i = 1;; ++i) {
        if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (i % 64 == 0 && std::chrono::steady_clock::now() >= until) return ready();
    }
}

Slot slot_of(const Answer& a, FpControl after) {
    Slot s;
    s.answer = a.answer;
    s.count = uint32_t(a.values.size());
    s.unprovided = a.unprovided;
    s.after = after.bits;
    s.returned = a.returned.value_or(0);
    s.has_returned = a.returned ? 1 : 0;
    for (size_t i = 0; i < a.values.size(); ++i) s.values[i] = a.values[i];
    return s;
}

/// A slot's answer, written into a (a million a second: no temporaries).
void read_answer(const Slot& s, Answer& a) {
    a.answer = s.answer;
    a.unprovided = s.unprovided;
    a.returned = s.has_returned ? std::optional<int>(s.returned) : std::nullopt;
    const size_t n = std::min<size_t>(s.count, Numbers::kCapacity);
    a.values.resize(n);
    std::copy(s.values, s.values + n, a.values.begin());
}

/// The plugin's batch entry on n inputs: the inputs as columns of T, the
/// outputs set to the unset marker, then read back as each input's answer
/// (plugin_answer, as a single call's are).
template <class T>
void call_batch_entry(const Family& f, void* fn, const double* in, size_t n, FpControl env, Slot* out) {
    const size_t width = f.size(), outputs = f.outputs.size();
    std::vector<T> columns(width * n), results(std::max<size_t>(outputs, 1) * n, detail::unset_value<T>());
    std::vector<const T*> in_cols(width);
    std::vector<T*> out_cols(std::max<size_t>(outputs, 1));
    std::vector<int> ret(n, 0);
    for (size_t k = 0; k < width; ++k) {
        in_cols[k] = columns.data() + k * n;
        for (size_t i = 0; i < n; ++i) columns[k * n + i] = T(in[i * width + k]);
    }
    for (size_t j = 0; j < out_cols.size(); ++j) out_cols[j] = results.data() + j * n;
    using Batch = void (*)(int, const T* const*, int*, T* const*);
    reinterpret_cast<Batch>(fn)(int(n), in_cols.data(), ret.data(), outputs ? out_cols.data() : nullptr);
    const FpControl after = fp_control();
    if (after != env) set_fp_control(env);
    std::vector<T> one(outputs);
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < outputs; ++j) one[j] = results[j * n + i];
        out[i] = slot_of(detail::plugin_answer<T>(f, ret[i], one.data(), outputs), after);
    }
}
/// The same, in the precision of the request.
void call_batch_entry(const Family& f, Precision p, void* fn, const double* in, size_t n, FpControl env, Slot* out) {
    if (p == Precision::double_) call_batch_entry<double>(f, fn, in, n, env, out);
    else call_batch_entry<float>(f, fn, in, n, env, out);
}

/// A worker's functions: fns[2 i] family i's float function, fns[2 i + 1]
/// its double one (ABI 2 only); batches the same for the batch entries.
struct Loaded {
    std::vector<void*> fns, batches;
};

/// Answers one request: through the batch entry in one call when asked
/// and there is one, else input by input (the scalar function, or the
/// batch entry on one input), counting the answered inputs as it goes.
void answer(const Loaded& lib, const Request& r, FpControl env, PluginHost::Shared& shared) {
    const Family& f = *families()[r.family];
    const Precision p = r.precision ? Precision::double_ : Precision::single;
    const size_t slot = 2 * size_t(r.family) + r.precision;
    void* fn = lib.fns[slot];
    void* batch = lib.batches[slot];
    if (!fn && !batch) _exit(3);
    const size_t width = f.size();
    if (r.whole && batch) {
        call_batch_entry(f, p, batch, shared.in, r.count, env, shared.out);
        shared.answered.store(r.count, std::memory_order_release);
        return;
    }
    for (uint32_t i = 0; i < r.count; ++i) {
        const double* one = shared.in + size_t(i) * width;
        if (fn) {
            const Answer a = call_plugin(f, p, fn, one);
            // A kernel that changed the control state: said in the reply,
            // and the state set again for the next call.
            const FpControl after = fp_control();
            if (after != env) set_fp_control(env);
            shared.out[i] = slot_of(a, after);
        } else {
            call_batch_entry(f, p, batch, one, 1, env, shared.out + i);
        }
        shared.answered.store(i + 1, std::memory_order_release);
    }
}

[[noreturn]] void fail_handshake(int out, const std::string& why) {
    const uint8_t status = 1;
    write_all(out, &status, 1);
    write_string(out, why);
    _exit(0);
}

std::string signal_name(int sig) {
    const char* d = strsignal(sig);
    return std::string("signal ") + std::to_string(sig) + (d ? " (" + std::string(d) + ")" : "");
}

}  // namespace

int plugin_worker_main(int argc, char** argv) {
    // fd 3 brings requests, fd 4 takes replies, fd 5 is the shared memory.
    constexpr int in = 3, out = 4, shared_fd = 5;
    dup2(2, 1);  // a plugin's printf must not reach the report
    // A crash in the plugin must end the worker by its signal, also when
    // the program runs under a sanitizer that installed its own handlers.
    // A signal to the whole process group (Ctrl-C, a CI job cancelled) is
    // the checker's to handle: a worker it killed would look like a crash
    // of the input in hand. The worker ends when the checker does: a
    // watchdog thread waits for the checker's end of the request pipe to
    // close, even while the plugin hangs.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
        struct sigaction dfl = {};
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, nullptr);
    }
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_IGN);
    std::thread([] {
        pollfd hangup{in, 0, 0};  // no events asked: only the writer's end closing wakes it
        while (::poll(&hangup, 1, -1) < 0 && errno == EINTR) {
        }
        _exit(0);
    }).detach();
    if (argc < 4) fail_handshake(out, "the worker was started without a plugin");
    const std::string path = argv[2];
    std::optional<FpEnv> fp_env;
    if (std::string(argv[3]) != "-") {
        std::string why;
        fp_env = FpEnv::parse(argv[3], why);
    }
    void* map = mmap(nullptr, sizeof(PluginHost::Shared), PROT_READ | PROT_WRITE, MAP_SHARED, shared_fd, 0);
    if (map == MAP_FAILED) fail_handshake(out, std::string("cannot map the shared memory: ") + strerror(errno));
    auto& shared = *static_cast<PluginHost::Shared*>(map);

    const FpControl before = fp_control();
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    // What loading the plugin left (FTZ and DAZ from a -ffast-math build's
    // constructor), and what its kernels run in: that, or --fp-env.
    const FpControl loaded = fp_control();
    const FpControl env = fp_env ? fp_env->control() : loaded;
    set_fp_control(env);
    if (!lib) fail_handshake(out, std::string("cannot load: ") + dlerror());
    using Version = int (*)();
    auto version = reinterpret_cast<Version>(dlsym(lib, "isect_abi_version"));
    if (!version) fail_handshake(out, "exports no isect_abi_version(); is it an isect plugin? (core/isect/plugin.h)");
    const int v = version();
    if (!known_abi(v))
        fail_handshake(out, "isect_abi_version() returned " + std::to_string(v) + "; this isect speaks versions 1 and " +
                                std::to_string(ISECT_ABI_VERSION));
    const std::string name = plugin_name(lib, path);
    Loaded fns;
    std::vector<std::string> exported, batched;
    for (const Family* f : families())
        for (Precision p : {Precision::single, Precision::double_}) {
            const bool reachable = p == Precision::single || v >= 2;
            fns.fns.push_back(reachable ? dlsym(lib, symbol(*f, p).c_str()) : nullptr);
            fns.batches.push_back(reachable ? dlsym(lib, batch_symbol(*f, p).c_str()) : nullptr);
            if (fns.fns.back() || fns.batches.back()) exported.push_back(symbol(*f, p).substr(6));
            if (fns.batches.back()) batched.push_back(symbol(*f, p).substr(6));
        }
    if (exported.empty()) {
        std::string all;
        for (const Family* f : families()) all += (all.empty() ? "isect_" : ", isect_") + f->name;
        fail_handshake(out, "exports none of the family functions (" + all + ", or their _d forms)");
    }
    const uint8_t ok = 0;
    write_all(out, &ok, 1);
    write_string(out, name);
    for (const auto* list : {&exported, &batched}) {
        const uint32_t count = uint32_t(list->size());
        write_all(out, &count, 4);
        for (const std::string& e : *list) write_string(out, e);
    }
    double domain[3] = {0, 0, 0};  // lo, hi, and 1 when isect_domain() is exported
    if (auto declared = reinterpret_cast<void (*)(double*, double*)>(dlsym(lib, "isect_domain"))) {
        declared(&domain[0], &domain[1]);
        domain[2] = 1;
    }
    write_all(out, domain, sizeof domain);
    std::string requires_;
    if (auto declared = reinterpret_cast<const char* (*)()>(dlsym(lib, "isect_requires")))
        if (const char* r = declared()) requires_ = r;
    write_string(out, requires_);
    std::string conventions;
    if (auto declared = reinterpret_cast<const char* (*)()>(dlsym(lib, "isect_conventions")))
        if (const char* c = declared()) conventions = c;
    write_string(out, conventions);
    const uint64_t states[2] = {before.bits, loaded.bits};
    uint32_t round = shared.asked.load(std::memory_order_acquire);  // before the host can ask anything
    write_all(out, states, sizeof states);
    const auto asked = [&] { return shared.asked.load(std::memory_order_seq_cst) != round; };
    for (;;) {
        // The next request: watched for a while, then slept for (the host
        // writes a byte when it sees us asleep; the pipe's end is the
        // host's end, and ours).
        if (!spin_for(shared.spin_us.load(std::memory_order_relaxed), asked))
            for (;;) {
                shared.worker_asleep.store(1, std::memory_order_seq_cst);
                if (asked()) break;
                uint8_t wake = 0;
                if (!read_all(in, &wake, 1, -1, nullptr)) _exit(0);
                if (asked()) break;
            }
        shared.worker_asleep.store(0, std::memory_order_seq_cst);
        round = shared.asked.load(std::memory_order_acquire);
        const Request r = shared.request;
        if (r.family >= families().size() || r.precision > 1 || r.count > PluginHost::kBatch ||
            families()[r.family]->size() > kMaxInput)
            _exit(3);
        answer(fns, r, env, shared);
        shared.done.store(round, std::memory_order_seq_cst);
        if (shared.host_asleep.load(std::memory_order_seq_cst)) {
            const uint8_t wake = 1;
            if (!write_all(out, &wake, 1)) _exit(0);
        }
    }
}

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
    const std::string name = plugin_name(lib, path);
    FamilyKernel k{name, contract, error_e, [&f, p, fn](const double* in) { return call_plugin(f, p, fn, in); }};
    k.precision = p;
    out.kernel_env = fp_env ? fp_env->control() : out.after_load;
    out.watch = std::make_shared<FpWatch>();
    out.kernel = in_fp_env(std::move(k), out.kernel_env, out.watch);
    return out;
}

PluginHost::PluginHost(const std::string& path, int timeout_ms, const std::optional<FpEnv>& fp_env,
                       std::shared_ptr<FpWatch> watch, std::shared_ptr<PluginNotes> notes, std::string output_log)
    : path_(resolve_plugin_path(path)), timeout_ms_(timeout_ms), fp_env_(fp_env),
      watch_(watch ? std::move(watch) : std::make_shared<FpWatch>()),
      notes_(notes ? std::move(notes) : std::make_shared<PluginNotes>()), output_log_(std::move(output_log)) {
    std::signal(SIGPIPE, SIG_IGN);  // a dead worker must not take the checker with it
    if (access(path_.c_str(), R_OK) != 0) throw std::runtime_error(path + ": no such file (or not readable)");
    info_.path = path_;
    start();
    watch_->kernel_env = kernel_env_;  // here, not in start(): a restart runs beside other workers
}

PluginHost::~PluginHost() {
    stop();
    if (shared_) munmap(shared_, sizeof(Shared));
    if (shared_fd_ >= 0) close(shared_fd_);
}

void PluginHost::start() {
    if (!shared_) {
        // The shared memory outlives its workers: a fresh one maps it again.
        shared_fd_ = memfd_create("isect-plugin-batch", MFD_CLOEXEC);
        if (shared_fd_ < 0 || ftruncate(shared_fd_, sizeof(Shared)) != 0)
            throw std::runtime_error("shared memory for the plugin worker: " + std::string(strerror(errno)));
        void* map = mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED, shared_fd_, 0);
        if (map == MAP_FAILED) throw std::runtime_error("shared memory for the plugin worker: " + std::string(strerror(errno)));
        shared_ = new (map) Shared;
    }
    int down[2], up[2];
    if (pipe2(down, O_CLOEXEC) != 0) throw std::runtime_error("pipe: " + std::string(strerror(errno)));
    if (pipe2(up, O_CLOEXEC) != 0) {
        close(down[0]);
        close(down[1]);
        throw std::runtime_error("pipe: " + std::string(strerror(errno)));
    }
    // The worker is this program again, started afresh (posix_spawn, then
    // exec): a fork of a process whose other threads may hold a lock (the
    // allocator's, a sanitizer's) could hang, an exec cannot.
    // The child's ends are moved above 3, 4, 5 first: dup2 onto 3 must not
    // overwrite the one that goes to 5.
    int ends[3] = {down[0], up[1], shared_fd_};
    for (int& fd : ends) fd = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    for (int i = 0; i < 3; ++i) posix_spawn_file_actions_adddup2(&actions, ends[i], 3 + i);
    // What the plugin prints goes to the run's log, whole, not to the terminal.
    if (!output_log_.empty()) {
        posix_spawn_file_actions_addopen(&actions, 1, output_log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0666);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
    }
    const std::string env = fp_env_ ? fp_env_->str() : "-";
    // This program's file as its link names it (under valgrind the link is
    // the program's, the file behind /proc/self/exe valgrind's own); the
    // link itself if the file went away.
    std::error_code ec;
    std::string exe = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    if (ec || access(exe.c_str(), X_OK) != 0) exe = "/proc/self/exe";
    std::vector<char*> argv = {exe.data(), const_cast<char*>(kPluginWorkerArg), const_cast<char*>(path_.c_str()),
                               const_cast<char*>(env.c_str()), nullptr};
    std::fflush(nullptr);
    pid_t pid = -1;
    const int spawned = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    for (int fd : ends) close(fd);
    close(down[0]);
    close(up[1]);
    if (spawned != 0) {
        close(down[1]);
        close(up[0]);
        throw std::runtime_error("cannot start the plugin worker: " + std::string(strerror(spawned)));
    }
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
    const auto broken = [&] {
        stop();
        return std::runtime_error(path_ + ": broken worker handshake");
    };
    std::string name;
    if (!read_string(from_child_, name, 1000)) throw broken();
    std::vector<std::string> lists[2];
    for (std::vector<std::string>& list : lists) {
        uint32_t count = 0;
        if (!read_all(from_child_, &count, 4, 1000, nullptr)) throw broken();
        for (uint32_t i = 0; i < count; ++i) {
            std::string f;
            if (!read_string(from_child_, f, 1000)) throw broken();
            list.push_back(f);
        }
    }
    double domain[3] = {0, 0, 0};
    uint64_t states[2] = {0, 0};
    if (!read_all(from_child_, domain, sizeof domain, 1000, nullptr) || !read_string(from_child_, info_.requires_, 1000) ||
        !read_string(from_child_, info_.conventions, 1000) || !read_all(from_child_, states, sizeof states, 1000, nullptr))
        throw broken();
    info_.before_load = FpControl{states[0]};
    info_.after_load = FpControl{states[1]};
    kernel_env_ = fp_env_ ? fp_env_->control() : info_.after_load;
    if (domain[2] != 0) {  // exported: (0, 0) is no way to say "every float"
        if (!(domain[0] > 0) || !(domain[1] >= domain[0]) || !std::isfinite(domain[1])) {
            stop();
            throw std::runtime_error(path_ + ": isect_domain() declared [" + format_double(domain[0]) + ", " +
                                     format_double(domain[1]) + "]; it must be 0 < lo <= hi, finite (leave isect_domain() "
                                     "out to mean every finite number)");
        }
        Domain d;
        d.lo = domain[0];
        d.hi = domain[1];
        info_.domain = d;
    }
    info_.name = name;
    info_.families = lists[0];
    info_.batched = lists[1];
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

void PluginHost::send(const Family& f, Precision p, const double* in, size_t n, bool whole) {
    if (pid_ < 0) start();
    uint32_t index = 0;
    // By name: a declared family (conventions, slack) is a copy of the registry's.
    while (index < families().size() && families()[index]->name != f.name) ++index;
    std::memcpy(shared_->in, in, n * f.size() * sizeof(double));
    shared_->answered.store(0, std::memory_order_relaxed);
    shared_->request = Request{index, p == Precision::double_ ? 1u : 0u, uint32_t(n), whole ? 1u : 0u};
    round_ = shared_->asked.load(std::memory_order_relaxed) + 1;
    shared_->asked.store(round_, std::memory_order_seq_cst);
    // Woken only when asleep (a worker that died is found by its pipe's end).
    const uint8_t wake = 1;
    const bool written = !shared_->worker_asleep.load(std::memory_order_seq_cst) || write_all(to_child_, &wake, 1);
    sent_ = {&f, p, in, n, whole, written};
}

size_t PluginHost::receive(Outcome* out, bool& batch_failed) {
    const Sent q = sent_;
    // Wait while the worker answers; a timeout without progress is a hang
    // of the input in hand (of the whole batch entry's call, with whole).
    bool done = false, hang = false;
    long long interrupted_after = -1;
    const auto answered_all = [&] { return shared_->done.load(std::memory_order_seq_cst) == round_; };
    if (q.written && spin_for(spin_us_, answered_all)) {
        done = true;
    } else if (q.written) {
        // A hang: no progress for timeout_ms (none of a whole batch's call).
        // A signal to stop gives the call in hand one second more, then
        // keeps it as a hang: the run stops within a second, its hang kept.
        using Clock = std::chrono::steady_clock;
        const auto ms_since = [](Clock::time_point t) {
            return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
        };
        Clock::time_point progress = Clock::now();
        uint32_t seen = 0;
        for (;;) {
            shared_->host_asleep.store(1, std::memory_order_seq_cst);
            if (answered_all()) {
                done = true;
                break;
            }
            pollfd pfd{from_child_, POLLIN, 0};
            // Slices of 100 ms at most, so that a signal is seen in time.
            const long long left = timeout_ms_ - ms_since(progress);
            const int r = ::poll(&pfd, 1, int(std::clamp<long long>(left, 0, 100)));
            if (r < 0 && errno == EINTR) continue;
            if (r > 0) {
                char wake[64];  // a wake-up, or one left from a round that needed none
                const ssize_t got = ::read(from_child_, wake, sizeof wake);
                if (got <= 0 && !(got < 0 && errno == EINTR)) {
                    done = answered_all();  // the worker died, or answered and then died
                    break;
                }
                continue;
            }
            if (answered_all()) {
                done = true;
                break;
            }
            const uint32_t now = shared_->answered.load(std::memory_order_acquire);
            if (!q.whole && now != seen) {
                seen = now;
                progress = Clock::now();
            }
            if (ms_since(progress) >= timeout_ms_) {
                hang = true;
                break;
            }
            if (interrupted() && interrupted_for_ms() >= 1000) {
                hang = true;
                interrupted_after = ms_since(progress);
                break;
            }
        }
        shared_->host_asleep.store(0, std::memory_order_seq_cst);
    }
    const size_t answered = done ? q.n : std::min<size_t>(shared_->answered.load(std::memory_order_acquire), q.n);
    const size_t kept = q.whole && !done ? 0 : answered;
    for (size_t i = 0; i < kept; ++i) {
        const Slot& s = shared_->out[i];
        if (FpControl{s.after} != kernel_env_) watch_->changed(FpControl{s.after});
        if (s.count > Numbers::kCapacity) {
            out[i] = Outcome{Answer{-1, {}, 0}, FailureKind::crash, "crash: a malformed reply"};
            continue;
        }
        read_answer(s, out[i].answer);
        out[i].failure.reset();
        out[i].why.clear();
    }
    if (done) return q.n;
    // The worker died, hung or said something malformed: say which, and
    // start a fresh one for the next round trip.
    std::string why;
    FailureKind kind = FailureKind::crash;
    if (hang && interrupted_after >= 0) {
        why = "hang: no answer after " + std::to_string(interrupted_after) + " ms, when " + interrupt_name() +
              " stopped the run (the timeout was " + std::to_string(timeout_ms_) + " ms)";
        kind = FailureKind::hang;
        stop();
    } else if (hang) {
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
    if (q.whole) {  // which input it was, the caller finds input by input
        batch_failed = true;
        last_batch_hung_ = kind == FailureKind::hang;
        return 0;
    }
    out[kept] = Outcome{Answer{-1, {}, 0}, kind, why};
    return kept + 1;
}

void PluginHost::submit(const Family& f, Precision p, const double* in, size_t n) {
    if (pending_) drain();
    send(f, p, in, std::min(n, kBatch), info_.batches(f, p));
    pending_ = true;
}

size_t PluginHost::collect(Outcome* out) {
    if (!pending_) return 0;
    pending_ = false;
    const Sent q = sent_;
    const size_t width = q.f->size();
    size_t done = 0;
    for (;;) {
        bool batch_failed = false;
        size_t got = receive(out + done, batch_failed);
        if (batch_failed) {  // the batch entry crashed or hung: again input by input, to pin it
            const bool hung = last_batch_hung_;
            send(*q.f, q.p, q.in + done * width, q.n - done, false);
            got = receive(out + done, batch_failed);
            // Past the timeout as a batch, but no input hangs alone: slow, said.
            if (hung && got == q.n - done && out[done + got - 1].failure != FailureKind::hang) ++notes_->slow_batches;
        } else if (q.whole) {
            // An answer that is none of the family's is asked again alone
            // (n = 1, as replay asks it) before it is called a finding.
            for (size_t i = done; i < done + got; ++i) {
                const int a = out[i].answer.answer;
                if (out[i].failure || (a >= 0 && a < int(q.f->answers.size()))) continue;
                send(*q.f, q.p, q.in + i * width, 1, true);
                Outcome alone;
                bool failed = false;
                if (receive(&alone, failed) != 1 || failed) continue;
                const int b = alone.answer.answer;
                if (!alone.failure && b >= 0 && b < int(q.f->answers.size())) ++notes_->batch_garbage;
                out[i] = alone;
            }
        }
        done += got;
        // After a crash the rest go to a fresh worker; after a hang, none.
        if (done >= q.n || out[done - 1].failure == FailureKind::hang) return done;
        send(*q.f, q.p, q.in + done * width, q.n - done, q.whole);
    }
}

void PluginHost::drain() {
    std::vector<Outcome> ignored(sent_.n);
    collect(ignored.data());
}

void PluginHost::set_spin(uint32_t us) {
    spin_us_ = us;
    shared_->spin_us.store(us, std::memory_order_relaxed);
}

size_t PluginHost::call_batch(const Family& f, Precision p, const double* in, size_t n, Outcome* out) {
    size_t done = 0;
    while (done < n) {
        const size_t m = std::min(kBatch, n - done);
        submit(f, p, in + done * f.size(), m);
        const size_t got = collect(out + done);
        done += got;
        if (got < m) break;  // a hang
    }
    return done;
}

Answer PluginHost::call(const Family& f, Precision p, const double* in) {
    Outcome o;
    call_batch(f, p, in, 1, &o);
    if (o.failure) throw KernelFailure(*o.failure, o.why);
    return o.answer;
}

bool PluginInfo::exports(const Family& f, Precision p) const {
    return std::find(families.begin(), families.end(), symbol(f, p).substr(6)) != families.end();
}

bool PluginInfo::batches(const Family& f, Precision p) const {
    return std::find(batched.begin(), batched.end(), symbol(f, p).substr(6)) != batched.end();
}

/// A plugin's function as the engine's batches call it: submitted, then
/// collected while the judge works on the chunk before.
class PluginHost::Calls final : public BatchCalls {
public:
    Calls(PluginHost& host, const Family& f, Precision p) : host_(host), f_(f), p_(p) {}
    size_t capacity() const override { return PluginHost::kBatch; }
    void submit(const double* in, size_t n) override { host_.submit(f_, p_, in, n); }
    size_t collect(Outcome* out) override { return host_.collect(out); }

private:
    PluginHost& host_;
    const Family& f_;
    Precision p_;
};

FamilyKernel PluginHost::kernel(const Family& f, const Contract& contract, double error_e) {
    const Precision p = precision();
    FamilyKernel k{info_.name, contract, error_e, [this, &f, p](const double* in) { return call(f, p, in); }};
    k.precision = p;
    k.batch = std::make_shared<Calls>(*this, f, p);
    return k;
}

}  // namespace isect::check
