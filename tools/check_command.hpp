// `isect check`: built-in kernels, or a plugin's (a shared library, in a
// child process), through the generators, both references and their
// contracts, family by family, on one engine and into one report.
#pragma once

#include <cstdint>
#include <string>

#include <optional>
#include <vector>

#include "isect/check/contract.hpp"
#include "isect/check/domain.hpp"
#include "isect/check/family.hpp"
#include "isect/check/fp_env.hpp"
#include "isect/check/plugin.hpp"

namespace isect::tool {

struct CheckArgs {
    double seconds = 10;       ///< per family
    uint64_t cases = 0;        ///< per family, instead of seconds
    uint64_t seed = 0;
    bool seed_given = false;
    std::string family;        ///< one family; empty: every one
    std::string kernel;        ///< one built-in kernel (or broken:NAME); empty: every built-in one
    std::string gen;           ///< one generator kind; empty: all
    std::string domain;        ///< LO:HI; empty: the plugin's isect_domain, else every finite float
    std::string require;       ///< --require NAME,NAME: declared preconditions (preconditions.hpp)
    std::string out = "findings";
    std::string format = "text";
    bool quiet = false;
    bool stop_at_first = false;
    bool map = false;          ///< validity map tables and pictures (always for plugins)
    std::string oracle = "fast";  ///< fast: the fast oracles first; slow: the references alone
    std::string precision = "float";  ///< float or double: the inputs and the kernels' scalar
    // A plugin instead of the built-in kernels:
    std::string plugin;
    std::string contract = "tolerant=1";
    bool contract_given = false;  ///< with --kernel: hold a built-in kernel to its own or a stricter contract
    std::string fp_env;        ///< --fp-env: the kernels' floating-point environment; empty: as loaded (default)
    std::string replay;        ///< --replay DIR: the user's own cases, judged first
    double error_e = 16;
    int timeout_ms = 2000;
    std::string source_dir;    ///< where tools/validity_map.py lives
};

/// Exit 0 when every contract checked holds, 1 when one is broken (or the
/// references disagree), 2 on a usage or loading error, a run that judged
/// nothing, or a finding or map that could not be saved; 128 + N when
/// signal N interrupted it (the report and the findings are kept).
int run_check(const CheckArgs& args);

/// Sets the run's precision from --precision's text ("float" or "double");
/// prints the error and returns false when it is neither.
bool set_precision_arg(const std::string& command, const std::string& text);

/// Parses --domain's text, or the plugin's declaration; prints the error
/// and returns false when it is not a domain.
bool parse_domain_arg(const std::string& command, const std::string& text, check::Domain& out);

/// Parses --require's names into out.required; prints the error and
/// returns false for a name no family has.
bool parse_require_arg(const std::string& command, const std::string& text, check::Domain& out);

/// What a plugin declares of itself (isect_domain(), isect_requires()),
/// where the command line did not say: into out. Prints the error and
/// returns false for a declaration that is not one.
bool take_plugin_declarations(const std::string& command, const check::PluginInfo& p, bool domain_given,
                              bool require_given, check::Domain& out);

/// Parses --fp-env (empty: none asked for); prints the error and sets ok
/// false when it is not an environment.
std::optional<check::FpEnv> parse_fp_env_arg(const std::string& command, const std::string& text, bool& ok);

/// A built-in kernel under --contract: its own contract, or a stricter one
/// it is then held to (exact over anything, a smaller tolerant K); nullopt,
/// with the error printed, for a looser or another kind.
std::optional<check::FamilyKernel> held_to(const check::FamilyKernel& k, const std::optional<check::Contract>& contract,
                                           const std::string& command);

/// The report's line for the kernels' floating-point environment: asked for
/// with --fp-env, left by a plugin's loading, or the default; and any
/// change a kernel made to it.
std::string kernel_env_line(const std::optional<check::FpEnv>& requested, const check::PluginHost* host,
                            const check::FpWatch* watch);

}  // namespace isect::tool
