// Running a user's kernels from a plugin (core/include/isect/plugin.h) in a
// child process: the plugin is loaded with dlopen in a forked worker, and
// each call travels over a pipe. A crash, a hang past the timeout or a
// broken reply becomes a KernelFailure for that input; the next call starts
// a fresh worker. The checker itself never runs plugin code.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "isect/check/model/family.hpp"
#include "isect/check/io/fp_env.hpp"

namespace isect::check {

/// What a plugin exports, as its worker reported it.
struct PluginInfo {
    std::string path;
    std::string name;                   ///< isect_kernel_name(), or the file name
    /// The family functions it exports, as named less "isect_": FAMILY for
    /// a float function, FAMILY_d for a double one (ABI 2).
    std::vector<std::string> families;
    std::optional<Domain> domain;       ///< what isect_domain() declares, if exported
    /// What isect_requires() declares ("nonzero_direction,proper_triangle"),
    /// if exported; empty when not.
    std::string requires_;
    /// The floating-point control state before and after loading it (a
    /// -ffast-math build sets FTZ and DAZ as it loads).
    FpControl before_load, after_load;
    /// Whether it exports family f's function of precision p.
    bool exports(const Family& f, Precision p) const;
};

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

class PluginHost {
public:
    /// Loads the plugin in a worker and reads what it exports. Throws
    /// std::runtime_error with a message for a person when it cannot: no
    /// such file, not a shared library, no isect_abi_version, a version
    /// other than 1 or 2, no family function at all.
    PluginHost(const std::string& path, int timeout_ms, const std::optional<FpEnv>& fp_env = std::nullopt);
    ~PluginHost();
    PluginHost(const PluginHost&) = delete;
    PluginHost& operator=(const PluginHost&) = delete;

    const PluginInfo& info() const { return info_; }
    /// The floating-point state its kernels run in (--fp-env, or what
    /// loading left), and the calls that changed it.
    FpControl kernel_env() const { return kernel_env_; }
    const FpWatch& fp_watch() const { return *watch_; }

    /// Calls the family's function of precision p on one input. Throws
    /// KernelFailure when the worker crashes, hangs or replies with
    /// something malformed.
    Answer call(const Family& f, Precision p, const double* in);

    /// A kernel for the engine that calls this plugin's function of the
    /// run's precision under `contract`.
    FamilyKernel kernel(const Family& f, const Contract& contract, double error_e);

private:
    void start();
    void stop();
    std::string path_;
    int timeout_ms_;
    std::optional<FpEnv> fp_env_;
    FpControl kernel_env_;
    std::shared_ptr<FpWatch> watch_ = std::make_shared<FpWatch>();
    PluginInfo info_;
    int pid_ = -1, to_child_ = -1, from_child_ = -1;
};

}  // namespace isect::check
