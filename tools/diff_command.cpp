#include "diff_command.hpp"

#include "options.hpp"

#include <iostream>
#include <memory>
#include <mutex>

#include "check_command.hpp"
#include "check/io/case_file.hpp"
#include "check/io/interrupt.hpp"
#include "check/io/plugin_host.hpp"
#include "check/io/safe_write.hpp"
#include "check/engine/kernels_under_test.hpp"
#include "check/engine/findings.hpp"
#include "report.hpp"

namespace isect::tool {

namespace {

using check::Family;
using check::FamilyKernel;

bool is_plugin(const std::string& subject) {
    return subject.find('/') != std::string::npos ||
           (subject.size() > 3 && subject.compare(subject.size() - 3, 3, ".so") == 0);
}

/// One side of the diff: a plugin, or a built-in kernel's name.
struct Side {
    std::unique_ptr<check::KernelsUnderTest> under_test;
    std::string name() const { return under_test->subject(); }
    /// Its kernel for family f in the run's precision (worker w's), or nullopt.
    std::optional<FamilyKernel> kernel(const Family& f, size_t w = 0) const {
        std::vector<FamilyKernel> k = under_test->kernels(f, nullptr, w);
        if (k.empty()) return std::nullopt;
        return k.front();
    }
};

}  // namespace

int run_diff(const DiffArgs& args_in) {
    DiffArgs args = args_in;
    const std::optional<check::Shard> shard = settle_run_args("diff", args);
    if (!shard) return 2;
    if (const std::string why = check::probe_folder(args.out); !why.empty()) {
        std::cerr << "isect diff: --out " << why << "\n";
        return 2;
    }
    const size_t jobs = check::workers_for("diff", args.jobs, args.cases ? (args.cases + 15) / 16 : 0);
    // Each side a plugin (a path) or a built-in kernel's name, in one scope
    // and floating-point environment.
    Side a, b;
    for (auto [side, subject] : {std::pair{&a, &args.a}, std::pair{&b, &args.b}}) {
        check::SubjectArgs sub = args.scope;
        (is_plugin(*subject) ? sub.plugin : sub.kernel) = *subject;
        sub.output_dir = args.out;
        side->under_test = check::KernelsUnderTest::make("diff", sub);
        if (!side->under_test || !side->under_test->start_workers("diff", jobs)) return 2;
    }
    RunInfo info;
    info.command = "diff";
    info.subject = "A = " + a.name() + ", B = " + b.name();
    info.seed = args.seed;
    info.tolerance = args.tolerance;
    info.shard = *shard;
    info.jobs = jobs;
    info.max_cases = args.cases;
    info.timeout_ms = args.scope.timeout_ms;
    info.domain = a.under_test->domain();
    // The relation "A and B agree", judged on the case stream isect check
    // judges for this seed, by the engine's workers (a plugin's worker
    // process each); no contract is judged.
    std::vector<check::FamilyRun> runs;
    // The families as the scope declares them (its conventions, its mesh),
    // as isect check judges them; --gen keeps those with that kind.
    for (const Family* base : check::families()) {
        if (!args.family.empty() && args.family != base->name) continue;
        for (const Family* f : a.under_test->families_of(*base)) {
            const auto ka = a.kernel(*f), kb = b.kernel(*f);
            if (!ka || !kb) continue;
            if (!has_gen_kind(*f, args.gen)) continue;
            check::FamilyCheckOptions options = run_options(args, *shard, info.domain);
            for (size_t w = 1; w < jobs; ++w) options.worker_kernels.push_back({*a.kernel(*f, w), *b.kernel(*f, w)});
            options.contracts = false;
            options.relations.push_back({check::Relation::Kind::agree, 0, 1, args.tolerance});
            // Each side's relations (asked with --relation, or claimed), on its
            // own calls, beside the agreement.
            for (const check::Relation& r : a.under_test->relations(*f, {*ka})) options.relations.push_back({r.kind, 0, 0, 0});
            for (const check::Relation& r : b.under_test->relations(*f, {*kb})) options.relations.push_back({r.kind, 1, 1, 0});
            runs.push_back({f, {*ka, *kb}, std::move(options)});
        }
    }
    if (runs.empty()) {
        std::cerr << "isect diff: no family " << (args.family.empty() ? "" : "'" + args.family + "' ")
                  << (args.gen.empty() ? "" : "with a generator kind '" + args.gen + "' ") << "has a "
                  << check::precision_name(check::precision()) << " kernel on both sides ('" << a.name()
                  << "', '" << b.name() << "'); `isect kernels` lists the built-in ones\n";
        return 2;
    }
    check::FindingFiles files(args.out);
    std::mutex files_lock;  // on_new_relation_class and on_done come from different workers
    // Each class's witness, with the run that found it and its signature.
    const auto keep = [&](const Family& f, check::FailureClass& fc, const std::string& place) {
        const check::FindingOrigin origin{"isect diff, seed " + std::to_string(args.seed) + ", domain " + info.domain.str() +
                                              "\n" + info.subject,
                                          place, ""};
        return files.keep_class(f, {f.name, check::FindingKey::Of::relation_class, 0, fc.key},
                                file_stem("diff-" + a.name() + "-" + b.name()).substr(0, 120) + "-" + f.name + "-" +
                                    std::to_string(args.seed),
                                fc, origin);
    };
    for (check::FamilyRun& run : runs)
        // Each class's first member is written as it is found: a run
        // killed later keeps it.
        run.options.on_new_relation_class = [&, f = run.family](size_t, const check::FailureClass& found) {
            check::FailureClass fc = found;
            const std::lock_guard<std::mutex> lock(files_lock);
            keep(*f, fc, "kept as found while the run went on");
        };
    std::vector<FamilyResult> all(runs.size());
    check::catch_interrupts();
    std::vector<std::optional<check::FamilyCheckReport>> reports;
    try {
        reports = check::run_family_checks(runs, jobs, [&](size_t n, check::FamilyCheckReport& report) {
            FamilyResult& r = all[n];
            r.family = runs[n].family;
            r.precision = check::precision();
            r.report_domain = info.domain.str();
            r.report = std::move(report);
            const std::lock_guard<std::mutex> lock(files_lock);
            for (check::RelationReport& rel : r.report.relations)
                for (size_t c = 0; c < rel.classes.size(); ++c) {
                    keep(*r.family, rel.classes[c],
                         "class " + std::to_string(c + 1) + " of " + std::to_string(rel.classes.size()));
                }
        });
    } catch (const std::exception& e) {
        std::cerr << "isect diff: " << e.what() << "\n";
        return 2;
    }
    std::vector<FamilyResult> results;
    for (size_t n = 0; n < runs.size(); ++n) {
        if (!reports[n]) continue;  // not begun when a signal came
        if (all[n].report.cases == 0 && !all[n].report.interrupted) {
            std::cerr << "isect diff: " << runs[n].family->name << ": no input was judged (--seconds "
                      << check::format_k(args.seconds) << "); give more time or --cases N\n";
            return 2;
        }
        results.push_back(std::move(all[n]));
    }
    for (const std::string& e : files.errors()) info.errors.push_back({e.substr(0, e.find(": ")), "witness not saved: " + e});
    if (check::interrupted()) info.interrupted = check::interrupt_name();
    info.fp_env = a.under_test->fp_env_line();
    if (b.under_test->fp_env_line() != info.fp_env)
        info.fp_env = "A: " + info.fp_env + "; B: " + b.under_test->fp_env_line();
    print_report(std::cout, args.format, info, results);
    if (check::interrupted()) return check::interrupted_status();
    for (const FamilyResult& r : results)
        if (!r.passed(false)) return 1;
    return info.errors.empty() ? 0 : 2;
}

CLI::App* add_diff_command(CLI::App& app, DiffArgs& a) {
    CLI::App* c = app.add_subcommand("diff", "Two kernels on the same inputs: where they disagree, and which one the references side with");
    c->add_option("a", a.a, "A plugin (a path) or a built-in kernel's name")->required();
    c->add_option("b", a.b, "Another plugin or built-in kernel")->required();
    add_run_options(c, a);
    add_scope_options(c, a.scope, "not generated, nor judged");
    c->add_option("--tolerance", a.tolerance,
                  "Numbers may differ by this many u max(|a|, |b|) (u = 2^-24 or 2^-53; default 0: any difference)")
        ->check(real_in(0, 1e15));
    return c;
}

}  // namespace isect::tool
