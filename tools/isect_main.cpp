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
#include "check/io/mesh_file.hpp"
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

/// ", claims watertight, monotone": the relations a kernel claims.
std::string claims(const check::FamilyKernel& k) {
    std::string out;
    for (const check::RelationKind r : k.relations) out += (out.empty() ? ", claims " : ", ") + std::string(check::relation_name(r));
    if (!out.empty() && k.relations_domain) out += " in " + k.relations_domain->str();
    return out;
}

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
        if (p == check::Precision::single) {
            std::string relations;
            for (const check::RelationKind r : check::claimable_relations())
                if (check::relation_unsupported(*f, r).empty())
                    relations += (relations.empty() ? " " : ", ") + std::string(check::relation_name(r));
            if (!relations.empty()) std::cout << "  relations a kernel may claim (--relation):" << relations << "\n";
        }
        // Every kernel of this precision, those that follow a convention
        // (judged in the family that convention declares) among them.
        for (const auto& list : {f->all_kernels(), f->all_broken()})
            for (const check::FamilyKernel& k : list) {
                if (k.precision != p) continue;
                std::string following;
                for (const std::string& c : k.conventions) following += (following.empty() ? " following " : ", ") + c;
                std::cout << "  " << k.name << "  " << k.contract.str() << following
                          << (k.domain ? " in " + k.domain->str_with_requirements() : "")
                          << (f->outputs.empty() ? "" : ", numbers within " + check::format_k(k.error_e) + " x " +
                                                           check::unit_name() + " S")
                          << claims(k) << "\n";
            }
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

/// The fuzz targets: ISECT_FUZZ_DIR; else beside this binary, where a
/// build with -DISECT_BUILD_FUZZ=ON puts them (build-san/fuzz); else the
/// source tree's build-fuzz/fuzz (./isect fuzz-targets builds it).
std::string fuzz_targets_dir(const std::string& source) {
    if (const char* env = std::getenv("ISECT_FUZZ_DIR")) return env;
    std::error_code ec;
    const std::filesystem::path beside = isect::check::this_program().parent_path() / "fuzz";
    return std::filesystem::exists(beside / "fuzz_aabb_aabb", ec) ? beside.string() : source + "/build-fuzz/fuzz";
}

}  // namespace

}  // namespace isect::tool

int main(int argc, char** argv) {
    using namespace isect::tool;
    // A plugin's worker process is this program started again.
    if (argc > 1 && std::string(argv[1]) == isect::check::kPluginWorkerArg) return isect::check::plugin_worker_main(argc, argv);
    // So is the reader of a user's mesh (assimp may crash on a malformed file).
    if (argc > 1 && std::string(argv[1]) == isect::check::kMeshReaderArg) return isect::check::mesh_reader_main(argc, argv);
    isect::ref::keep_gmp_blocks_per_thread();
    // A file size limit (ulimit -f) must fail a write, not kill the run.
    std::signal(SIGXFSZ, SIG_IGN);
    // The truth's arithmetic runs in the default environment, whatever
    // started us.
    isect::check::set_fp_control(isect::check::default_fp_control());
    CLI::App app{"isect: fast float intersection kernels checked against exact arithmetic"};
    app.require_subcommand(1);
    const std::string source = ISECT_SOURCE_DIR;

    // Each command declares its own flags beside its run (the kernels' flags
    // once, options.hpp's add_subject_options).
    CheckArgs check_args;
    check_args.source_dir = source;
    CLI::App* check = add_check_command(app, check_args);
    MergeArgs merge_args;
    CLI::App* merge = add_merge_command(app, merge_args);
    ReplayArgs replay_args;
    CLI::App* replay = add_replay_command(app, replay_args);
    FuzzArgs fuzz_args;
    fuzz_args.source_dir = source;
    fuzz_args.fuzz_dir = fuzz_targets_dir(source);
    CLI::App* fuzz = add_fuzz_command(app, fuzz_args);
    DiffArgs diff_args;
    CLI::App* diff = add_diff_command(app, diff_args);
    MinimizeArgs minimize_args;
    CLI::App* minimize = add_minimize_command(app, minimize_args);
    ReportArgs report_args;
    CLI::App* report = add_report_command(app, report_args);

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
    if (*diff) return run_diff(diff_args);
    if (*check) return run_check(check_args);
    if (*replay) return run_replay(replay_args);
    if (*merge) return run_merge(merge_args);
    if (*fuzz) return run_fuzz(fuzz_args);
    if (*minimize) return run_minimize(minimize_args.path, minimize_args.subject, minimize_args.out);
    if (*encode) return run_encode(encode_paths, encode_out);
    if (*decode) return run_decode(decode_family, decode_precision, decode_inputs, decode_out);
    if (*kernels_cmd) return case_keys ? run_case_keys() : run_kernels();
    if (*promote) return run_promote(promote_paths, promote_corpus);
    if (*report) return run_report(report_args);
    return 2;
}
