// `isect fuzz` and `isect minimize`: libFuzzer campaigns in fork mode, one
// per family, whose findings come out minimised, de-duplicated by failure
// class and written into the corpus.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "check/engine/kernels_under_test.hpp"

namespace isect::tool {

struct FuzzArgs {
    std::string family;       ///< empty: every family (with the kernel, or the plugin's)
    double minutes = 1;       ///< per family
    int jobs = 1;
    std::string corpus;       ///< where new cases go (default ./corpus/FAMILY, or ./findings for a plugin)
    /// Where a campaign works (its pools, logs, inputs kept as bytes):
    /// default ./isect-fuzz, or the user's cache folder when the current
    /// folder is isect's source or install tree (never those).
    std::string work;
    bool plain_mutator = false;
    check::SubjectArgs subject;      ///< a plugin's functions, a kernel, or the built-in ones; their scope and environment
    std::string fuzz_dir;     ///< where the fuzz_FAMILY binaries are
    std::string source_dir;   ///< seeds, dictionary, corpus
    std::string format = "text";  ///< text, markdown, json or junit (tools/report.hpp)
    std::string precision = "float";  ///< float or double: the inputs and the kernels' scalar
};

/// Runs the campaigns; returns the exit code (0 nothing new, 1 findings, 2
/// usage or a campaign that ran nothing, 128 + N after signal N).
/// Declares `isect fuzz` and its flags, into a.
CLI::App* add_fuzz_command(CLI::App& app, FuzzArgs& a);

/// What `isect minimize` takes.
struct MinimizeArgs {
    std::string path, out;
    check::SubjectArgs subject;
};
/// Declares `isect minimize` and its flags, into a.
CLI::App* add_minimize_command(CLI::App& app, MinimizeArgs& a);

int run_fuzz(const FuzzArgs& args);

/// Minimises one case file for a kernel that breaks its contract on it
/// (built in, or a plugin's: subject says which, and its scope), keeping its
/// failure class; writes the result to out (stdout when empty). Exit 0, 1
/// when nothing fails on the case, 2 on an unreadable file.
int run_minimize(const std::string& path, const check::SubjectArgs& subject, const std::string& out);

}  // namespace isect::tool
