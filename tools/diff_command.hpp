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

namespace isect::tool {

struct DiffArgs {
    std::string a, b;            ///< a plugin (a path: has a '/' or ends in .so), or a built-in kernel's name
    std::string family;          ///< one family; empty: every family both export
    std::string precision = "float";
    std::string domain;          ///< LO:HI; empty: every finite number
    std::string require;       ///< --require NAME,NAME: declared preconditions (preconditions.hpp)
    std::string relation;        ///< --relation NAME,NAME: relations each side is judged for (run.hpp's Relation)
    double seconds = 10;         ///< per family
    uint64_t cases = 0;          ///< per family, instead of seconds
    uint64_t seed = 0;
    bool seed_given = false;
    double tolerance = 0;        ///< numbers may differ by this many u max(|a|, |b|)
    std::string out = "findings";
    std::string format = "text"; ///< text, markdown, json or junit
    int timeout_ms = 2000;
    std::string fp_env;          ///< --fp-env: both kernels' floating-point environment
    size_t jobs = 0;             ///< workers; 0: the cores available
};

/// Exit 0 when the two agree on every input, 1 when they disagree
/// somewhere, 2 on a usage or loading error, no input judged or a witness
/// not saved; 128 + N after signal N.
/// Declares `isect diff` and its flags, into a.
CLI::App* add_diff_command(CLI::App& app, DiffArgs& a);

int run_diff(const DiffArgs& args);

}  // namespace isect::tool
