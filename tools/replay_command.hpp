// `isect replay`: case files through the references (they must reproduce
// expect) and through kernels (they must keep their contracts): the
// built-in kernels, one named with --kernel (a planted bug too), or a
// plugin's.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "check/engine/kernels_under_test.hpp"

namespace isect::tool {

struct ReplayArgs {
    std::vector<std::string> paths;
    bool verbose = false;         ///< every case, and each kernel's answer on it
    check::SubjectArgs subject;          ///< the kernels (a plugin, a kernel, every built-in), their scope and environment
    bool expect_broken = false;   ///< every case must break the contract (--kernel or --plugin)
    bool strict = false;          ///< a number that is not a float is an error, not a warning
    std::string format = "text";  ///< text, markdown, json or junit (tools/report.hpp)
    size_t jobs = 0;              ///< workers judging the files; 0: the cores available
};

/// Exit 0 when every case replays as it should, 1 when one does not, 2 when
/// a file cannot be read, no case was found, or the kernel or plugin cannot
/// be had; 128 + N when signal N interrupted it.
/// Declares `isect replay` and its flags, into a.
CLI::App* add_replay_command(CLI::App& app, ReplayArgs& a);

int run_replay(const ReplayArgs& args);

/// `isect promote FILE...`: moves findings into the corpus, as
/// CORPUS/FAMILY/NAME.case, after checking that the references reproduce
/// each file's expect. Exit 0 when every file moved, 2 when one could not
/// (unreadable, a wrong expect, or a case of that name already there).
int run_promote(const std::vector<std::string>& files, const std::string& corpus);

}  // namespace isect::tool
