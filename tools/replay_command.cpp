#include "replay_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include "check_command.hpp"
#include "isect/check/case_file.hpp"
#include "isect/check/plugin.hpp"
#include "report.hpp"

namespace isect::tool {

namespace {

using check::Family;
using check::FamilyKernel;

/// The kernels a case of family f is replayed through; empty with a reason
/// when there are none.
std::vector<FamilyKernel> kernels_for(const ReplayArgs& args, const Family& f, check::PluginHost* host,
                                      const check::Contract& contract, std::string& why) {
    if (host) {
        if (!host->info().exports(f, check::precision())) {
            why = host->info().name + " does not export isect_" + f.name +
                  (check::precision() == check::Precision::double_ ? "_d (the case says precision double)" : "");
            return {};
        }
        return {host->kernel(f, contract, args.error_e)};
    }
    if (args.kernel.empty()) return f.kernels();
    if (const auto k = f.find_kernel(args.kernel)) return {*k};
    why = f.name + " has no kernel named '" + args.kernel + "'";
    return {};
}

/// What a kernel answered, for -v: the answer, and how it stands.
std::string answer_line(const Family& f, const FamilyKernel& k, const check::Truth& truth,
                        const check::FamilyJudgement& j) {
    std::string line = "      " + k.name + " (" + k.contract.str() + "): ";
    if (j.got.answer < 0 || j.got.answer >= int(f.answers.size())) return line + j.why;
    line += "answers " + f.answers[size_t(j.got.answer)];
    if (j.answer_differs)
        line += ", exact is " + f.answers[size_t(truth.answer)] + (j.in_band ? ", inside its band" : ", outside its band");
    else if (f.answer_has_values[size_t(truth.answer)])
        line += ", numbers within " + check::format_k(j.error.e) + " x " + check::unit_name() + " S" +
                (j.error.output.empty() ? "" : " (worst: " + std::string(j.error.output) + ")");
    return line + (j.violates ? ": BREAKS the contract" : "");
}

}  // namespace

int run_replay(const ReplayArgs& args) {
    if (!known_format(args.format)) {
        std::cerr << "isect replay: --format '" << args.format << "' is not text, markdown, json or junit\n";
        return 2;
    }
    const auto contract = check::Contract::parse(args.contract);
    if (!contract) {
        std::cerr << "isect replay: --contract '" << args.contract << "' is not exact, conservative or tolerant=K\n";
        return 2;
    }
    if (args.expect_broken && args.plugin.empty() && args.kernel.empty()) {
        std::cerr << "isect replay: --expect-broken needs --kernel or --plugin\n";
        return 2;
    }
    std::unique_ptr<check::PluginHost> host;
    if (!args.plugin.empty()) {
        try {
            host = std::make_unique<check::PluginHost>(args.plugin, args.timeout_ms);
        } catch (const std::exception& e) {
            std::cerr << "isect replay: " << e.what() << "\n";
            return 2;
        }
    }
    RunInfo info;
    info.command = "replay";
    info.expect_broken = args.expect_broken;
    info.subject = host ? host->info().name : args.kernel.empty() ? "built-in kernels" : args.kernel;
    if (host) {
        info.plugin_path = host->info().path;
        info.contract = *contract;
        info.error_e = args.error_e;
    }
    if (!args.domain.empty() && !parse_domain_arg("replay", args.domain, info.domain)) return 2;
    if (args.domain.empty() && host && host->info().domain) info.domain = *host->info().domain;
    // The per-file lines are the text report's; beside another format they
    // are progress, on stderr.
    std::ostream& lines = args.format == "text" ? std::cout : std::cerr;

    std::vector<FamilyResult> results;
    std::vector<std::vector<std::map<std::string, std::string>>> witness_files;  // per family, kernel: class -> file
    // One result per family and precision: a double case runs the double
    // kernels.
    const auto result_for = [&](const Family& f, size_t kernels) -> size_t {
        for (size_t i = 0; i < results.size(); ++i)
            if (results[i].family == &f && results[i].precision == check::precision()) return i;
        FamilyResult r;
        r.family = &f;
        r.precision = check::precision();
        r.report.family = f.name;
        r.report.oracle = check::Oracle::slow;  // the references judge every case
        r.report_domain = info.domain.str();
        results.push_back(std::move(r));
        witness_files.emplace_back(kernels);
        return results.size() - 1;
    };

    std::vector<check::CaseError> errors;
    const std::vector<std::string> files = check::expand_case_paths(args.paths, errors);
    size_t passed = 0, failed = 0, skipped = 0;
    for (const std::string& file : files) {
        const check::ReadResult read = check::read_case_file(file, args.strict);
        if (const auto* errs = std::get_if<std::vector<check::CaseError>>(&read)) {
            errors.insert(errors.end(), errs->begin(), errs->end());
            continue;
        }
        const check::FamilyCase& c = std::get<check::FamilyCase>(read);
        const check::PrecisionScope scope(c.precision);  // its kernels, bands and numbers
        for (const std::string& w : c.warnings) std::cerr << "warning: " << w << " (--strict makes this an error)\n";
        const Family& f = *c.family;
        std::string why;
        const std::vector<FamilyKernel> kernels = kernels_for(args, f, host.get(), *contract, why);
        if (kernels.empty()) {
            errors.push_back({file, 0, why});
            continue;
        }
        FamilyResult& r = results[result_for(f, kernels.size())];
        auto& files_of = witness_files[size_t(&r - results.data())];
        if (r.report.kernels.empty())
            for (const FamilyKernel& k : kernels) r.report.kernels.push_back(check::kernel_report_for(k));
        if (const std::string out = info.domain.outside(f, c.in.data()); !out.empty()) {
            ++skipped;
            ++r.outside_domain;
            lines << "skip  " << file << ": outside the domain (" << out << ")\n";
            continue;
        }
        ++r.report.cases;
        ++r.report.reference_cases;
        std::vector<std::string> problems, notes;
        check::Truth truth;
        bool have_truth = true;
        try {
            truth = f.truth(c.in.data());
        } catch (const check::ReferenceMismatch& e) {
            problems.push_back(e.what());
            have_truth = false;
            if (!r.report.reference_mismatches++) {
                r.report.mismatch = c.in;
                r.report.mismatch_message = e.what();
                r.mismatch_path = file;
            }
        }
        if (have_truth) {
            for (const std::string& p : check::expectation_problems(c, truth)) problems.push_back(p);
            for (size_t i = 0; i < kernels.size(); ++i) {
                const FamilyKernel& k = kernels[i];
                const check::FamilyJudgement j = check::judge(f, k, c.in, truth);
                if (args.verbose) notes.push_back(answer_line(f, k, truth, j));
                const check::FailureClass* fc =
                    check::tally_judgement(f, k, r.report.kernels[i], c.in, truth, j, r.report.cases);
                if (fc && fc->witness == c.in) files_of[i][fc->signature] = file;
                if (j.violates != args.expect_broken)
                    problems.push_back("kernel " + k.name + " (" + k.contract.str() + ") " +
                                       (j.violates ? "breaks it: " + j.why : "keeps it, and was expected to break it"));
            }
        }
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
        for (const std::string& n : notes) lines << n << "\n";
    }
    for (size_t i = 0; i < results.size(); ++i) {
        FamilyResult& r = results[i];
        r.class_paths.assign(r.report.kernels.size(), {});
        for (size_t k = 0; k < r.report.kernels.size(); ++k) {
            check::sort_classes(r.report.kernels[k]);
            for (const check::FailureClass& fc : r.report.kernels[k].classes)
                r.class_paths[k].push_back(witness_files[i][k][fc.signature]);
        }
    }
    for (const check::CaseError& e : errors) std::cerr << "error: " << e.str() << "\n";
    if (args.format == "text") lines << "\n";
    print_report(std::cout, args.format, info, results);
    lines << "replay" << (host ? " --plugin " + host->info().name : args.kernel.empty() ? "" : " --kernel " + args.kernel)
          << ": " << files.size() << " files, " << passed << " passed, " << failed << " failed, " << skipped
          << " outside the domain, " << errors.size() << " errors\n";
    if (!errors.empty()) return 2;
    return failed ? 1 : 0;
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

}  // namespace isect::tool
