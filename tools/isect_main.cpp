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
#include <algorithm>
#include <random>

#include "isect/check/case_file.hpp"
#include "isect/check/runner.hpp"
#include "isect/ref/aabb_triangle.hpp"
#include "campaign.hpp"
#include "plugin_check.hpp"
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
    std::string family;
    std::string kernel;
    std::string gen;
    std::string out = "findings";
    bool quiet = false;
    bool stop_at_first = false;
};

/// aabb_triangle, on its own engine (runner.hpp). Returns the exit code.
int check_aabb_triangle(const CheckArgs& args, uint64_t seed) {
    std::vector<AabbTriangleKernel> kernels;
    if (args.kernel.empty()) kernels = check::aabb_triangle_kernels();
    else if (const AabbTriangleKernel* k = check::find_aabb_triangle_kernel(args.kernel)) kernels.push_back(*k);
    check::CheckOptions options;
    options.seconds = args.seconds;
    options.max_cases = args.cases;
    options.seed = seed;
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

/// A family of the generic engine (family.hpp). Returns the exit code.
int check_family(const check::Family& f, const CheckArgs& args, uint64_t seed) {
    std::vector<check::FamilyKernel> kernels;
    if (args.kernel.empty()) kernels = f.kernels();
    else if (const auto k = f.find_kernel(args.kernel)) kernels.push_back(*k);
    check::FamilyCheckOptions options;
    options.seconds = args.seconds;
    options.max_cases = args.cases;
    options.seed = seed;
    options.gen_kind = args.gen;
    options.stop_at_first = args.stop_at_first;
    options.progress = !args.quiet && (args.seconds > 3 || args.cases > 20000);
    const check::FamilyCheckReport report = check::run_family_check(f, kernels, options);
    print_family_report(std::cout, f, report, seed);
    if (report.mismatch) {
        const std::string text = "# isect check, seed " + std::to_string(seed) + ": the references disagree (" +
                                 report.mismatch_message + ")\n" + check::show_family_input(f, *report.mismatch);
        const std::string path = write_finding(args.out, f.name + "-references-" + std::to_string(seed), text);
        std::cout << "\nreference disagreement written to " << path << "\n";
    }
    for (const check::FamilyKernelReport& k : report.kernels) {
        if (!k.counterexample) continue;
        const std::string origin = "isect check, seed " + std::to_string(seed) + ": kernel " + k.name +
                                   " breaks its contract " + k.contract.str() + ", simplified\n" +
                                   k.counterexample_why;
        const std::string text =
            check::format_family_case(f, *k.counterexample, f.truth(k.counterexample->data()), origin);
        std::string name = k.name;
        for (char& c : name)
            if (c == ':') c = '_';
        const std::string path = write_finding(args.out, f.name + "-" + name + "-" + std::to_string(seed), text);
        std::cout << "\nfirst counterexample for " << k.name << ", written to " << path << ":\n" << text;
    }
    return report.holds() ? 0 : 1;
}

int run_check(const CheckArgs& args) {
    // Which families: the one named, or every one that has the kernel named.
    const bool triangle_named = args.family.empty() || args.family == "aabb_triangle";
    bool run_triangle = triangle_named && (args.kernel.empty() || check::find_aabb_triangle_kernel(args.kernel));
    std::vector<const check::Family*> run;
    for (const check::Family* f : check::families())
        if ((args.family.empty() || args.family == f->name) && (args.kernel.empty() || f->find_kernel(args.kernel)))
            run.push_back(f);
    if (!args.family.empty() && !triangle_named && !check::find_family(args.family)) {
        std::string known = "aabb_triangle";
        for (const check::Family* f : check::families()) known += ", " + f->name;
        std::cerr << "isect check: no family named '" << args.family << "' (" << known << ")\n";
        return 2;
    }
    if (!run_triangle && run.empty()) {
        std::cerr << "isect check: no kernel named '" << args.kernel
                  << "'; `isect kernels` lists them (built-in ones and broken:NAME fixtures)\n";
        return 2;
    }
    if (!args.gen.empty()) {  // the generator kind must exist in every family run
        const auto& kinds = check::aabb_triangle_gen_kinds();
        if (run_triangle && std::find(kinds.begin(), kinds.end(), args.gen) == kinds.end()) run_triangle = false;
        std::vector<const check::Family*> keep;
        for (const check::Family* f : run)
            if (std::find(f->gen_kinds.begin(), f->gen_kinds.end(), args.gen) != f->gen_kinds.end()) keep.push_back(f);
        run = keep;
        if (!run_triangle && run.empty()) {
            std::cerr << "isect check: no family checked has a generator kind '" << args.gen << "'\n";
            return 2;
        }
    }
    const uint64_t seed = args.seed_given ? args.seed : std::random_device{}();
    int code = 0;
    bool first = true;
    if (run_triangle) {
        code = std::max(code, check_aabb_triangle(args, seed));
        first = false;
    }
    for (const check::Family* f : run) {
        if (!first) std::cout << "\n";
        first = false;
        code = std::max(code, check_family(*f, args, seed));
    }
    return code;
}

/// `isect kernels`: every kernel and planted bug, by family, with contracts.
int run_kernels() {
    std::cout << "aabb_triangle\n";
    for (const AabbTriangleKernel& k : check::aabb_triangle_kernels())
        std::cout << "  " << k.name << "  " << k.contract.str() << "\n";
    for (const check::Family* f : check::families()) {
        std::cout << f->name << "\n";
        for (const auto& list : {f->kernels(), f->broken()})
            for (const check::FamilyKernel& k : list)
                std::cout << "  " << k.name << "  " << k.contract.str()
                          << (f->values.empty() ? "" : ", numbers within " + check::format_k(k.error_e) + " x 2^-24 S")
                          << "\n";
    }
    return 0;
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
        const auto* c0 = std::get_if<AabbTriangleCase>(&std::get<check::Case>(r));
        if (!c0) {
            errors.push_back({file, 0, "isect encode writes aabb_triangle cases only"});
            continue;
        }
        const AabbTriangleCase& c = *c0;
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
        std::vector<std::string> problems;
        if (const auto* fc = std::get_if<check::FamilyCase>(&std::get<check::Case>(r))) {
            problems = check::replay_family_case(*fc);
        } else try {
            const AabbTriangleCase& c = std::get<AabbTriangleCase>(std::get<check::Case>(r));
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
    check->add_option("--seconds", check_args.seconds, "Time budget for generated cases, per family")->check(CLI::PositiveNumber);
    auto* seed = check->add_option("--seed", check_args.seed, "Random seed (default: a fresh one, printed)");
    check->add_option("--cases", check_args.cases, "Stop after this many cases instead of --seconds");
    check->add_option("--family", check_args.family, "Check one family only (default: every family)");
    check->add_option("--kernel", check_args.kernel, "Check one kernel only (a name from `isect kernels`, or broken:NAME)");
    check->add_option("--gen", check_args.gen, "Use one generator mix only");
    check->add_option("--out", check_args.out, "Folder for counterexample case files (default: findings)");
    check->add_flag("--quiet", check_args.quiet, "No progress on stderr");
    check->add_flag("--stop-at-first", check_args.stop_at_first, "Stop once every kernel checked has broken its contract");
    PluginCheckArgs plugin_args;
    check->add_option("--plugin", plugin_args.path, "Check the kernels of a plugin (a shared library, isect/plugin.h)");
    check->add_option("--contract", plugin_args.contract, "With --plugin: exact, conservative or tolerant=K (default tolerant=1)");
    check->add_option("--error", plugin_args.error_e, "With --plugin: numbers within E x 2^-24 S (default 16)");
    check->add_option("--format", plugin_args.format, "With --plugin: text, markdown, json or junit");
    check->add_option("--timeout-ms", plugin_args.timeout_ms, "With --plugin: a call taking longer is a hang (default 2000)");

    std::vector<std::string> replay_paths;
    bool verbose = false;
    CLI::App* replay = app.add_subcommand("replay", "Check case files: references reproduce expect, kernels keep contracts");
    replay->add_option("paths", replay_paths, "Case files or folders (searched for *.case)")->required();
    replay->add_flag("-v,--verbose", verbose, "Print every case, not only failures");
    PluginCheckArgs replay_plugin;
    bool expect_broken = false;
    replay->add_option("--plugin", replay_plugin.path, "Replay against a plugin's kernel instead of the built-in ones");
    replay->add_option("--contract", replay_plugin.contract, "With --plugin: the contract (default tolerant=1)");
    replay->add_option("--error", replay_plugin.error_e, "With --plugin: numbers within E x 2^-24 S (default 16)");
    replay->add_flag("--expect-broken", expect_broken, "With --plugin: every case must break the contract");

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
    fuzz->add_option("--plugin", fuzz_args.plugin, "Fuzz a plugin's isect_aabb_triangle (findings go to --corpus, default findings/)");
    fuzz->add_option("--contract", fuzz_args.contract, "With --plugin: its contract (default tolerant=1)");

    std::string minimize_path, minimize_kernel, minimize_out;
    CLI::App* minimize = app.add_subcommand("minimize", "Shrink a failing case to the simplest one that still fails");
    minimize->add_option("case", minimize_path, "The case file")->required();
    minimize->add_option("--kernel", minimize_kernel, "The kernel that fails on it (default: the built-in ones)");
    minimize->add_option("-o,--out", minimize_out, "Write here instead of stdout");

    CLI::App* kernels_cmd = app.add_subcommand("kernels", "List every kernel and planted bug, by family, with contracts");

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
    if (*check && !plugin_args.path.empty()) {
        plugin_args.family = check_args.family;
        plugin_args.seconds = check_args.seconds;
        plugin_args.cases = check_args.cases;
        plugin_args.seed = check_args.seed;
        plugin_args.seed_given = check_args.seed_given;
        plugin_args.out = check_args.out;
        plugin_args.quiet = check_args.quiet;
        return run_plugin_check(plugin_args);
    }
    if (*check) return run_check(check_args);
    if (*fuzz) {
        if (fuzz_args.target.empty()) fuzz_args.target = fuzz_dir + "/fuzz_" + fuzz_args.family;
        if (fuzz_args.corpus.empty())
            fuzz_args.corpus = fuzz_args.plugin.empty() ? source + "/corpus/" + fuzz_args.family : "findings";
        if (fuzz_args.work.empty()) fuzz_args.work = fuzz_dir + "/../campaign_" + fuzz_args.family;
        fuzz_args.seeds = source + "/fuzz/seeds/" + fuzz_args.family;
        fuzz_args.dict = source + "/fuzz/" + fuzz_args.family + ".dict";
        return run_fuzz(fuzz_args);
    }
    if (*minimize) return run_minimize(minimize_path, minimize_kernel, minimize_out);
    if (*encode) return run_encode(encode_paths, encode_out);
    if (*kernels_cmd) return run_kernels();
    if (!replay_plugin.path.empty()) return run_plugin_replay(replay_plugin, replay_paths, expect_broken);
    return run_replay(replay_paths, verbose);
}
