// The isect command: check kernels (built-in or a plugin's) against the
// exact references on generated inputs, replay case files, fuzz, minimise.
//
// Exit status, one rule for every command: 0 every contract held (every
// case replayed, nothing found); 1 a contract broken (a case failed, a
// finding), whatever else went wrong; 2 a usage error, nothing judged, or
// an error (a file unread, a finding not saved) with no contract broken;
// 128 + N when signal N stopped the run (what was found is kept).
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "campaign.hpp"
#include "check_command.hpp"
#include "diff_command.hpp"
#include "check/engine/witness.hpp"
#include "check/io/case_file.hpp"
#include "check/io/child.hpp"
#include "check/io/fp_env.hpp"
#include "check/io/fuzz_bytes.hpp"
#include "check/io/plugin_host.hpp"
#include "check/io/safe_write.hpp"
#include "isect/ref/gmp_memory.hpp"
#include "merge_command.hpp"
#include "options.hpp"
#include "report.hpp"
#include "replay_command.hpp"
#include "report_command.hpp"

namespace isect::tool {

namespace {

/// `isect kernels`: every kernel and planted bug, by family, with contracts
/// (the float ones, then the double ones).
int run_kernels() {
    for (const check::Precision p : {check::Precision::single, check::Precision::double_}) {
    const check::PrecisionScope scope(p);
    if (p == check::Precision::double_) std::cout << "\ndouble-precision kernels (--precision double):\n";
    for (const check::Family* f : check::families()) {
        if (f->kernels().empty() && f->broken().empty()) continue;
        std::cout << f->name << "\n";
        if (p == check::Precision::single && !f->preconditions.empty()) {
            std::cout << "  preconditions a kernel may --require:";
            for (size_t i = 0; i < f->preconditions.size(); ++i)
                std::cout << (i ? "; " : " ") << f->preconditions[i].name << " (" << f->preconditions[i].says << ")";
            std::cout << "\n";
        }
        if (p == check::Precision::single)
            for (const check::Family::Convention& c : f->conventions)
                std::cout << "  convention a kernel may follow (--convention " << c.name << "): " << c.says << "\n";
        for (const auto& list : {f->kernels(), f->broken()})
            for (const check::FamilyKernel& k : list)
                std::cout << "  " << k.name << "  " << k.contract.str()
                          << (k.conventions.empty() ? "" : " following " + k.conventions.front())
                          << (k.domain ? " in " + k.domain->str_with_requirements() : "")
                          << (f->outputs.empty() ? "" : ", numbers within " + check::format_k(k.error_e) + " x " +
                                                           check::unit_name() + " S")
                          << "\n";
    }
    }
    return 0;
}

/// `isect kernels --case-keys`: each family's case-file keys, answers,
/// numbers and conventions, as docs/case-format.md's table (a test holds
/// the page to it).
int run_case_keys() {
    std::cout << "| family | input keys (numbers) | expect | numbers (`expect.NAME`) | `convention` |\n|---|---|---|---|---|\n";
    for (const check::Family* f : check::families()) {
        std::string keys, answers, numbers, conventions;
        for (const check::InputKey& k : f->inputs)
            keys += (keys.empty() ? "`" : ", `") + k.key + "` " + std::to_string(k.count);
        for (const std::string& a : f->answers) answers += (answers.empty() ? "`" : ", `") + a + "`";
        for (const std::string& o : f->outputs) numbers += (numbers.empty() ? "`" : ", `") + o + "`";
        for (const check::Family::Convention& c : f->conventions) conventions += (conventions.empty() ? "`" : ", `") + c.name + "`";
        std::cout << "| `" << f->name << "` | " << keys << " | " << answers << " | " << numbers << " | " << conventions << " |\n";
    }
    return 0;
}

/// `isect encode`: case files as the bytes of their family's fuzz target.
int run_encode(const std::vector<std::string>& paths, const std::string& out) {
    std::vector<check::CaseError> errors;
    std::filesystem::create_directories(out);
    for (const std::string& file : check::expand_case_paths(paths, errors)) {
        const check::ReadResult r = check::read_case_file(file);
        if (const auto* errs = std::get_if<std::vector<check::CaseError>>(&r)) {
            errors.insert(errors.end(), errs->begin(), errs->end());
            continue;
        }
        const check::FamilyCase& c = std::get<check::FamilyCase>(r);
        const std::vector<uint8_t> bytes = check::encode_fuzz(*c.family, c.in);
        const auto path = std::filesystem::path(out) / std::filesystem::path(file).filename().replace_extension(".bin");
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    for (const check::CaseError& e : errors) std::cerr << "error: " << e.str() << "\n";
    return errors.empty() ? 0 : 2;
}

/// `isect decode`: a fuzz target's inputs (a ClusterFuzzLite crash, a
/// campaign's corpus) as case files, so that isect minimize, replay and
/// promote take them; the inverse of encode.
int run_decode(const std::string& family, const std::string& precision, const std::vector<std::string>& inputs,
               const std::string& out) {
    const check::Family* f = check::find_family(family);
    if (!f) {
        std::cerr << "isect decode: no family named '" << family << "'\n";
        return 2;
    }
    if (!set_precision_arg("decode", precision)) return 2;
    if (const std::string why = check::probe_folder(out); !why.empty()) {
        std::cerr << "isect decode: --out " << why << "\n";
        return 2;
    }
    int status = 0;
    for (const std::string& file : inputs) {
        std::ifstream in(file, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in && !in.eof()) {
            std::cerr << "isect decode: " << file << ": cannot read it\n";
            status = 2;
            continue;
        }
        const check::Inputs decoded =
            check::decode_fuzz(*f, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), check::Domain{});
        const std::string origin = "decoded from " + file + ", an input of fuzz_" + f->name + " (" +
                                   check::precision_name(check::precision()) + ")";
        const std::string stem = std::filesystem::path(file).filename().string();
        const check::Written w = check::write_file_new(out, file_stem(f->name + "-" + stem), ".case",
                                                       check::format_family_case(*f, decoded, origin));
        if (!w.ok()) {
            std::cerr << "isect decode: " << file << " not saved: " << w.error << "\n";
            status = 2;
            continue;
        }
        std::cout << w.path << "\n";
    }
    return status;
}

}  // namespace

}  // namespace isect::tool

int main(int argc, char** argv) {
    using namespace isect::tool;
    // A plugin's worker process is this program started again.
    if (argc > 1 && std::string(argv[1]) == isect::check::kPluginWorkerArg) return isect::check::plugin_worker_main(argc, argv);
    isect::ref::keep_gmp_blocks_per_thread();
    // A file size limit (ulimit -f) must fail a write, not kill the run.
    std::signal(SIGXFSZ, SIG_IGN);
    // The truth's arithmetic runs in the default environment, whatever
    // started us.
    isect::check::set_fp_control(isect::check::default_fp_control());
    CLI::App app{"isect: fast float intersection kernels checked against exact arithmetic"};
    app.require_subcommand(1);
    const std::string source = ISECT_SOURCE_DIR;

    CheckArgs check_args;
    check_args.source_dir = source;
    CLI::App* check = app.add_subcommand("check", "Check kernels through generators, both references and their contracts");
    check->add_option("--seconds", check_args.seconds, "Time budget for generated cases, per family")->check(real_in(0, 1e7, true));
    auto* seed = check->add_option("--seed", check_args.seed, "Random seed (default: a fresh one, printed)")->check(whole_in(0, UINT64_MAX));
    check->add_option("--cases", check_args.cases, "Stop after this many cases per family instead of --seconds")->check(whole_in(1, uint64_t(1e15)));
    check->add_option("--jobs,-j", check_args.jobs, "Workers judging the cases (default 0: every core available); the cases, classes and witnesses are the same for any number")
        ->check(whole_in(0, 4096));
    check->add_option("--shard", check_args.shard, "Judge part I of N of the case stream (0/4 ... 3/4; needs --seed); isect merge joins the shards' JSON reports");
    check->add_option("--family", check_args.family, "Check one family only (default: every family)");
    check->add_option("--kernel", check_args.subject.kernel, "Check one built-in kernel only (`isect kernels`; broken:NAME plants a bug)");
    check->add_option("--gen", check_args.gen, "Use one generator kind only (the report's mix line names them)");
    check->add_option("--domain", check_args.subject.domain, "Judge only inputs whose nonzero magnitudes lie in LO:HI (2^-20:2^20, 1e-6:1e6)");
    check->add_option("--require", check_args.subject.require, "Preconditions your kernel declares (nonzero_direction, proper_triangle, ...; `isect kernels` lists each family's): only inputs that meet them are generated and judged");
    check->add_option("--convention", check_args.subject.convention, "Conventions your kernel follows (surface, cull_back; `isect kernels` lists each family's): the exact answer it is judged against follows them");
    check->add_option("--out", check_args.out, "Folder for counterexample case files and maps (default: findings)");
    check->add_option("--format", check_args.format, "Report as text, markdown, json or junit (default text)");
    check->add_flag("--map", check_args.map, "Validity map tables and pictures for every kernel (always with --plugin)");
    check->add_option("--oracle", check_args.oracle,
                      "fast: interval oracles first, the references where they cannot decide (default); slow: the references alone");
    check->add_flag("--quiet", check_args.quiet, "No progress on stderr");
    check->add_flag("--stop-at-first", check_args.stop_at_first, "Stop once every kernel checked has broken its contract");
    check->add_option("--plugin", check_args.subject.plugin, "Check the kernels of a plugin (a shared library, isect/plugin.h)");
    auto* check_contract = check->add_option("--contract", check_args.subject.contract,
                      "With --plugin: exact, conservative, conservative=K or tolerant=K (default tolerant=1); with --kernel: the "
                      "kernel's own contract or a stricter one it is then held to");
    check->add_option("--error", check_args.subject.error_e, "With --plugin: numbers within E x u S (default 16)")->check(real_in(0, 1e15));
    check->add_option("--fp-env", check_args.subject.fp_env,
                      "The kernels' floating-point environment: default, ftz, daz or ftz,daz (flush-to-zero, "
                      "denormals-are-zero, as -ffast-math builds and GPUs run); the truth always runs in the default one");
    check->add_option("--replay", check_args.replay, "A folder of your own case files, judged first on every kernel");
    check->add_option("--precision", check_args.precision,
                      "float (default) or double: the inputs generated, the kernels run (a plugin's isect_FAMILY_d), "
                      "and the unit u of K and E (2^-24 or 2^-53)");
    check->add_option("--timeout-ms", check_args.subject.timeout_ms, "With --plugin: a call taking longer is a hang (default 2000)")
        ->check(whole_in(1, 86400000));

    ReplayArgs replay_args;
    MergeArgs merge_args;
    CLI::App* merge = app.add_subcommand("merge", "Join the JSON reports of a check's shards (--shard I/N) into one report and verdict");
    merge->add_option("reports", merge_args.reports, "The shards' reports (isect check --shard I/N --format json)")->required();
    merge->add_option("--format", merge_args.format, "Report as text, markdown, json or junit (default text)");

    CLI::App* replay = app.add_subcommand("replay", "Check case files: references reproduce expect, kernels keep contracts");
    replay->add_option("paths", replay_args.paths, "Case files or folders (searched for *.case)")->required();
    replay->add_flag("-v,--verbose", replay_args.verbose, "Every case, and each kernel's answer on it");
    replay->add_option("--kernel", replay_args.subject.kernel, "One built-in kernel (or broken:NAME) instead of every built-in one");
    replay->add_option("--plugin", replay_args.subject.plugin, "Replay against a plugin's kernel instead of the built-in ones");
    auto* replay_contract = replay->add_option("--contract", replay_args.subject.contract,
                      "With --plugin: the contract (default tolerant=1); with --kernel: its own or a stricter one");
    replay->add_option("--error", replay_args.subject.error_e, "With --plugin: numbers within E x u S (default 16)")->check(real_in(0, 1e15));
    replay->add_option("--fp-env", replay_args.subject.fp_env, "The kernels' floating-point environment: default, ftz, daz or ftz,daz");
    replay->add_option("--timeout-ms", replay_args.subject.timeout_ms, "With --plugin: a call taking longer is a hang (default 2000)")
        ->check(whole_in(1, 86400000));
    replay->add_option("--domain", replay_args.subject.domain, "Skip (and list) the cases outside LO:HI");
    replay->add_option("--require", replay_args.subject.require, "Skip (and list) the cases that miss these preconditions");
    replay->add_option("--convention", replay_args.subject.convention, "The conventions the kernel follows: it is judged on the cases that say them (`convention NAME`), the others are skipped");
    replay->add_flag("--expect-broken", replay_args.expect_broken, "With --kernel or --plugin: every case must break the contract");
    replay->add_flag("--strict", replay_args.strict, "A number that is not exactly a float (0.1) is an error, not a warning");
    replay->add_option("--format", replay_args.format, "Report as text, markdown, json or junit");
    replay->add_option("--jobs,-j", replay_args.jobs, "Workers judging the files (default 0: every core available); the report is the same")
        ->check(whole_in(0, 4096));

    FuzzArgs fuzz_args;
    fuzz_args.source_dir = source;
    // The fuzz targets: ISECT_FUZZ_DIR; else beside this binary, where a
    // build with -DISECT_BUILD_FUZZ=ON puts them (build-san/fuzz); else the
    // source tree's build-fuzz/fuzz (./isect fuzz-targets builds it).
    const char* fuzz_dir_env = std::getenv("ISECT_FUZZ_DIR");
    {
        std::error_code ec;
        const std::filesystem::path beside = isect::check::this_program().parent_path() / "fuzz";
        fuzz_args.fuzz_dir = fuzz_dir_env                                                          ? fuzz_dir_env
                             : std::filesystem::exists(beside / "fuzz_aabb_aabb", ec) ? beside.string()
                                                                                               : source + "/build-fuzz/fuzz";
    }
    CLI::App* fuzz = app.add_subcommand("fuzz", "Run libFuzzer campaigns; findings become minimised corpus cases");
    fuzz->add_option("--family", fuzz_args.family, "One family (default: every family)");
    fuzz->add_option("--kernel", fuzz_args.subject.kernel, "One kernel, or broken:NAME for a planted bug (default: the built-in ones)");
    fuzz->add_option("--minutes", fuzz_args.minutes, "Campaign length, per family")->check(real_in(0, 1e6, true));
    fuzz->add_option("--jobs", fuzz_args.jobs, "libFuzzer fork-mode jobs (cores)")->check(whole_in(1, 1024));
    fuzz->add_option("--work", fuzz_args.work,
                     "Where campaigns keep their pools, logs and inputs kept as bytes (default ./isect-fuzz; the user's "
                     "cache folder when run inside isect's source or install tree)");
    fuzz->add_option("--corpus", fuzz_args.corpus,
                     "Where new cases go (default: ./corpus/FAMILY of the current folder; ./findings for a plugin)");
    fuzz->add_option("--domain", fuzz_args.subject.domain, "Fuzz only inputs whose nonzero magnitudes lie in LO:HI");
    fuzz->add_option("--require", fuzz_args.subject.require, "Preconditions your kernel declares (nonzero_direction, proper_triangle, ...; `isect kernels` lists each family's): only inputs that meet them are generated and judged");
    fuzz->add_option("--convention", fuzz_args.subject.convention, "Conventions your kernel follows (surface, cull_back)");
    fuzz->add_flag("--plain-mutator", fuzz_args.plain_mutator, "libFuzzer's mutations only (for comparisons)");
    fuzz->add_option("--plugin", fuzz_args.subject.plugin, "Fuzz a plugin's functions, every family it exports (or --family)");
    auto* fuzz_contract = fuzz->add_option("--contract", fuzz_args.subject.contract,
                     "With --plugin: its contract (default tolerant=1); with --kernel: its own or a stricter one");
    fuzz->add_option("--fp-env", fuzz_args.subject.fp_env, "The kernels' floating-point environment: default, ftz, daz or ftz,daz");
    fuzz->add_option("--format", fuzz_args.format, "Report as text, markdown, json or junit");
    fuzz->add_option("--precision", fuzz_args.precision, "float (default) or double: the inputs and kernels fuzzed");

    DiffArgs diff_args;
    CLI::App* diff = app.add_subcommand(
        "diff", "Two kernels on the same inputs: where they disagree, and which one the references side with");
    diff->add_option("a", diff_args.a, "A plugin (a path) or a built-in kernel's name")->required();
    diff->add_option("b", diff_args.b, "Another plugin or built-in kernel")->required();
    diff->add_option("--family", diff_args.family, "One family (default: every family both have)");
    diff->add_option("--precision", diff_args.precision, "float (default) or double: the kernels compared");
    diff->add_option("--domain", diff_args.domain, "Only inputs whose nonzero magnitudes lie in LO:HI");
    diff->add_option("--require", diff_args.require, "Only inputs that meet these preconditions (`isect kernels` lists them)");
    diff->add_option("--seconds", diff_args.seconds, "Time budget, per family")->check(real_in(0, 1e7, true));
    diff->add_option("--cases", diff_args.cases, "Stop after this many inputs per family instead of --seconds")
        ->check(whole_in(1, uint64_t(1e15)));
    auto* diff_seed = diff->add_option("--seed", diff_args.seed, "Random seed (default: a fresh one, printed)")->check(whole_in(0, UINT64_MAX));
    diff->add_option("--tolerance", diff_args.tolerance,
                     "Numbers may differ by this many u max(|a|, |b|) (u = 2^-24 or 2^-53; default 0: any difference)")
        ->check(real_in(0, 1e15));
    diff->add_option("--fp-env", diff_args.fp_env, "Both kernels' floating-point environment: default, ftz, daz or ftz,daz");
    diff->add_option("--out", diff_args.out, "Folder for the classes' witness cases (default: findings)");
    diff->add_option("--format", diff_args.format, "text (default) or json");
    diff->add_option("--jobs,-j", diff_args.jobs, "Workers (default 0: every core available); the inputs and classes are the same")
        ->check(whole_in(0, 4096));
    diff->add_option("--timeout-ms", diff_args.timeout_ms, "A plugin call taking longer is a hang (default 2000)")
        ->check(whole_in(1, 86400000));

    std::string minimize_path, minimize_out;
    isect::check::SubjectArgs minimize_subject;
    CLI::App* minimize = app.add_subcommand("minimize", "Shrink a failing case to the simplest one that still fails");
    minimize->add_option("case", minimize_path, "The case file")->required();
    minimize->add_option("--kernel", minimize_subject.kernel, "The kernel that fails on it (default: the built-in ones)");
    minimize->add_option("--plugin", minimize_subject.plugin, "A plugin whose kernel fails on it (a witness of isect check --plugin, a decoded fuzz crash)");
    auto* minimize_contract = minimize->add_option("--contract", minimize_subject.contract,
                                                   "With --plugin: its contract (default tolerant=1); with --kernel: its own or a stricter one");
    minimize->add_option("--error", minimize_subject.error_e, "With --plugin: numbers within E x u S (default 16)")->check(real_in(0, 1e15));
    minimize->add_option("--timeout-ms", minimize_subject.timeout_ms, "With --plugin: a call taking longer is a hang (default 2000)")
        ->check(whole_in(1, 86400000));
    minimize->add_option("--fp-env", minimize_subject.fp_env, "The kernels' floating-point environment: default, ftz, daz or ftz,daz");
    minimize->add_option("--convention", minimize_subject.convention, "The conventions the kernel follows");
    minimize->add_option("-o,--out", minimize_out, "Write here instead of stdout");
    minimize->add_option("--domain", minimize_subject.domain, "Keep every trial's nonzero magnitudes in LO:HI");
    minimize->add_option("--require", minimize_subject.require, "Keep every trial meeting these preconditions");

    ReportArgs report_args;
    CLI::App* report = app.add_subcommand(
        "report", "Turn a finding into a standalone reproducer (the kernel's source, the input as hexfloats) and an issue body");
    report->add_option("case", report_args.case_file, "The case file: a witness isect check wrote")->required();
    report->add_option("--plugin", report_args.subject.plugin, "The plugin whose kernel breaks on it")->required();
    auto* report_contract = report->add_option("--contract", report_args.subject.contract, "Its contract (default tolerant=1)");
    report->add_option("--error", report_args.subject.error_e, "Numbers within E x u S (default 16)")->check(real_in(0, 1e15));
    report->add_option("--domain", report_args.subject.domain, "As the check declared it (default: the plugin's)");
    report->add_option("--require", report_args.subject.require, "As the check declared them (default: the plugin's)");
    report->add_option("--convention", report_args.subject.convention, "As the check declared them (default: the plugin's)");
    report->add_option("--source", report_args.sources, "The kernel's source files, inlined into the reproducer")->required();
    report->add_option("--define", report_args.defines, "NAME or NAME=VALUE defined before them (a wrapper's ROW_name)");
    report->add_option("--build", report_args.build, "What building the reproducer needs, for its header (\"-lode\")");
    report->add_option("--from", report_args.from, "The check's JSON report: the class this case witnesses, its size and shape");
    report->add_option("--title", report_args.title, "What is called, for both files (\"ODE 0.16, dCollide(box, box)\")");
    report->add_option("--out", report_args.out, "Folder for NAME-repro.cpp and NAME-issue.md (default: .)");

    std::vector<std::string> promote_paths;
    std::string promote_corpus = "corpus";
    CLI::App* promote = app.add_subcommand("promote", "Move findings into the corpus (CORPUS/FAMILY/NAME.case), so ctest replays them");
    promote->add_option("cases", promote_paths, "Case files written by isect check or isect fuzz")->required();
    promote->add_option("--corpus", promote_corpus, "The corpus folder (default: ./corpus of the current folder)");

    CLI::App* kernels_cmd = app.add_subcommand("kernels", "List every kernel and planted bug, by family, with contracts");
    bool case_keys = false;
    kernels_cmd->add_flag("--case-keys", case_keys, "Each family's case-file keys, answers and numbers, as a markdown table");

    std::vector<std::string> encode_paths;
    std::string encode_out;
    CLI::App* encode = app.add_subcommand("encode", "Write case files as fuzz-target bytes (seed inputs)");
    encode->add_option("cases", encode_paths, "Case files or folders")->required();
    encode->add_option("--out", encode_out, "Folder for the .bin files")->required();

    std::string decode_family, decode_precision = "float", decode_out = "findings";
    std::vector<std::string> decode_inputs;
    CLI::App* decode = app.add_subcommand(
        "decode", "Write fuzz-target inputs (a ClusterFuzzLite crash, a campaign's corpus) as case files, to minimize and promote");
    decode->add_option("inputs", decode_inputs, "Input files of the family's fuzz target")->required();
    decode->add_option("--family", decode_family, "The family whose target the inputs are for (fuzz_FAMILY)")->required();
    decode->add_option("--precision", decode_precision, "float (default) or double: the target's ISECT_FUZZ_PRECISION");
    decode->add_option("--out", decode_out, "Folder for the case files (default: findings)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    check_args.seed_given = seed->count() > 0;
    check_args.subject.contract_given = check_contract->count() > 0;
    replay_args.subject.contract_given = replay_contract->count() > 0;
    fuzz_args.subject.contract_given = fuzz_contract->count() > 0;
    minimize_subject.contract_given = minimize_contract->count() > 0;
    report_args.subject.contract_given = report_contract->count() > 0;
    diff_args.seed_given = diff_seed->count() > 0;
    if (*diff) return run_diff(diff_args);
    if (*check) return run_check(check_args);
    if (*replay) return run_replay(replay_args);
    if (*merge) return run_merge(merge_args);
    if (*fuzz) return run_fuzz(fuzz_args);
    if (*minimize) return run_minimize(minimize_path, minimize_subject, minimize_out);
    if (*encode) return run_encode(encode_paths, encode_out);
    if (*decode) return run_decode(decode_family, decode_precision, decode_inputs, decode_out);
    if (*kernels_cmd) return case_keys ? run_case_keys() : run_kernels();
    if (*promote) return run_promote(promote_paths, promote_corpus);
    if (*report) return run_report(report_args);
    return 2;
}
