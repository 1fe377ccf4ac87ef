// Running a user's kernels from a plugin (core/isect/plugin.h) in a child
// process: the worker is this program started again (plugin_worker_main),
// which loads the plugin with dlopen. A batch of inputs travels through
// memory the two share, with one message over a pipe each way; the worker
// counts the inputs it has answered as it goes, so a crash or a hang past
// the timeout is pinned on the input in hand, the answers before it are
// kept and a fresh worker takes the rest. The checker itself never runs
// plugin code.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "check/model/family.hpp"
#include "check/io/fp_env.hpp"

namespace isect::check {

/// What a plugin exports, as its worker reported it.
struct PluginInfo {
    std::string path;
    std::string name;                   ///< isect_kernel_name(), or the file name
    /// The family functions it exports, as named less "isect_": FAMILY for
    /// a float function, FAMILY_d for a double one (ABI 2).
    std::vector<std::string> families;
    /// Those that have a batch entry too (isect_FAMILY_batch, _batch_d),
    /// named as in families.
    std::vector<std::string> batched;
    std::optional<Domain> domain;       ///< what isect_domain() declares, if exported
    /// What isect_requires() declares ("nonzero_direction,proper_triangle"),
    /// if exported; empty when not.
    std::string requires_;
    /// What isect_conventions() declares ("surface,cull_back"), if exported.
    std::string conventions;
    /// What isect_relations() claims ("symmetric,watertight"), if exported.
    std::string relations;
    /// The floating-point control state before and after loading it (a
    /// -ffast-math build sets FTZ and DAZ as it loads).
    FpControl before_load, after_load;
    /// Whether it exports family f's function of precision p.
    bool exports(const Family& f, Precision p) const;
    /// Whether it exports a batch entry for them.
    bool batches(const Family& f, Precision p) const;
};

/// The first argument that starts a program as a plugin worker. A program
/// that runs PluginHost calls plugin_worker_main first thing in main when
/// argv[1] is this (the isect command does).
inline constexpr const char* kPluginWorkerArg = "--isect-plugin-worker";

/// A plugin worker's life: loads the plugin named on its command line,
/// answers batches until its pipe closes. Returns the exit status.
int plugin_worker_main(int argc, char** argv);

/// A plugin's function for family f, loaded into this process (for the
/// fuzz targets, where a crash must be libFuzzer's to keep), and the
/// floating-point environment it runs in.
struct InProcessPlugin {
    FamilyKernel kernel;  ///< each call in kernel_env, the judge's state restored after
    FpControl before_load, after_load, kernel_env;
    std::shared_ptr<FpWatch> watch;  ///< calls that changed the state
};

/// Loads the plugin at path and takes its function of the run's precision
/// (isect_FAMILY or isect_FAMILY_d). Its calls run in fp_env when given,
/// else in the state loading it left. Throws std::runtime_error when the
/// plugin cannot be loaded, is not ABI version 1 or 2, or does not export
/// that function.
InProcessPlugin plugin_kernel_in_process(const std::string& path, const Family& f, const Contract& contract,
                                         double error_e, const std::optional<FpEnv>& fp_env);

/// A plugin path as dlopen must see it: a bare file name that exists here
/// is this folder's file, never a search of the library path.
std::string resolve_plugin_path(const std::string& path);

/// What a plugin's workers met that is no finding but that its user must
/// hear of (a run's workers share one): batch calls past the timeout in
/// which no input hung alone, and inputs a batch entry answered with none
/// of the family's answers but answers properly alone (n = 1).
struct PluginNotes {
    std::atomic<uint64_t> slow_batches{0}, batch_garbage{0};
};

class PluginHost {
public:
    /// Loads the plugin in a worker and reads what it exports. Throws
    /// std::runtime_error with a message for a person when it cannot: no
    /// such file, not a shared library, no isect_abi_version, a version
    /// other than 1 or 2, no family function at all.
    /// Its calls that change the floating-point state are counted into
    /// `watch` (a run's workers share one).
    /// What the plugin prints (its worker's stdout and stderr) is appended
    /// to `output_log` where one is given (the run's workers share it),
    /// else it goes to this program's stderr.
    PluginHost(const std::string& path, int timeout_ms, const std::optional<FpEnv>& fp_env = std::nullopt,
               std::shared_ptr<FpWatch> watch = nullptr, std::shared_ptr<PluginNotes> notes = nullptr,
               std::string output_log = "");
    ~PluginHost();
    PluginHost(const PluginHost&) = delete;
    PluginHost& operator=(const PluginHost&) = delete;

    const PluginInfo& info() const { return info_; }
    /// The floating-point state its kernels run in (--fp-env, or what
    /// loading left), and the calls that changed it.
    FpControl kernel_env() const { return kernel_env_; }
    int timeout_ms() const { return timeout_ms_; }

    /// Calls the family's function of precision p on one input. Throws
    /// KernelFailure when the worker crashes, hangs or replies with
    /// something malformed.
    Answer call(const Family& f, Precision p, const double* in);

    /// Calls it on n inputs (one after another, each of f's size) in as
    /// few round trips as the shared memory holds: through the plugin's
    /// batch entry where it has one, else input by input in the worker.
    /// out[i] is input i's outcome; a crash or a hang is the outcome of the
    /// input it happened on (found again input by input when a batch
    /// entry crashed), and the inputs after it go to a fresh worker. Stops
    /// after the first hang (each costs the timeout): returns how many
    /// outcomes it wrote.
    size_t call_batch(const Family& f, Precision p, const double* in, size_t n, Outcome* out);
    /// call_batch in two halves, for at most kBatch inputs: submit sends
    /// them and returns at once (the worker computes while the caller
    /// works; `in` must stay as it is until collect), collect waits and
    /// writes the outcomes. A call or submit while one is pending waits
    /// for it first.
    void submit(const Family& f, Precision p, const double* in, size_t n);
    size_t collect(Outcome* out);

    /// A kernel for the engine that calls this plugin's function of the
    /// run's precision under `contract`, alone or in batches.
    FamilyKernel kernel(const Family& f, const Contract& contract, double error_e);

    /// How long host and worker watch for each other before they sleep
    /// (0, the default: they sleep at once). Where a core is spare for the
    /// worker, a watch saves the wake-up that would delay each chunk.
    void set_spin(uint32_t microseconds);

    /// The most inputs one round trip carries: ISECT_BATCH_MAX, the most a
    /// batch entry is ever called with (isect/plugin.h).
    static constexpr size_t kBatch = 1024;
    /// The memory a host and its worker share (plugin_host.cpp).
    struct Shared;

private:
    void start();
    void stop();
    /// One round trip's request: inputs [0, n) of `in` (n <= kBatch),
    /// through the batch entry when whole is set, else input by input.
    void send(const Family& f, Precision p, const double* in, size_t n, bool whole);
    /// Its reply: how many inputs have outcomes in out (all n, or up to
    /// and including the one that failed); sets batch_failed when the batch
    /// entry failed, with no outcome written.
    size_t receive(Outcome* out, bool& batch_failed);
    /// Waits for a pending submit and drops its outcomes.
    void drain();
    class Calls;
    struct Sent {
        const Family* f = nullptr;
        Precision p = Precision::single;
        const double* in = nullptr;
        size_t n = 0;
        bool whole = false, written = false;
    };
    /// How a round trip's wait ended: every input answered, or a hang (the
    /// run's stop cut it short interrupted_after ms after the last progress).
    struct Waited {
        bool done = false, hang = false;
        long long interrupted_after = -1;
    };
    Waited wait_for_answers(const Sent& q);
    /// A round trip that did not end in answers: the worker stopped (a hang)
    /// or reaped (a crash), and what the input in hand did.
    std::pair<FailureKind, std::string> end_failed_round(const Waited& w);
    Sent sent_;
    bool pending_ = false;  ///< a submit not yet collected
    uint32_t round_ = 0;    ///< the round trip in hand (Shared::asked)
    uint32_t spin_us_ = 0;
    std::string path_;
    int timeout_ms_;
    std::optional<FpEnv> fp_env_;
    FpControl kernel_env_;
    std::shared_ptr<FpWatch> watch_;
    std::shared_ptr<PluginNotes> notes_;
    std::string output_log_;
    bool last_batch_hung_ = false;  ///< receive's last whole-batch failure was a hang
    PluginInfo info_;
    int pid_ = -1, to_child_ = -1, from_child_ = -1;
    Shared* shared_ = nullptr;  ///< the memory the worker shares, mapped while it lives
    int shared_fd_ = -1;
};

}  // namespace isect::check
