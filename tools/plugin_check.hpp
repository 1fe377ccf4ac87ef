// `isect check --plugin PATH`: a user's kernels, loaded in a child process,
// through every family they export, reported as text, Markdown (a CI job
// summary), JSON or JUnit XML (CI test reports).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace isect::tool {

struct PluginCheckArgs {
    std::string path;
    std::string family;                    ///< one family only; empty: every one exported
    std::string contract = "tolerant=1";
    double error_e = 16;                   ///< numbers within E 2^-24 S
    double seconds = 10;                   ///< per family
    uint64_t cases = 0;                    ///< per family, instead of seconds
    uint64_t seed = 0;
    bool seed_given = false;
    std::string out = "findings";
    std::string format = "text";           ///< text, markdown, json, junit
    int timeout_ms = 2000;                 ///< per call, before a hang is declared
    bool quiet = false;
};

/// Exit 0 when the contract holds for every family checked, 1 when it is
/// broken (a crash or a hang breaks it), 2 on a usage or loading error.
int run_plugin_check(const PluginCheckArgs& args);

/// `isect replay --plugin PATH [--contract C] [--expect-broken] CASES...`:
/// the plugin's kernel on each case of a family it exports. Exit 0 when it
/// keeps the contract on every case (with expect_broken: when it breaks it
/// on every case, as a corpus case that backs a verdict must), 1 otherwise,
/// 2 on unreadable files or a plugin that cannot be loaded.
int run_plugin_replay(const PluginCheckArgs& args, const std::vector<std::string>& paths, bool expect_broken);

}  // namespace isect::tool
