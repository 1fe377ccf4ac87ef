#include "merge_command.hpp"

#include "options.hpp"

#include <algorithm>
#include <csignal>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "check/engine/run.hpp"
#include "report.hpp"

namespace isect::tool {

namespace {

/// What every shard of one run shares; the first report that differs is
/// not a shard of the same run.
std::string run_identity(const RunInfo& r) {
    std::ostringstream s;
    s << "isect " << r.command << ", subject " << r.subject << ", plugin " << (r.plugin_path.empty() ? "none" : r.plugin_path) << ", contract "
      << (r.contract ? r.contract->str() : "the kernels' own") << ", seed " << r.seed << ", cases "
      << (r.max_cases ? std::to_string(r.max_cases) : "by time") << ", " << r.shard.count << " shards, domain "
      << r.domain.lo << ":" << r.domain.hi;
    if (r.command == "diff") s << ", tolerance " << r.tolerance;
    for (const std::string& n : r.domain.required) s << " " << n;
    return s.str();
}

int signal_number(const std::string& name) {
    if (name == "SIGINT") return SIGINT;
    if (name == "SIGTERM") return SIGTERM;
    if (name == "SIGHUP") return SIGHUP;
    return SIGINT;
}

/// Adds a shard's family into the merged one.
void merge_family(FamilyResult& into, const FamilyResult& from) {
    if (from.report.reference_mismatches &&
        (!into.report.reference_mismatches || from.report.mismatch_case < into.report.mismatch_case))
        into.mismatch_path = from.mismatch_path;
    check::merge_reports(*into.family, into.report, from.report);
    // Every shard replays the same findings database and case folders.
    for (const ReplayedFinding& p : from.replayed)
        if (std::none_of(into.replayed.begin(), into.replayed.end(),
                         [&](const ReplayedFinding& q) { return q.path == p.path && q.kernel == p.kernel; }))
            into.replayed.push_back(p);
    for (const CaseProblem& p : from.problems)
        if (std::none_of(into.problems.begin(), into.problems.end(),
                         [&](const CaseProblem& q) { return q.path == p.path && q.why == p.why; }))
            into.problems.push_back(p);
}

}  // namespace

int run_merge(const MergeArgs& args) {
    if (!known_format(args.format)) {
        std::cerr << "isect merge: --format '" << args.format << "' is not text, markdown, json or junit\n";
        return 2;
    }
    RunInfo merged;
    std::vector<FamilyResult> results;
    std::string identity;
    std::set<uint64_t> shards;
    for (const std::string& path : args.reports) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        if (!in) {
            std::cerr << "isect merge: " << path << ": cannot read it\n";
            return 2;
        }
        RunInfo info;
        std::vector<FamilyResult> families;
        if (const std::string why = read_json_report(text.str(), info, families); !why.empty()) {
            std::cerr << "isect merge: " << path << ": not a JSON report of isect check or diff (" << why << ")\n";
            return 2;
        }
        for (const FamilyResult& f : families) check::set_precision(f.precision);
        if (identity.empty()) {
            identity = run_identity(info);
            merged = info;
            merged.merged.clear();
            merged.jobs = 0;
        } else if (run_identity(info) != identity) {
            std::cerr << "isect merge: " << path << " is not a shard of the run of " << args.reports.front() << ": it was "
                      << run_identity(info) << "; the first was " << identity << "\n";
            return 2;
        }
        if (!shards.insert(info.shard.index).second) {
            std::cerr << "isect merge: " << path << ": shard " << info.shard.str() << " is there twice\n";
            return 2;
        }
        merged.merged.push_back(info.shard.str());
        merged.jobs += info.jobs;
        merged.show_maps = merged.show_maps || info.show_maps;
        if (merged.interrupted.empty()) merged.interrupted = info.interrupted;
        for (const CaseProblem& e : info.errors)
            if (std::none_of(merged.errors.begin(), merged.errors.end(),
                             [&](const CaseProblem& q) { return q.path == e.path && q.why == e.why; }))
                merged.errors.push_back(e);
        for (FamilyResult& f : families) {
            auto at = std::find_if(results.begin(), results.end(), [&](const FamilyResult& r) {
                return r.family == f.family && r.precision == f.precision;
            });
            if (at == results.end()) results.push_back(std::move(f));
            else merge_family(*at, f);
        }
    }
    // A run is judged whole: a missing shard is cases nobody judged.
    for (uint64_t i = 0; i < merged.shard.count; ++i)
        if (!shards.count(i))
            merged.errors.push_back({"shard " + std::to_string(i) + "/" + std::to_string(merged.shard.count),
                                     "shard " + std::to_string(i) + "/" + std::to_string(merged.shard.count) +
                                         " is missing: its cases were not judged"});
    merged.shard = {};
    const auto order = [](const FamilyResult& r) {
        const auto& all = check::families();
        return std::find(all.begin(), all.end(), r.family) - all.begin();
    };
    std::stable_sort(results.begin(), results.end(),
                     [&](const FamilyResult& a, const FamilyResult& b) { return order(a) < order(b); });
    for (FamilyResult& r : results)
        for (check::FamilyKernelReport& k : r.report.kernels) {
            check::settle_classes(k.classes);
            k.map_picture.clear();  // a shard's picture shows a shard's cases
        }
    for (FamilyResult& r : results)
        for (check::RelationReport& rel : r.report.relations) check::settle_classes(rel.classes);
    print_report(std::cout, args.format, merged, results);
    if (!merged.interrupted.empty()) return 128 + signal_number(merged.interrupted);
    for (const FamilyResult& r : results)
        if (!r.passed(false)) return 1;
    return merged.errors.empty() ? 0 : 2;
}

CLI::App* add_merge_command(CLI::App& app, MergeArgs& a) {
    CLI::App* c = app.add_subcommand("merge", "Join the JSON reports of a check's or a diff's shards (--shard I/N) into one report and verdict");
    c->add_option("reports", a.reports, "The shards' reports (isect check --shard I/N --format json)")->required();
    c->add_option("--format", a.format, "Report as text, markdown, json or junit (default text)");
    return c;
}

}  // namespace isect::tool
