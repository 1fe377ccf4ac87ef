#include "replay_command.hpp"

#include "options.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "check_command.hpp"
#include "check/engine/case_stream.hpp"
#include "check/engine/relation.hpp"
#include "check/engine/witness.hpp"
#include "check/io/case_file.hpp"
#include "check/io/interrupt.hpp"
#include "check/io/plugin_host.hpp"
#include "check/engine/kernels_under_test.hpp"
#include "report.hpp"

namespace isect::tool {

namespace {

using check::Family;
using check::FamilyKernel;

/// What a kernel answered, for -v: the answer, and how it stands; a kernel
/// that did not run on the case says why.
std::string answer_line(const Family& f, const FamilyKernel& k, const check::Inputs& in, const check::Truth& truth,
                        const check::FamilyJudgement& j) {
    std::string line = "      " + k.name + " (" + k.contract.str() + "): ";
    if (j.outside) return line + "not run: outside the domain it declares (" + (k.domain ? k.domain->str_with_requirements() : "") + ")";
    if (j.failure) return line + check::failure_kind_name(*j.failure) + ": " + j.why;
    if (j.got.answer < 0 || j.got.answer >= int(f.answers.size())) return line + j.why;
    line += "answers " + f.answers[size_t(j.got.answer)];
    std::string perturbed;  // the input that shows the witnessed K, under the line
    if (j.answer_differs) {
        line += ", exact is " + f.answers[size_t(truth.answer)] + (j.in_band ? ", inside its band" : ", outside its band");
        // The band's K bounds the least K that explains the answer from
        // below; an input whose exact answer is the kernel's, each number
        // within K' roundings of this one, bounds it from above.
        const double band_k = check::measured_k(f, in, truth);
        if (band_k <= 0x1p-40) {  // measured_k's least K: an exact touch
            line += " (it touches: any move can flip it)";
        } else if (const std::optional<check::Perturbation> p = check::flipping_perturbation(f, in, j.got.answer, band_k); !p) {
            line += " (band K " + check::format_k(band_k) + "; no input within 2^40 roundings has the kernel's answer)";
        } else {
            line += " (band K " + check::format_k(band_k) + "; witnessed K " + check::format_k(p->k) +
                    ": this input, each number within " + check::format_k(p->k) + " roundings of the case's, is exactly " +
                    f.answers[size_t(j.got.answer)] + ")";
            std::istringstream text(check::show_family_input(f, p->input));
            for (std::string l; std::getline(text, l);)
                if (l.rfind("family", 0) != 0 && l.rfind("expect", 0) != 0) perturbed += "\n        " + l;
        }
    } else if (f.answer_has_values[size_t(truth.answer)]) {
        line += ", numbers within " + check::format_k(j.error.e) + " x " + check::unit_name() + " S" +
                (j.error.output.empty() ? "" : " (worst: " + std::string(j.error.output) + ")");
    }
    line += (j.violates ? ": BREAKS the contract" : "") + perturbed;
    // Its numbers beside the exact ones, where it gave any: what a
    // maintainer reads first.
    if (f.answer_has_values[size_t(j.got.answer)] && !j.got.values.empty()) {
        for (size_t i = 0; i < j.got.values.size() && i < f.outputs.size(); ++i) {
            if (j.got.unprovided >> i & 1) continue;
            line += "\n        " + f.outputs[i] + "  " + check::format_number(j.got.values[i]);
            if (truth.answer == j.got.answer && i < truth.values.size())
                line += "  (exact " + check::format_number(truth.values[i]) + ")";
        }
    }
    return line;
}

/// One case file, read and judged by a worker: the references on it always,
/// and the kernels under test of its family (that worker's) where they take
/// it.
struct JudgedFile {
    bool done = false;
    check::ReadResult read;
    std::vector<FamilyKernel> kernels;
    std::string why;          ///< why no kernel under test takes it (its precision, its conventions)
    std::string outside;      ///< why it is outside the domain; empty when inside
    std::string disagreement; ///< the references disagree on it
    check::Truth truth;
    std::vector<check::FamilyJudgement> judgements;
    /// The relations judged on it (of a kernel: asked, claimed, or the
    /// case's own `relation` line where the kernel is named), each with its
    /// break, if it broke.
    std::vector<std::pair<check::Relation, std::optional<check::RelationBreak>>> relations;
};

JudgedFile judge_file(const std::string& file, bool strict, const check::KernelsUnderTest& under_test, size_t worker) {
    JudgedFile out;
    out.done = true;
    out.read = check::read_case_file(file, strict);
    const auto* c = std::get_if<check::FamilyCase>(&out.read);
    if (!c) return out;
    const check::PrecisionScope scope(c->precision);
    out.kernels = under_test.kernels(*c->family, &out.why, worker);
    if (!out.kernels.empty()) out.outside = under_test.domain().outside(*c->family, c->in.data());
    // The one judge, the references on every case; the kernels where they take it.
    static const std::vector<FamilyKernel> none;
    const bool run_kernels = !out.kernels.empty() && out.outside.empty();
    check::CaseJudge judged(*c->family, run_kernels ? out.kernels : none, c->in, check::Oracle::slow, false);
    judged.finish();
    out.disagreement = judged.disagreement();
    if (out.disagreement.empty()) {
        out.truth = judged.truth();
        out.judgements = judged.judgements();
    }
    if (!out.disagreement.empty() || !run_kernels) return out;
    std::vector<check::Relation> relations = under_test.relations(*c->family, out.kernels);
    if (under_test.named())
        for (const check::RelationKind kind : c->relations)
            for (size_t i = 0; i < out.kernels.size(); ++i) {
                const check::Relation rel{kind, i, i, 0};
                const bool have = std::any_of(relations.begin(), relations.end(),
                                              [&](const check::Relation& r) { return r.kind == rel.kind && r.a == i; });
                if (!have) relations.push_back(rel);
            }
    // A witness that holds its neighbours is judged against them.
    const std::unique_ptr<check::Family> around =
        c->neighbours.empty() ? nullptr : check::with_neighbours(*c->family, c->in, c->neighbours);
    for (const check::Relation& rel : relations)
        out.relations.emplace_back(rel, check::judge_relation(around ? *around : *c->family, rel, out.kernels, c->in));
    return out;
}

}  // namespace

/// What replay counts, file by file in file order: a result per family and
/// precision (a double case runs the double kernels), each class's case
/// file, the lines of the text report, and the files passed, failed and
/// skipped.
struct ReplayTally {
    const ReplayArgs& args;
    RunInfo& info;
    std::ostream& lines;
    std::vector<FamilyResult> results;
    std::vector<std::vector<std::map<std::string, std::string>>> witness_files;  // per family, kernel: class -> file
    size_t passed = 0, failed = 0, skipped = 0;

    size_t result_for(const Family& f, size_t kernels) {
        for (size_t i = 0; i < results.size(); ++i)
            if (results[i].family == &f && results[i].precision == check::precision()) {
                if (witness_files[i].size() < kernels) witness_files[i].resize(kernels);
                return i;
            }
        FamilyResult r;
        r.family = &f;
        r.precision = check::precision();
        r.report.family = f.name;
        r.report.oracle = check::Oracle::slow;  // the references judge every case
        r.report_domain = info.domain.str();
        results.push_back(std::move(r));
        witness_files.emplace_back(kernels);
        return results.size() - 1;
    }

    /// One file's judgement (a case file read and judged).
    void add(const std::string& file, const JudgedFile& jf) {
        const check::FamilyCase& c = std::get<check::FamilyCase>(jf.read);
        const check::PrecisionScope scope(c.precision);  // its kernels, bands and numbers
        for (const std::string& w : c.warnings) std::cerr << "warning: " << w << " (--strict makes this an error)\n";
        const Family& f = *c.family;
        const std::vector<FamilyKernel>& kernels = jf.kernels;
        if (kernels.empty() || !jf.outside.empty()) {
            // No kernel under test takes it: a skip with its reason; the
            // references still reproduce its expect.
            std::vector<std::string> problems;
            if (!jf.disagreement.empty()) problems.push_back(jf.disagreement);
            else problems = check::expectation_problems(c, jf.truth);
            const std::string why = kernels.empty() ? jf.why
                                    : jf.outside.rfind("misses --require", 0) == 0 ? jf.outside
                                                                                   : "outside the domain (" + jf.outside + ")";
            if (!problems.empty()) {
                ++failed;
                FamilyResult& r = results[result_for(f, 0)];
                for (const std::string& p : problems) {
                    lines << "FAIL  " << file << ": " << p << "\n";
                    r.problems.push_back({file, p});
                }
                info.cases.push_back({file, c.family->name, check::precision_name(c.precision), "failed", problems.front()});
                return;
            }
            ++skipped;
            if (!kernels.empty()) ++results[result_for(f, kernels.size())].outside_domain;
            lines << "skip  " << file << ": " << why << " (the references reproduce its expect)\n";
            info.cases.push_back({file, c.family->name, check::precision_name(c.precision), "skipped", why});
            return;
        }
        FamilyResult& r = results[result_for(f, kernels.size())];
        auto& files_of = witness_files[size_t(&r - results.data())];
        if (r.report.kernels.empty())
            for (const FamilyKernel& k : kernels) r.report.kernels.push_back(check::kernel_report_for(k));
        ++r.report.cases;
        ++r.report.reference_cases;
        std::vector<std::string> problems, notes;
        if (!jf.disagreement.empty()) {
            problems.push_back(jf.disagreement);
            if (!r.report.reference_mismatches++) {
                r.report.mismatch = c.in;
                r.report.mismatch_message = jf.disagreement;
                r.mismatch_path = file;
            }
        } else {
            const check::Truth& truth = jf.truth;
            for (const std::string& p : check::expectation_problems(c, truth)) problems.push_back(p);
            for (size_t i = 0; i < kernels.size(); ++i) {
                const FamilyKernel& k = kernels[i];
                const check::FamilyJudgement& j = jf.judgements[i];
                if (args.verbose) notes.push_back(answer_line(f, k, c.in, truth, j));
                const check::FailureClass* fc =
                    check::tally_judgement(f, k, r.report.kernels[i], c.in, truth, j, r.report.cases);
                if (fc && fc->witness == c.in) files_of[i][fc->key.str()] = file;
                // Its relations on the case: a claim broken is a broken
                // case, as a contract broken is.
                std::string relation_broken;
                for (const auto& [rel, brk] : jf.relations) {
                    if (rel.a != i) continue;
                    check::RelationReport& rr = relation_report(r, rel, kernels);
                    ++rr.tried;
                    if (!brk) continue;
                    ++rr.violations;
                    if (!brk->side.empty()) ++rr.sides[brk->side];
                    check::FailureClass& rc = check::count_in_class(f, rr.classes, brk->key, c.in, r.report.cases, brk->why);
                    if (rc.witness == c.in) rc.case_path = file;
                    if (relation_broken.empty()) relation_broken = "breaks the relation " + rel.name() + ": " + brk->why;
                }
                const bool broken = j.violates || !relation_broken.empty();
                if (broken != args.expect_broken)
                    problems.push_back("kernel " + k.name + " (" + k.contract.str() + ") " +
                                       (j.violates ? "breaks it: " + j.why
                                        : broken   ? relation_broken
                                                   : "keeps it" + std::string(jf.relations.empty() ? "" : " and its relations") +
                                                       ", and was expected to break it"));
            }
        }
        info.cases.push_back({file, f.name, check::precision_name(c.precision), problems.empty() ? "passed" : "failed",
                              problems.empty() ? "" : problems.front()});
        if (problems.empty()) {
            ++passed;
            if (args.verbose) lines << "ok    " << file << "\n";
        } else {
            ++failed;
            for (const std::string& p : problems) {
                lines << "FAIL  " << file << ": " << p << "\n";
                // A broken contract is in the kernel table; the rest only here.
                if (p.rfind("kernel ", 0) != 0 || args.expect_broken) r.problems.push_back({file, p});
            }
        }
        for (const std::string& note : notes) lines << note << "\n";
    }

    /// Relation rel's report in r, made when first judged.
    static check::RelationReport& relation_report(FamilyResult& r, const check::Relation& rel,
                                                  const std::vector<FamilyKernel>& kernels) {
        const std::string subject = rel.subject(kernels);
        for (check::RelationReport& x : r.report.relations)
            if (x.relation == rel.kind && x.subject == subject) return x;
        r.report.relations.push_back(check::relation_report_for(rel, kernels));
        return r.report.relations.back();
    }

    /// Each kernel's classes in order, each with its case file.
    void finish() {
        for (size_t i = 0; i < results.size(); ++i) {
            FamilyResult& r = results[i];
            for (size_t k = 0; k < r.report.kernels.size(); ++k) {
                check::sort_classes(r.report.kernels[k].classes);
                for (check::FailureClass& fc : r.report.kernels[k].classes) fc.case_path = witness_files[i][k][fc.key.str()];
            }
            for (check::RelationReport& rel : r.report.relations) check::sort_classes(rel.classes);
        }
    }
};

int run_replay(const ReplayArgs& args) {
    if (!known_format(args.format)) {
        std::cerr << "isect replay: --format '" << args.format << "' is not text, markdown, json or junit\n";
        return 2;
    }
    if (args.expect_broken && args.subject.plugin.empty() && args.subject.kernel.empty()) {
        std::cerr << "isect replay: --expect-broken needs --kernel or --plugin\n";
        return 2;
    }
    const size_t jobs = check::workers_for("replay", args.jobs);
    const auto under_test = check::KernelsUnderTest::make("replay", args.subject);
    if (!under_test || !under_test->start_workers("replay", jobs)) return 2;
    check::PluginHost* host = under_test->host();
    RunInfo info;
    info.command = "replay";
    info.expect_broken = args.expect_broken;
    info.take_subject(*under_test);
    // The per-file lines are the text report's; beside another format they
    // are progress, on stderr.
    std::ostream& lines = args.format == "text" ? std::cout : std::cerr;

    ReplayTally tally{args, info, lines, {}, {}};

    std::vector<check::CaseError> errors;
    const std::vector<std::string> files = check::expand_case_paths(args.paths, errors);
    check::catch_interrupts();
    // The workers judge the files (the references on every case, the
    // kernels each worker's own); the report is then written in file order.
    std::vector<JudgedFile> judged(files.size());
    std::atomic<size_t> next{0};
    check::run_workers(jobs, [&](size_t w) {
        for (size_t i; !check::interrupted() && (i = next.fetch_add(1)) < files.size();)
            judged[i] = judge_file(files[i], args.strict, *under_test, w);
    });
    for (size_t n = 0; n < files.size(); ++n) {
        JudgedFile& jf = judged[n];
        if (!jf.done) break;  // interrupted before it was judged
        if (const auto* errs = std::get_if<std::vector<check::CaseError>>(&jf.read)) {
            errors.insert(errors.end(), errs->begin(), errs->end());
            continue;
        }
        tally.add(files[n], jf);
    }
    tally.finish();
    const size_t passed = tally.passed, failed = tally.failed, skipped = tally.skipped;
    std::vector<FamilyResult>& results = tally.results;
    for (const check::CaseError& e : errors) {
        std::cerr << "error: " << e.str() << "\n";
        info.errors.push_back({e.path, e.str()});
    }
    // A verdict on nothing is no verdict: no case judged is an error.
    const bool nothing = passed + failed == 0 && !check::interrupted();
    if (nothing) {
        std::string where;
        for (const std::string& p : args.paths) where += (where.empty() ? "" : ", ") + p;
        const std::string why = files.empty() ? "no case files (*.case) in " + where
                                              : "no case was judged by a kernel under test (" + std::to_string(files.size()) +
                                                    " files, " + std::to_string(skipped) + " skipped, each with its reason above, " +
                                                    std::to_string(errors.size()) + " errors)";
        std::cerr << "isect replay: " << why << "\n";
        if (errors.empty()) info.errors.push_back({where, why});
    }
    if (check::interrupted()) info.interrupted = check::interrupt_name();
    info.fp_env = under_test->fp_env_line();
    info.notes = under_test->notes();
    if (args.format == "text") lines << "\n";
    print_report(std::cout, args.format, info, results);
    lines << "replay" << (host ? " --plugin " + host->info().name : args.subject.kernel.empty() ? "" : " --kernel " + args.subject.kernel)
          << ": " << files.size() << " files, " << passed << " passed, " << failed << " failed, " << skipped
          << " skipped (outside the domain or preconditions, or taken by no kernel under test), " << errors.size() << " errors"
          << (check::interrupted() ? ", INTERRUPTED" : "") << "\n";
    // The one exit rule (isect_main.cpp): a broken contract outranks an
    // error, so that a bisect never skips a bad commit for a bad file.
    if (check::interrupted()) return check::interrupted_status();
    if (failed) return 1;
    return !errors.empty() || nothing ? 2 : 0;
}

int run_promote(const std::vector<std::string>& files, const std::string& corpus) {
    namespace fs = std::filesystem;
    int status = 0;
    for (const std::string& file : files) {
        const check::ReadResult r = check::read_case_file(file);
        if (const auto* errors = std::get_if<std::vector<check::CaseError>>(&r)) {
            for (const auto& e : *errors) std::cerr << "error: " << e.str() << "\n";
            status = 2;
            continue;
        }
        const check::FamilyCase& c = std::get<check::FamilyCase>(r);
        const check::PrecisionScope scope(c.precision);
        std::vector<std::string> problems;
        try {
            problems = check::expectation_problems(c, c.family->truth(c.in.data()));
        } catch (const std::exception& e) {
            problems.push_back(e.what());
        }
        if (!problems.empty()) {
            for (const std::string& p : problems) std::cerr << "isect promote: " << file << ": " << p << "; not promoted\n";
            status = 2;
            continue;
        }
        const fs::path to = fs::path(corpus) / c.family->name / fs::path(file).filename();
        std::error_code ec;
        if (fs::exists(to, ec)) {
            std::cerr << "isect promote: " << to.string() << " already exists; rename " << file << " first\n";
            status = 2;
            continue;
        }
        fs::create_directories(to.parent_path(), ec);
        fs::rename(file, to, ec);
        if (ec) {  // another file system: copy, then remove
            ec.clear();
            fs::copy_file(file, to, ec);
            if (!ec) fs::remove(file, ec);
        }
        if (ec) {
            std::cerr << "isect promote: " << file << " -> " << to.string() << ": " << ec.message() << "\n";
            status = 2;
            continue;
        }
        std::cout << "promoted " << file << " -> " << to.string() << "\n";
    }
    return status;
}

CLI::App* add_replay_command(CLI::App& app, ReplayArgs& a) {
    CLI::App* c = app.add_subcommand("replay", "Check case files: references reproduce expect, kernels keep contracts");
    c->add_option("paths", a.paths, "Case files or folders (searched for *.case)")->required();
    c->add_flag("-v,--verbose", a.verbose, "Every case, and each kernel's answer on it");
    add_subject_options(c, a.subject, "skipped, and listed (a case that says another convention too)");
    c->add_flag("--expect-broken", a.expect_broken, "With --kernel or --plugin: every case must break the contract");
    c->add_flag("--strict", a.strict, "A number that is not exactly a float (0.1) is an error, not a warning");
    c->add_option("--format", a.format, "Report as text, markdown, json or junit");
    c->add_option("--jobs,-j", a.jobs, "Workers judging the files (default 0: every core available); the report is the same")
        ->check(whole_in(0, 4096));
    return c;
}

}  // namespace isect::tool
