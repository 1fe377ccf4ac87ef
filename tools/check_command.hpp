// `isect check`: built-in kernels, or a plugin's (a shared library, in a
// child process), through the generators, both references and their
// contracts, family by family, on one engine and into one report.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include <optional>
#include <vector>

#include "check/model/contract.hpp"
#include "check/model/domain.hpp"
#include "check/model/family.hpp"
#include "check/io/fp_env.hpp"
#include "check/io/plugin_host.hpp"
#include "check/engine/kernels_under_test.hpp"

namespace isect::tool {

struct CheckArgs {
    double seconds = 10;       ///< per family
    uint64_t cases = 0;        ///< per family, instead of seconds
    uint64_t seed = 0;
    bool seed_given = false;
    std::string family;        ///< one family; empty: every one
    std::string gen;           ///< one generator kind; empty: all
    std::string out = "findings";
    std::string format = "text";
    bool quiet = false;
    bool stop_at_first = false;
    bool map = false;          ///< validity map tables and pictures (always for plugins)
    std::string oracle = "fast";  ///< fast: the fast oracles first; slow: the references alone
    std::string precision = "float";  ///< float or double: the inputs and the kernels' scalar
    check::SubjectArgs subject;       ///< the kernels judged (a plugin, a kernel, every built-in), their scope and environment
    std::string replay;        ///< --replay DIR: the user's own cases, judged first
    std::string source_dir;    ///< where tools/validity_map.py lives
    size_t jobs = 0;           ///< workers; 0: the cores available
    std::string shard;         ///< --shard I/N: this run's part of the case stream; empty: all of it
};

/// Exit 0 when every contract checked holds, 1 when one is broken (or the
/// references disagree), 2 on a usage or loading error, a run that judged
/// nothing, or a finding or map that could not be saved; 128 + N when
/// signal N interrupted it (the report and the findings are kept).
/// Declares `isect check` and its flags, into a.
CLI::App* add_check_command(CLI::App& app, CheckArgs& a);

int run_check(const CheckArgs& args);

/// Sets the run's precision from --precision's text ("float" or "double");
/// prints the error and returns false when it is neither.
bool set_precision_arg(const std::string& command, const std::string& text);

}  // namespace isect::tool
