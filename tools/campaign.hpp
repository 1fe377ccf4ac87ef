// `isect fuzz` and `isect minimize`: libFuzzer campaigns in fork mode whose
// findings come out minimised, de-duplicated and written into the corpus.
#pragma once

#include <string>

namespace isect::tool {

struct FuzzArgs {
    std::string family = "aabb_triangle";
    std::string kernel;       ///< empty: the built-in kernels
    double minutes = 1;
    int jobs = 1;
    std::string target;       ///< the libFuzzer binary
    std::string seeds;        ///< seed corpus folder
    std::string dict;         ///< libFuzzer dictionary
    std::string corpus;       ///< where new cases go (corpus/<family>)
    std::string work;         ///< libFuzzer's own corpus and artifacts
    bool plain_mutator = false;
    std::string plugin;       ///< fuzz a plugin's isect_aabb_triangle instead
    std::string contract = "tolerant=1";  ///< the plugin's contract
};

/// Runs a campaign; returns the exit code (0 nothing new, 1 findings, 2 usage).
int run_fuzz(const FuzzArgs& args);

/// Minimises one case file for a kernel that breaks its contract on it;
/// writes the result to out (stdout when empty). Exit 0, 1 when nothing
/// fails on the case, 2 on an unreadable file.
int run_minimize(const std::string& path, const std::string& kernel, const std::string& out);

}  // namespace isect::tool
