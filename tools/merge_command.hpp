// `isect merge`: the JSON reports of the shards of one check (isect check
// --shard I/N --format json) joined into the report the whole run would
// have given: counts added, failure classes joined with their best witness,
// one verdict, in any report format.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace isect::tool {

struct MergeArgs {
    std::vector<std::string> reports;
    std::string format = "text";  ///< text, markdown, json or junit
};

/// Exit as isect check would have: 0 every contract holds, 1 one is broken,
/// 2 a report cannot be read, the reports are not shards of one run, a
/// shard is missing or a shard had an error; 128 + N when a shard was
/// stopped by signal N.
/// Declares `isect merge` and its flags, into a.
CLI::App* add_merge_command(CLI::App& app, MergeArgs& a);

int run_merge(const MergeArgs& args);

}  // namespace isect::tool
