// The plugin worker: this program started again by the plugin host with
// the plugin's path, answering the host's round trips from the shared
// memory, so that a crash or a hang of the plugin ends this process only.
#include <cerrno>
#include <csignal>
#include <cstring>
#include <dlfcn.h>
#include <poll.h>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

#include "check/io/plugin_abi.hpp"
#include "check/model/plugin_call.hpp"

namespace isect::check {

using namespace plugin_abi;

namespace {

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

/// The handshake's reply: the plugin's functions (every family, float and,
/// from ABI 2, double; batch entries beside them), its name, what it
/// exports and batches, and what it declares of itself (isect_domain,
/// isect_requires, isect_conventions, isect_relations). A plugin that exports no family
/// function ends the handshake with why.
Loaded reply_to_handshake(int out, const Opened& opened) {
    void* lib = opened.lib;
    Loaded fns;
    std::vector<std::string> exported, batched;
    for (const Family* f : families())
        for (Precision p : {Precision::single, Precision::double_}) {
            const bool reachable = p == Precision::single || opened.abi >= 2;
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
    write_string(out, opened.name);
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
    for (const char* says : {"isect_requires", "isect_conventions", "isect_relations"}) {
        std::string text;
        if (auto declared = reinterpret_cast<const char* (*)()>(dlsym(lib, says)))
            if (const char* t = declared()) text = t;
        write_string(out, text);
    }
    return fns;
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
    Opened opened;
    const std::string why = open_plugin(path, opened);
    // What loading the plugin left (FTZ and DAZ from a -ffast-math build's
    // constructor), and what its kernels run in: that, or --fp-env.
    const FpControl loaded = fp_control();
    const FpControl env = fp_env ? fp_env->control() : loaded;
    set_fp_control(env);
    if (!why.empty()) fail_handshake(out, why);
    const Loaded fns = reply_to_handshake(out, opened);
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

}  // namespace isect::check
