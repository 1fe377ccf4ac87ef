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
#include "options.hpp"

namespace isect::tool {

struct CheckArgs : RunArgs {
    bool quiet = false;
    bool stop_at_first = false;
    bool map = false;          ///< validity map tables and pictures (always for plugins)
    std::string oracle = "fast";  ///< fast: the fast oracles first; slow: the references alone
    check::SubjectArgs subject;       ///< the kernels judged (a plugin, a kernel, every built-in), their scope and environment
    std::string replay;        ///< --replay DIR: the user's own cases, judged first
    std::string source_dir;    ///< where tools/validity_map.py lives
};

/// Exit 0 when every contract checked holds, 1 when one is broken (or the
/// references disagree), 2 on a usage or loading error, a run that judged
/// nothing, or a finding or map that could not be saved; 128 + N when
/// signal N interrupted it (the report and the findings are kept).
/// Declares `isect check` and its flags, into a.
CLI::App* add_check_command(CLI::App& app, CheckArgs& a);

int run_check(const CheckArgs& args);

}  // namespace isect::tool
