#include "check/io/plugin_host.hpp"

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
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "check/io/child.hpp"
#include "check/io/plugin_abi.hpp"
#include "check/io/fp_env.hpp"
#include "check/io/interrupt.hpp"
#include "isect/plugin.h"

namespace isect::check {

using namespace plugin_abi;

static_assert(PluginHost::kBatch == ISECT_BATCH_MAX, "the host never calls a batch entry with more than plugin.h promises");

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
    Opened opened;
    const std::string why = open_plugin(path, opened);
    out.after_load = fp_control();
    set_fp_control(out.before_load);
    if (!why.empty()) throw std::runtime_error(path + ": " + why);
    const Precision p = precision();
    void* fn = p == Precision::double_ && opened.abi < 2 ? nullptr : dlsym(opened.lib, symbol(f, p).c_str());
    if (!fn) throw std::runtime_error(path + " does not export " + symbol(f, p));
    const std::string& name = opened.name;
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
    // The worker is this program again, started afresh (child.hpp: never a
    // fork). What the plugin prints goes to the run's log, whole, not to
    // the terminal.
    ChildSpec spec;
    spec.argv = {this_program().string(), kPluginWorkerArg, path_, fp_env_ ? fp_env_->str() : "-"};
    spec.fds = {{down[0], 3}, {up[1], 4}, {shared_fd_, 5}};
    spec.output_file = output_log_;
    std::string why;
    const pid_t pid = start_child(spec, why);
    close(down[0]);
    close(up[1]);
    if (pid < 0) {
        close(down[1]);
        close(up[0]);
        throw std::runtime_error("the plugin worker: " + why);
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
        std::string refused;
        read_string(from_child_, refused, 1000);
        stop();
        throw std::runtime_error(path_ + ": " + refused);
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
        !read_string(from_child_, info_.conventions, 1000) || !read_string(from_child_, info_.relations, 1000) ||
        !read_all(from_child_, states, sizeof states, 1000, nullptr))
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

PluginHost::Waited PluginHost::wait_for_answers(const Sent& q) {
    // Wait while the worker answers; a timeout without progress is a hang
    // of the input in hand (of the whole batch entry's call, with whole).
    Waited w;
    bool& done = w.done;
    bool& hang = w.hang;
    long long& interrupted_after = w.interrupted_after;
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
    return w;
}

std::pair<FailureKind, std::string> PluginHost::end_failed_round(const Waited& w) {
    const bool hang = w.hang;
    const long long interrupted_after = w.interrupted_after;
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
    return {kind, why};
}

size_t PluginHost::receive(Outcome* out, bool& batch_failed) {
    const Sent q = sent_;
    const Waited w = wait_for_answers(q);
    const bool done = w.done;
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
    const auto [kind, why] = end_failed_round(w);
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
