#include "check_command.hpp"

#include "options.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <sys/wait.h>

#include "check/engine/findings.hpp"
#include "check/engine/relation.hpp"
#include "check/engine/witness.hpp"
#include "check/io/case_file.hpp"
#include "check/io/child.hpp"
#include "check/model/generate.hpp"
#include "check/io/interrupt.hpp"
#include "check/io/plugin_host.hpp"
#include "check/io/safe_write.hpp"
#include "report.hpp"
#include "check/engine/kernels_under_test.hpp"

namespace isect::tool {

namespace {

namespace fs = std::filesystem;
using check::Family;
using check::FamilyKernel;

/// A kernel to run in one family, with where its findings are named.
struct Target {
    const Family* family;
    std::vector<FamilyKernel> kernels;
};

/// The stem of a witness's file: who broke what, and the seed.
std::string witness_stem(const CheckArgs& args, const std::string& subject, const Family& f, const std::string& kernel) {
    // The subject's name made safe on its own (any length, any characters):
    // the family and the seed always stay readable in the file's name.
    return (args.subject.plugin.empty() ? f.name + "-" + file_stem(kernel) : file_stem(subject.substr(0, 80)) + "-" + f.name) +
           "-" + std::to_string(args.seed);
}

/// Where a class's witness came from: the run and what it found broken.
check::FindingOrigin witness_origin(const CheckArgs& args, const std::string& subject, const std::string& domain,
                                    const std::string& breaks, const std::string& place) {
    return {(args.subject.plugin.empty() ? "isect check" : "isect check --plugin " + subject) + ", seed " +
                std::to_string(args.seed) + ", domain " + domain + ": kernel " + breaks,
            place, ""};
}

/// Keeps a relation class's witness: the case, naming its relation (the
/// other calls are what the relation derives from it). A mesh's neighbours
/// go with a watertight witness, so that it replays without the mesh; a
/// witness whose triangle is none of the mesh's (a construction, or a
/// transform of a mesh case) has the ones the relation builds, and holds
/// none.
check::Written keep_relation_witness(const CheckArgs& args, const std::string& subject, const std::string& domain,
                                     const check::Family& f, const check::RelationReport& rel, check::FailureClass& fc,
                                     const std::string& place, check::FindingFiles& files) {
    const bool mesh = !args.subject.mesh.empty() && rel.relation == check::RelationKind::watertight;
    const std::string name = check::relation_name(rel.relation);
    check::FindingOrigin origin = witness_origin(args, subject, domain, rel.subject + " breaks the relation " + name, place);
    std::vector<std::array<double, 9>> around;
    if (mesh) {
        // The found case, as the mesh gave it, with the mesh's triangles
        // around it (the report's JSON), where its triangle is the mesh's;
        // the minimiser keeps such a witness on the mesh.
        const auto& on_mesh = f.shared_edges.mesh_triangle;
        if (on_mesh && on_mesh(fc.found.data())) fc.found_neighbours = check::witness_neighbours(f, fc.found);
        if (on_mesh && on_mesh(fc.witness.data())) {
            around = check::witness_neighbours(f, fc.witness);
            fc.in_file = f.shared_edges.mesh_place ? f.shared_edges.mesh_place(fc.witness.data()) : "";
            origin.note = "drawn from the mesh " + args.subject.mesh + ": its triangle is the mesh's, neighbour.N the mesh's around it" +
                          (fc.in_file.empty() ? "" : " (" + fc.in_file + ")");
        } else {
            origin.note = "from a run with the mesh " + args.subject.mesh +
                          "; its triangle is none of the mesh's (a construction, or moved by a transform): "
                          "judged against the neighbours the relation builds";
        }
    }
    return files.keep_class(f, {f.name, check::FindingKey::Of::relation_class, 0, fc.key},
                            witness_stem(args, subject, f, rel.subject) + "-" + name, fc, origin, rel.relation, around);
}

/// Writes every failure class's (minimised) witness in place of the one
/// kept as found, the hang input and the reference disagreement; a write
/// that fails leaves the class without a file and the run says so.
void keep_findings(const CheckArgs& args, const std::string& subject, FamilyResult& r,
                   const std::vector<FamilyKernel>& kernels, check::FindingFiles& files) {
    const Family& f = *r.family;
    const std::string seed = std::to_string(args.seed);
    for (size_t i = 0; i < kernels.size(); ++i) {
        check::FamilyKernelReport& k = r.report.kernels[i];
        const std::string stem = witness_stem(args, subject, f, k.name);
        for (size_t c = 0; c < k.classes.size(); ++c) {
            check::FailureClass& fc = k.classes[c];
            const std::string place = "class " + std::to_string(c + 1) + " of " + std::to_string(k.classes.size());
            files.keep_class(f, {f.name, check::FindingKey::Of::kernel_class, i, fc.key}, stem, fc,
                             witness_origin(args, subject, r.report_domain, k.name + " breaks " + k.contract.str(), place));
        }
        if (k.hang_input && (k.classes.empty() || k.classes[0].key.kind != check::FailureKind::hang)) {
            const check::Written w =
                files.keep({f.name, check::FindingKey::Of::hang, i, {}}, stem + "-hang", k.name,
                           check::format_family_case(f, *k.hang_input, "isect check --plugin " + subject + ", seed " + seed +
                                                                           ": hang: no answer within " +
                                                                           std::to_string(args.subject.timeout_ms) + " ms"));
            k.hang_case = w.ok() ? w.path : "";
        }
    }
    for (check::RelationReport& rel : r.report.relations)
        for (size_t c = 0; c < rel.classes.size(); ++c)
            keep_relation_witness(args, subject, r.report_domain, f, rel, rel.classes[c],
                                  "class " + std::to_string(c + 1) + " of " + std::to_string(rel.classes.size()), files);
    if (r.report.mismatch) {
        const check::Written w =
            files.keep({f.name, check::FindingKey::Of::references, 0, {}}, f.name + "-references-" + seed, "references",
                       "# isect check, seed " + seed + ": the references disagree (" + r.report.mismatch_message + ")\n" +
                           check::show_family_input(f, *r.report.mismatch));
        r.mismatch_path = w.ok() ? w.path : "";
    }
}

/// A finding an earlier `isect check` of the same kernels wrote into --out,
/// or a case of the user's own (--replay): the case, and the kernel it
/// broke (empty for the user's: every kernel is judged on it).
struct StoredFinding {
    check::FamilyCase c;
    std::string kernel;
};

/// The findings database, read once per run: the case files in --out that
/// `isect check` wrote for these kernels (built-in ones, or this plugin's).
/// A file that cannot be read is named and skipped.
std::vector<StoredFinding> load_findings(const CheckArgs& args, const std::string& subject) {
    std::vector<StoredFinding> out;
    std::error_code ec;
    if (!fs::is_directory(args.out, ec)) return out;
    std::vector<check::CaseError> errors;
    const std::string from = args.subject.plugin.empty() ? "isect check, " : "isect check --plugin " + subject + ", ";
    for (const std::string& file : check::expand_case_paths({args.out}, errors)) {
        check::ReadResult r = check::read_case_file(file);
        if (auto* bad = std::get_if<std::vector<check::CaseError>>(&r)) {
            errors.insert(errors.end(), bad->begin(), bad->end());
            continue;
        }
        check::FamilyCase& c = std::get<check::FamilyCase>(r);
        const auto key = check::ClassKey::parse(check::signature_of(c.origin));
        if (c.origin.rfind(from, 0) != 0 || !key) continue;
        out.push_back({std::move(c), key->kernel});
    }
    for (const auto& e : errors) std::cerr << "isect check: findings database: " << e.str() << " (skipped)\n";
    return out;
}

/// The user's own cases (--replay DIR): every readable one, judged first
/// on every kernel of its family. An unreadable file is an error of the run.
std::vector<StoredFinding> load_user_cases(const std::string& dir, std::vector<CaseProblem>& errors) {
    std::vector<StoredFinding> out;
    std::vector<check::CaseError> bad;
    const std::vector<std::string> files = check::expand_case_paths({dir}, bad);
    for (const std::string& file : files) {
        check::ReadResult r = check::read_case_file(file);
        if (auto* e = std::get_if<std::vector<check::CaseError>>(&r)) {
            bad.insert(bad.end(), e->begin(), e->end());
            continue;
        }
        out.push_back({std::move(std::get<check::FamilyCase>(r)), ""});
    }
    for (const auto& e : bad) errors.push_back({e.path, e.str()});
    if (files.empty() && bad.empty()) errors.push_back({dir, dir + ": no case files (*.case) to replay"});
    return out;
}

/// The findings and cases of t's family and kernels, judged before any
/// generated case. One that still breaks a kernel's contract breaks the
/// run; a finding that now passes is reported as such; both stay until
/// promoted or deleted. A user's case whose expect the references do not
/// reproduce is a problem of the run.
std::vector<ReplayedFinding> replay_findings(const std::vector<StoredFinding>& findings, const Target& t,
                                             const check::Domain& domain, std::vector<CaseProblem>& problems) {
    std::vector<ReplayedFinding> out;
    for (const StoredFinding& f : findings) {
        const check::FamilyCase& c = f.c;
        // A finding of the other precision belongs to the other kind of run.
        // (By name and conventions: the run's family may carry a precondition's slack.)
        if (c.family->name != t.family->name || c.family->followed != t.family->followed ||
            c.precision != check::precision() || !domain.outside(*t.family, c.in.data()).empty())
            continue;
        for (const FamilyKernel& k : t.kernels) {
            if (!f.kernel.empty() && k.name != f.kernel) continue;
            ReplayedFinding p{c.path, k.name, false, ""};
            try {
                // The one judge, the references on every stored case.
                const std::vector<FamilyKernel> one{k};
                check::CaseJudge judged(*t.family, one, c.in, check::Oracle::slow, false);
                judged.finish();
                if (!judged.disagreement().empty()) throw check::ReferenceMismatch(judged.disagreement());
                const check::Truth& truth = judged.truth();
                if (f.kernel.empty() && &k == &t.kernels.front())
                    for (const std::string& why : check::expectation_problems(c, truth)) problems.push_back({c.path, why});
                const check::FamilyJudgement& j = judged.judgements()[0];
                p.still_failing = j.violates;
                p.why = j.violates ? j.why
                                   : j.answer_differs ? "answers " + t.family->answers[size_t(j.got.answer)] + ", inside its band"
                                                      : "answers " + t.family->answers[size_t(truth.answer)] + ", as the references do";
                // A relation's witness: the relation judged again.
                for (const check::RelationKind kind : c.relations) {
                    if (p.still_failing) break;
                    if (!check::relation_unsupported(*t.family, kind).empty()) continue;
                    const std::unique_ptr<check::Family> around =
                        c.neighbours.empty() ? nullptr : check::with_neighbours(*t.family, c.in, c.neighbours);
                    if (const auto b = check::judge_relation(around ? *around : *t.family, {kind, 0, 0, 0}, one, c.in)) {
                        p.still_failing = p.relation = true;
                        p.why = "breaks the relation " + std::string(check::relation_name(kind)) + ": " + b->why;
                    } else {
                        p.why += "; the relation " + std::string(check::relation_name(kind)) + " holds";
                    }
                }
            } catch (const std::exception& e) {
                p.still_failing = true;
                p.why = e.what();
            }
            out.push_back(p);
        }
    }
    return out;
}

/// The python that has matplotlib: Debian's, which pyenv may shadow.
std::string python() { return fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3"; }

/// Draws every kernel's validity map (tools/validity_map.py, matplotlib)
/// beside the report: OUT/STEM-map.png, one picture per family and kernel,
/// each name new (two runs sharing --out keep their own). A write that
/// fails is an error of the run.
void draw_maps(const CheckArgs& args, RunInfo& info, std::vector<FamilyResult>& results) {
    nlohmann::json maps = nlohmann::json::array();
    std::vector<std::string> reserved;
    for (FamilyResult& r : results) {
        for (size_t i = 0; i < r.report.kernels.size(); ++i) {
            check::FamilyKernelReport& k = r.report.kernels[i];
            const std::string who = args.subject.plugin.empty() ? r.family->name + "-" + k.name : info.subject + "-" + r.family->name;
            // The name is taken now, empty; the script fills it.
            const check::Written png = check::write_file_new(args.out, file_stem(who + "-" + std::to_string(args.seed)) + "-map", ".png", "");
            if (!png.ok()) {
                info.errors.push_back({png.path, "validity map not saved: " + png.error});
                continue;
            }
            reserved.push_back(png.path);
            nlohmann::json cells = nlohmann::json::array();
            for (const auto& [key, cell] : k.map)
                cells.push_back({key.first, key.second, cell.cases, cell.wrong_answers, cell.violations,
                                 std::isfinite(cell.measured_k) ? cell.measured_k : 1e300});
            maps.push_back({{"family", r.family->name}, {"kernel", k.name}, {"contract", k.contract.str()},
                            {"domain", info.domain.str()},
                            {"domain_lo", info.domain.everything() ? 0.0 : info.domain.lo},
                            {"domain_hi", info.domain.everything() ? 0.0 : info.domain.hi},
                            {"requires", info.domain.requires_str(*r.family)},
                            {"cases", k.tried}, {"png", png.path}, {"cells", cells}});
            k.map_picture = png.path;
        }
    }
    const check::Written data = check::write_file_new(args.out, "maps-" + std::to_string(args.seed), ".json", maps.dump());
    const auto no_pictures = [&] {
        for (const std::string& p : reserved) std::remove(p.c_str());
        for (FamilyResult& r : results)
            for (check::FamilyKernelReport& k : r.report.kernels) k.map_picture.clear();
    };
    if (!data.ok()) {
        info.errors.push_back({data.path, "validity map data not saved: " + data.error});
        no_pictures();
        return;
    }
    // Installed beside the binary (share/isect), or in the source tree it was built from.
    const fs::path installed = check::installed_file("validity_map.py");
    const std::string script =
        !installed.empty() ? installed.string() : (fs::path(args.source_dir) / "tools" / "validity_map.py").string();
    // The script names each picture it could not write, one line each
    // ("validity_map.py: PATH: reason"); anything else it says goes on.
    std::map<std::string, std::string> not_written;
    int status = -1;
    std::string not_started;
    if (fs::exists(script))
        status = check::run_child({python(), script, data.path}, [&not_written](const std::string& text) {
            const std::string prefix = "validity_map.py: ";
            const size_t colon = text.find(": ", prefix.size());
            if (text.rfind(prefix, 0) == 0 && colon != std::string::npos)
                not_written[text.substr(prefix.size(), colon - prefix.size())] = text.substr(prefix.size());
            else
                std::cerr << text << "\n";
        }, not_started);
    const int code = status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code == 0) return;
    if (code == 3) {
        // Some pictures could not be written: the places left empty are not
        // pictures, and each is an error that says why.
        for (FamilyResult& r : results)
            for (check::FamilyKernelReport& k : r.report.kernels) {
                std::error_code size_ec;
                if (k.map_picture.empty() || fs::file_size(k.map_picture, size_ec) > 0 || size_ec) continue;
                const auto why = not_written.find(k.map_picture);
                info.errors.push_back({k.map_picture, "validity map picture not saved: " +
                                                          (why == not_written.end() ? k.map_picture : why->second) +
                                                          "; its data is in " + data.path});
                std::remove(k.map_picture.c_str());
                k.map_picture.clear();
            }
        return;
    }
    std::cerr << "isect check: no validity map pictures ("
              << (!fs::exists(script) ? script + " is missing"
                  : code == 4         ? "python3 has no matplotlib: apt-get install python3-matplotlib"
                  : status < 0        ? not_started
                                      : python() + " " + script + " failed, its output above")
              << "); the data is in " << data.path << "\n";
    no_pictures();
}

}  // namespace

/// The cases judged first on every kernel: this subject's findings in
/// --out, then the user's own (--replay).
std::vector<StoredFinding> stored_findings(const CheckArgs& args, RunInfo& info) {
    std::vector<StoredFinding> findings = load_findings(args, info.subject);
    if (!args.replay.empty())
        for (StoredFinding& c : load_user_cases(args.replay, info.errors)) findings.push_back(std::move(c));
    return findings;
}

/// The command line checked before anything runs (a usage error says why
/// and is nullopt): the oracle, then the run's flags (settle_run_args).
std::optional<check::Shard> usable(CheckArgs& args) {
    if (args.oracle != "fast" && args.oracle != "slow") {
        std::cerr << "isect check: --oracle '" << args.oracle << "' is not fast or slow\n";
        return std::nullopt;
    }
    return settle_run_args("check", args);
}

/// The families and kernels the run judges: each family (or --family) as
/// the run declares it, with its kernels; --gen keeps the families that have
/// that generator kind. Empty, having said why, when there are none.
std::vector<Target> targets_of(const CheckArgs& args, const check::KernelsUnderTest& under_test) {
    const check::PluginHost* host = under_test.host();
    std::vector<Target> targets;
    for (const Family* base : check::families())
        if (args.family.empty() || args.family == base->name)
            for (const Family* f : under_test.families_of(*base))
                if (std::vector<FamilyKernel> ks = under_test.kernels(*f); !ks.empty()) targets.push_back({f, std::move(ks)});
    if (targets.empty()) {
        if (host) {
            const check::PluginInfo& p = host->info();
            std::string exported;
            for (const std::string& f : p.families) exported += " isect_" + f;
            const bool dbl = check::precision() == check::Precision::double_;
            std::cerr << "isect check: " << p.path
                      << (args.family.empty() ? std::string(" exports no ") + (dbl ? "double" : "float") + " function"
                                              : " does not export isect_" + args.family + (dbl ? "_d" : ""))
                      << " (it exports:" << exported << ")" << (dbl ? "" : "; _d functions take --precision double")
                      << "\n";
        } else if (args.subject.kernel.empty()) {
            std::cerr << "isect check: " << (args.family.empty() ? std::string("no family") : args.family) << " has no built-in "
                      << check::precision_name(check::precision()) << " kernel; `isect kernels` lists them\n";
        } else {
            std::cerr << "isect check: no " << check::precision_name(check::precision()) << " kernel named '"
                      << args.subject.kernel << "'" << (args.family.empty() ? "" : " in " + args.family)
                      << "; `isect kernels` lists them (built-in ones and broken:NAME fixtures)\n";
        }
        return {};
    }
    if (!args.gen.empty()) {  // only the families that have this generator kind
        std::vector<Target> keep;
        for (const Target& t : targets)
            if (has_gen_kind(*t.family, args.gen)) keep.push_back(t);
        if (keep.empty()) {
            std::cerr << "isect check: no family checked has a generator kind '" << args.gen << "'\n";
            return {};
        }
        targets = keep;
    }
    return targets;
}

/// Whether every relation asked (--relation, isect_relations()) applies to
/// some family checked; else says why not.
bool relations_apply(const std::string& command, const check::KernelsUnderTest& under_test, const std::vector<Target>& targets) {
    for (check::Relation::Kind kind : under_test.relation_kinds()) {
        std::string why;
        bool some = false;
        for (const Target& t : targets) {
            const std::string no = check::relation_unsupported(*t.family, kind);
            if (no.empty()) some = true;
            else if (why.empty()) why = no;
        }
        if (!some) {
            std::cerr << "isect " << command << ": --relation " << check::Relation{kind}.name()
                      << " applies to no family checked (" << why << ")\n";
            return false;
        }
    }
    return true;
}

/// How one family's run goes: the oracle, the case stream (this run's
/// seed, shard, generator kind and domain), each worker's kernels, the
/// classes minimised, when it stops, whether it shows progress.
check::FamilyCheckOptions family_options(const CheckArgs& args, const check::Shard& shard, const RunInfo& info, size_t jobs,
                                         const check::KernelsUnderTest& under_test, const Target& t) {
    const check::PluginHost* host = under_test.host();
    check::FamilyCheckOptions options = run_options(args, shard, info.domain);
    options.oracle = args.oracle == "slow" ? check::Oracle::slow : check::Oracle::fast;
    // A plugin's calls go to each worker's own process; built-in
    // kernels are shared.
    if (host)
        for (size_t w = 1; w < jobs; ++w) options.worker_kernels.push_back(under_test.kernels(*t.family, nullptr, w));
    options.relations = under_test.relations(*t.family, t.kernels);
    options.stop_at_first = args.stop_at_first;
    options.stop_at_hang = host != nullptr;
    options.progress = !args.quiet && args.format == "text" && (args.seconds > 3 || args.cases > 20000);
    return options;
}

int run_check(const CheckArgs& args_in) {
    CheckArgs args = args_in;
    const std::optional<check::Shard> shard_given = usable(args);
    if (!shard_given) return 2;
    const check::Shard shard = *shard_given;
    // Blocks of at least 16 cases: more workers than blocks would wait.
    const size_t jobs = check::workers_for("check", args.jobs, args.cases ? (args.cases + 15) / 16 : 0);
    // Nothing runs before the findings have a place to go.
    if (const std::string why = check::probe_folder(args.out); !why.empty()) {
        std::cerr << "isect check: --out " << why << "\n";
        return 2;
    }
    args.subject.output_dir = args.out;  // what a plugin prints: a log beside the findings
    const auto under_test = check::KernelsUnderTest::make("check", args.subject);
    if (!under_test || !under_test->start_workers("check", jobs)) return 2;
    check::PluginHost* host = under_test->host();
    RunInfo info;
    info.seed = args.seed;
    info.shard = shard;
    info.max_cases = args.cases;
    info.jobs = jobs;
    info.timeout_ms = args.subject.timeout_ms;
    info.take_subject(*under_test);
    std::vector<Target> targets = targets_of(args, *under_test);
    if (targets.empty()) return 2;
    if (!relations_apply("check", *under_test, targets)) return 2;
    info.show_maps = args.map || host;

    const std::vector<StoredFinding> findings = stored_findings(args, info);
    check::FindingFiles files(args.out);
    check::catch_interrupts();
    // Every family's run, on one set of workers: a worker done with one
    // family's cases goes on to the next while the others finish theirs.
    std::vector<check::FamilyRun> runs;
    std::vector<FamilyResult> all(targets.size());
    std::vector<std::vector<check::Relation>> runs_relations(targets.size());
    std::mutex files_lock;  // on_new_class and on_done come from different workers
    for (size_t n = 0; n < targets.size(); ++n) {
        const Target& t = targets[n];
        check::FamilyCheckOptions options = family_options(args, shard, info, jobs, *under_test, t);
        FamilyResult& r = all[n];
        r.family = t.family;
        r.precision = check::precision();
        r.report_domain = info.domain.str();
        // Each class's first member is written as it is found: a run killed
        // later (a CI timeout's SIGKILL) keeps it.
        options.on_new_class = [&, n](size_t i, const check::FailureClass& found) {
            const Target& tn = targets[n];
            const check::FamilyKernelReport k = check::kernel_report_for(tn.kernels[i]);
            check::FailureClass fc = found;
            const std::lock_guard<std::mutex> lock(files_lock);
            files.keep_class(*tn.family, {tn.family->name, check::FindingKey::Of::kernel_class, i, fc.key},
                             witness_stem(args, info.subject, *tn.family, k.name), fc,
                             witness_origin(args, info.subject, all[n].report_domain, k.name + " breaks " + k.contract.str(),
                                            "kept as found while the run went on"));
        };
        options.on_new_relation_class = [&, n](size_t i, const check::FailureClass& found) {
            const Target& tn = targets[n];
            const check::RelationReport rel = check::relation_report_for(runs_relations[n][i], tn.kernels);
            check::FailureClass fc = found;
            const std::lock_guard<std::mutex> lock(files_lock);
            keep_relation_witness(args, info.subject, all[n].report_domain, *tn.family, rel, fc,
                                  "kept as found while the run went on", files);
        };
        runs_relations[n] = options.relations;
        r.replayed = replay_findings(findings, t, info.domain, r.problems);
        runs.push_back({t.family, t.kernels, std::move(options)});
    }
    std::vector<std::optional<check::FamilyCheckReport>> reports;
    try {
        reports = check::run_family_checks(runs, jobs, [&](size_t n, check::FamilyCheckReport& report) {
            all[n].report = std::move(report);
            const std::lock_guard<std::mutex> lock(files_lock);
            keep_findings(args, info.subject, all[n], targets[n].kernels, files);
        });
    } catch (const std::exception& e) {
        std::cerr << "isect check: " << e.what() << "\n";
        return 2;
    }
    std::vector<FamilyResult> results;
    for (size_t n = 0; n < targets.size(); ++n) {
        if (!reports[n]) continue;  // not begun when a signal came
        if (all[n].report.cases == 0 && !all[n].report.interrupted) {
            std::cerr << "isect check: " << targets[n].family->name << ": no case was judged (--seconds "
                      << check::format_k(args.seconds) << "); a verdict on nothing is no verdict: give more time or --cases N\n";
            return 2;
        }
        results.push_back(std::move(all[n]));
    }
    for (const std::string& e : files.errors())
        info.errors.push_back({e.substr(0, e.find(": ")),
                               (e.find("; the file holds") == std::string::npos ? "finding not saved: " : "minimised finding not saved: ") + e});
    if (check::interrupted()) info.interrupted = check::interrupt_name();
    info.fp_env = under_test->fp_env_line();
    info.notes = under_test->notes();
    // ISECT_MAP_PICTURES=0: the maps' tables in the report, no pictures and
    // no data for them (a CI run that keeps none, or a test suite that
    // draws them where it looks at them: each costs python and matplotlib
    // about a second).
    const char* pictures = std::getenv("ISECT_MAP_PICTURES");
    if (info.show_maps && !check::interrupted() && !(pictures && std::string(pictures) == "0")) draw_maps(args, info, results);
    print_report(std::cout, args.format, info, results);
    if (check::interrupted()) return check::interrupted_status();
    for (const FamilyResult& r : results)
        if (!r.passed(false)) return 1;
    return info.errors.empty() ? 0 : 2;
}

CLI::App* add_check_command(CLI::App& app, CheckArgs& a) {
    CLI::App* c = app.add_subcommand("check", "Check kernels through generators, both references and their contracts");
    add_run_options(c, a);
    add_subject_options(c, a.subject, "not generated, nor judged");
    c->add_flag("--map", a.map, "Validity map tables and pictures for every kernel (always with --plugin)");
    c->add_option("--oracle", a.oracle,
                  "fast: interval oracles first, the references where they cannot decide (default); slow: the references alone");
    c->add_flag("--quiet", a.quiet, "No progress on stderr");
    c->add_flag("--stop-at-first", a.stop_at_first, "Stop once every kernel checked has broken its contract or a relation it is judged for");
    c->add_option("--replay", a.replay, "A folder of your own case files, judged first on every kernel");
    return c;
}

}  // namespace isect::tool
