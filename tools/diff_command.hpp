// `isect diff A B`: two kernels of one family (two builds of one source, a
// plugin and a built-in kernel, a float kernel's two versions) on the same
// generated inputs: the engine judges the relation "A and B agree"
// (run.hpp's Relation) on the case stream isect check judges for the seed.
// Every input where their answers differ, or their numbers differ by more
// than --tolerance, breaks it; the references say which side is right. The
// violations are grouped in failure classes (what differs and the exact
// answer, the family's deciding test, the scale), each class's best member is
// minimised and written as a case, and the report is check's, in its formats.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "check/engine/kernels_under_test.hpp"
#include "options.hpp"

namespace isect::tool {

struct DiffArgs : RunArgs {
    std::string a, b;            ///< a plugin (a path: has a '/' or ends in .so), or a built-in kernel's name
    double tolerance = 0;        ///< numbers may differ by this many u max(|a|, |b|)
    check::SubjectArgs scope;    ///< both sides' environment, domain, preconditions, conventions, relations, mesh
};

/// Exit 0 when the two agree on every input, 1 when they disagree
/// somewhere, 2 on a usage or loading error, no input judged or a witness
/// not saved; 128 + N after signal N.
/// Declares `isect diff` and its flags, into a.
CLI::App* add_diff_command(CLI::App& app, DiffArgs& a);

int run_diff(const DiffArgs& args);

}  // namespace isect::tool
