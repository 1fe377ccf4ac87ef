// The isect command: check the built-in kernels against the exact references
// on generated inputs, and replay case files.
//
// Exit codes: 0 every contract holds (every case replays), 1 a contract is
// broken (a case fails), 2 usage error or a file that cannot be read.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <cstdlib>
#include <random>

#include "isect/check/case_file.hpp"
#include "isect/check/runner.hpp"
#include "isect/ref/aabb_triangle.hpp"
#include "campaign.hpp"
#include "report.hpp"

namespace isect::tool {

namespace {

using check::AabbTriangleCase;
using check::AabbTriangleInput;
using check::AabbTriangleKernel;

/// Writes a case into dir, named after the family, kernel and seed.
std::string write_finding(const std::string& dir, const std::string& name, const std::string& text) {
    std::filesystem::create_directories(dir);
    const std::string path = (std::filesystem::path(dir) / (name + ".case")).string();
    std::ofstream(path) << text;
    return path;
}

struct CheckArgs {
    double seconds = 10;
    uint64_t seed = 0;
    bool seed_given = false;
    uint64_t cases = 0;
    std::string kernel;
    std::string gen;
    std::string out = "findings";
    bool quiet = false;
    bool stop_at_first = false;
};

int run_check(const CheckArgs& args) {
    std::vector<AabbTriangleKernel> kernels;
    if (args.kernel.empty()) kernels = check::aabb_triangle_kernels();
    else if (const AabbTriangleKernel* k = check::find_aabb_triangle_kernel(args.kernel)) kernels.push_back(*k);
    if (kernels.empty()) {
        std::cerr << "isect check: no kernel named '" << args.kernel << "' (try sat, conservative, broken:sat_without_edge_axes)\n";
        return 2;
    }
    check::CheckOptions options;
    options.seconds = args.seconds;
    options.max_cases = args.cases;
    options.seed = args.seed_given ? args.seed : std::random_device{}();
    options.gen_kind = args.gen;
    options.stop_at_first = args.stop_at_first;
    options.progress = !args.quiet && (args.seconds > 3 || args.cases > 20000);
    const check::CheckReport report = check::run_aabb_triangle_check(kernels, options);

    print_check_report(std::cout, report, options.seed);
    if (report.mismatch) {
        const std::string origin = "isect check, seed " + std::to_string(options.seed) + ": the references disagree (" +
                                   report.mismatch_message + ")\nexpect below is the clip reference's answer";
        const bool clip = ref::aabb_triangle_clip(ref::exact(report.mismatch->box), ref::exact(report.mismatch->tri));
        const std::string path = write_finding(args.out, "aabb_triangle-references-" + std::to_string(options.seed),
                                               check::format_input(*report.mismatch, clip, origin));
        std::cout << "\nreference disagreement written to " << path << "\n";
    }
    for (const check::KernelReport& k : report.kernels) {
        if (!k.counterexample) continue;
        const std::string origin = "isect check, seed " + std::to_string(options.seed) + ": kernel " + k.name +
                                   " breaks its contract " + k.contract.str() + " (generator " +
                                   k.counterexample->kind + "), simplified";
        const std::string text = check::format_input(*k.counterexample, k.counterexample_exact, origin);
        const std::string path =
            write_finding(args.out, "aabb_triangle-" + k.name + "-" + std::to_string(options.seed), text);
        std::cout << "\nfirst counterexample for " << k.name << ", written to " << path << ":\n" << text;
    }
    return report.holds() ? 0 : 1;
}

int run_encode(const std::vector<std::string>& paths, const std::string& out) {
    std::vector<check::CaseError> errors;
    std::filesystem::create_directories(out);
    for (const std::string& file : check::expand_case_paths(paths, errors)) {
        const check::ReadResult r = check::read_case_file(file);
        if (const auto* errs = std::get_if<std::vector<check::CaseError>>(&r)) {
            errors.insert(errors.end(), errs->begin(), errs->end());
            continue;
        }
        const AabbTriangleCase& c = std::get<AabbTriangleCase>(std::get<check::Case>(r));
        const std::vector<uint8_t> bytes = check::encode_aabb_triangle({c.box, c.tri, "case"});
        const auto path = std::filesystem::path(out) / std::filesystem::path(file).filename().replace_extension(".bin");
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    for (const check::CaseError& e : errors) std::cerr << "error: " << e.str() << "\n";
    return errors.empty() ? 0 : 2;
}

int run_replay(const std::vector<std::string>& paths, bool verbose) {
    std::vector<check::CaseError> errors;
    const std::vector<std::string> files = check::expand_case_paths(paths, errors);
    size_t passed = 0, failed = 0;
    for (const std::string& file : files) {
        const check::ReadResult r = check::read_case_file(file);
        if (const auto* errs = std::get_if<std::vector<check::CaseError>>(&r)) {
            errors.insert(errors.end(), errs->begin(), errs->end());
            continue;
        }
        const AabbTriangleCase& c = std::get<AabbTriangleCase>(std::get<check::Case>(r));
        std::vector<std::string> problems;
        try {
            const bool exact = check::aabb_triangle_truth(c.box, c.tri);
            if (exact != c.expect_overlap)
                problems.push_back(std::string("expect says ") + (c.expect_overlap ? "overlap" : "disjoint") +
                                   " but both references say " + (exact ? "overlap" : "disjoint"));
            const AabbTriangleInput in{c.box, c.tri, "case"};
            for (const AabbTriangleKernel& k : check::aabb_triangle_kernels()) {
                const check::Judgement j = check::judge(k, in, exact);
                if (check::allowed(k.contract, j)) continue;
                problems.push_back("kernel " + k.name + " (" + k.contract.str() + ") answers " +
                                   (j.kernel ? "overlap" : "disjoint") + "; its band needs K = " +
                                   check::format_k(j.band_k));
            }
        } catch (const check::ReferenceMismatch& e) {
            problems.push_back(e.what());
        }
        if (problems.empty()) {
            ++passed;
            if (verbose) std::cout << "ok    " << file << "\n";
            continue;
        }
        ++failed;
        for (const std::string& p : problems) std::cout << "FAIL  " << file << ": " << p << "\n";
    }
    for (const check::CaseError& e : errors) std::cerr << "error: " << e.str() << "\n";
    std::cout << "replay: " << files.size() << " files, " << passed << " passed, " << failed << " failed, "
              << errors.size() << " errors\n";
    if (!errors.empty()) return 2;
    return failed ? 1 : 0;
}

}  // namespace

}  // namespace isect::tool

int main(int argc, char** argv) {
    using namespace isect::tool;
    CLI::App app{"isect: fast float intersection kernels checked against exact arithmetic"};
    app.require_subcommand(1);

    CheckArgs check_args;
    CLI::App* check = app.add_subcommand("check", "Run every built-in kernel through generators, references and contracts");
    check->add_option("--seconds", check_args.seconds, "Time budget for generated cases")->check(CLI::PositiveNumber);
    auto* seed = check->add_option("--seed", check_args.seed, "Random seed (default: a fresh one, printed)");
    check->add_option("--cases", check_args.cases, "Stop after this many cases instead of --seconds");
    check->add_option("--kernel", check_args.kernel, "Check one kernel only (sat, conservative, or broken:NAME)");
    check->add_option("--gen", check_args.gen, "Use one generator mix only")
        ->check(CLI::IsMember(isect::check::aabb_triangle_gen_kinds()));
    check->add_option("--out", check_args.out, "Folder for counterexample case files (default: findings)");
    check->add_flag("--quiet", check_args.quiet, "No progress on stderr");
    check->add_flag("--stop-at-first", check_args.stop_at_first, "Stop once every kernel checked has broken its contract");

    std::vector<std::string> replay_paths;
    bool verbose = false;
    CLI::App* replay = app.add_subcommand("replay", "Check case files: references reproduce expect, kernels keep contracts");
    replay->add_option("paths", replay_paths, "Case files or folders (searched for *.case)")->required();
    replay->add_flag("-v,--verbose", verbose, "Print every case, not only failures");

    // Campaign defaults: this checkout's seeds and corpus; the fuzz targets
    // where ./isect builds them (build-fuzz/, clang), unless ISECT_FUZZ_DIR says.
    const std::string source = ISECT_SOURCE_DIR;
    const char* fuzz_dir_env = std::getenv("ISECT_FUZZ_DIR");
    const std::string fuzz_dir = fuzz_dir_env ? fuzz_dir_env : source + "/build-fuzz/fuzz";
    FuzzArgs fuzz_args;
    CLI::App* fuzz = app.add_subcommand("fuzz", "Run a libFuzzer campaign; findings become minimised corpus cases");
    fuzz->add_option("--family", fuzz_args.family, "Family to fuzz (aabb_triangle)");
    fuzz->add_option("--kernel", fuzz_args.kernel, "One kernel, or broken:NAME for a planted bug (default: the built-in ones)");
    fuzz->add_option("--minutes", fuzz_args.minutes, "Campaign length")->check(CLI::PositiveNumber);
    fuzz->add_option("--jobs", fuzz_args.jobs, "libFuzzer fork-mode jobs (cores)")->check(CLI::PositiveNumber);
    fuzz->add_option("--target", fuzz_args.target, "The libFuzzer binary (default: build-fuzz/fuzz/fuzz_FAMILY)");
    fuzz->add_option("--corpus", fuzz_args.corpus, "Where new cases go (default: corpus/FAMILY)");
    fuzz->add_option("--work", fuzz_args.work, "libFuzzer's pool and artifacts (default: build-fuzz/campaign_FAMILY)");
    fuzz->add_flag("--plain-mutator", fuzz_args.plain_mutator, "libFuzzer's mutations only (for comparisons)");

    std::string minimize_path, minimize_kernel, minimize_out;
    CLI::App* minimize = app.add_subcommand("minimize", "Shrink a failing case to the simplest one that still fails");
    minimize->add_option("case", minimize_path, "The case file")->required();
    minimize->add_option("--kernel", minimize_kernel, "The kernel that fails on it (default: the built-in ones)");
    minimize->add_option("-o,--out", minimize_out, "Write here instead of stdout");

    std::vector<std::string> encode_paths;
    std::string encode_out;
    CLI::App* encode = app.add_subcommand("encode", "Write case files as fuzz-target bytes (seed inputs)");
    encode->add_option("cases", encode_paths, "Case files or folders")->required();
    encode->add_option("--out", encode_out, "Folder for the .bin files")->required();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    check_args.seed_given = seed->count() > 0;
    if (*check) return run_check(check_args);
    if (*fuzz) {
        if (fuzz_args.target.empty()) fuzz_args.target = fuzz_dir + "/fuzz_" + fuzz_args.family;
        if (fuzz_args.corpus.empty()) fuzz_args.corpus = source + "/corpus/" + fuzz_args.family;
        if (fuzz_args.work.empty()) fuzz_args.work = fuzz_dir + "/../campaign_" + fuzz_args.family;
        fuzz_args.seeds = source + "/fuzz/seeds/" + fuzz_args.family;
        fuzz_args.dict = source + "/fuzz/" + fuzz_args.family + ".dict";
        return run_fuzz(fuzz_args);
    }
    if (*minimize) return run_minimize(minimize_path, minimize_kernel, minimize_out);
    if (*encode) return run_encode(encode_paths, encode_out);
    return run_replay(replay_paths, verbose);
}
