// `isect report CASE`: a finding a maintainer can act on. Judges one case
// file against a kernel (a plugin, as replay does) and writes two files:
// a standalone reproducer, a C++ file that inlines the kernel's own source
// (--source: a plugin's, or a wrapper around a library, which then needs
// nothing but the library) and calls it on the case's input written as
// hexfloats, printing its answer beside the exact one; and an issue body
// in markdown: the input, the exact answer and the test that decides it,
// the kernel's answer, the contract and how far outside its band, and,
// from the check's JSON report (--from), the size and shape of the class.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "check/engine/kernels_under_test.hpp"

namespace isect::tool {

struct ReportArgs {
    std::string case_file;
    check::SubjectArgs subject;               ///< the kernel: a plugin (or a built-in one)
    std::vector<std::string> sources;  ///< the kernel's source files, inlined into the reproducer in order
    std::vector<std::string> defines;  ///< NAME or NAME=VALUE, defined before them
    std::string build;                 ///< how to build the reproducer, for its header ("-lode")
    std::string from;                  ///< the check's JSON report whose class this case is the witness of
    std::string title;                 ///< what is called ("ODE 0.16, dCollide(box, box)"); default: the kernel's name
    std::string out = ".";             ///< where the two files go
};

/// Exit 0 when the kernel breaks its contract on the case and both files
/// are written (their paths on stdout); 1 when it keeps it (nothing to
/// report); 2 on a usage error, an unreadable case or a file not written.
/// Declares `isect report` and its flags, into a.
CLI::App* add_report_command(CLI::App& app, ReportArgs& a);

int run_report(const ReportArgs& args);

}  // namespace isect::tool
