#include "replay_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "check_command.hpp"
#include "isect/check/case_file.hpp"
#include "isect/check/plugin.hpp"

namespace isect::tool {

namespace {

using check::Family;
using check::FamilyKernel;

/// The kernels a case of family f is replayed through; empty with a reason
/// when there are none.
std::vector<FamilyKernel> kernels_for(const ReplayArgs& args, const Family& f, check::PluginHost* host,
                                      const check::Contract& contract, std::string& why) {
    if (host) {
        const auto& exported = host->info().families;
        if (std::find(exported.begin(), exported.end(), f.name) == exported.end()) {
            why = host->info().name + " does not export isect_" + f.name;
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
        line += ", numbers within " + check::format_k(j.error.e) + " x 2^-24 S" +
                (j.error.output.empty() ? "" : " (worst: " + std::string(j.error.output) + ")");
    return line + (j.violates ? ": BREAKS the contract" : "");
}

}  // namespace

int run_replay(const ReplayArgs& args) {
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
    check::Domain domain;
    if (!args.domain.empty() && !parse_domain_arg("replay", args.domain, domain)) return 2;
    if (args.domain.empty() && host && host->info().domain) domain = *host->info().domain;

    std::vector<check::CaseError> errors;
    const std::vector<std::string> files = check::expand_case_paths(args.paths, errors);
    size_t passed = 0, failed = 0, skipped = 0;
    for (const std::string& file : files) {
        const check::ReadResult r = check::read_case_file(file, args.strict);
        if (const auto* errs = std::get_if<std::vector<check::CaseError>>(&r)) {
            errors.insert(errors.end(), errs->begin(), errs->end());
            continue;
        }
        const check::FamilyCase& c = std::get<check::FamilyCase>(r);
        for (const std::string& w : c.warnings) std::cerr << "warning: " << w << " (--strict makes this an error)\n";
        const Family& f = *c.family;
        if (const std::string out = domain.outside(f, c.in.data()); !out.empty()) {
            ++skipped;
            std::cout << "skip  " << file << ": outside the domain (" << out << ")\n";
            continue;
        }
        std::string why;
        const std::vector<FamilyKernel> kernels = kernels_for(args, f, host.get(), *contract, why);
        if (kernels.empty()) {
            errors.push_back({file, 0, why});
            continue;
        }
        std::vector<std::string> problems, notes;
        check::Truth truth;
        bool have_truth = true;
        try {
            truth = f.truth(c.in.data());
        } catch (const check::ReferenceMismatch& e) {
            problems.push_back(e.what());
            have_truth = false;
        }
        if (have_truth) {
            for (const std::string& p : check::expectation_problems(c, truth)) problems.push_back(p);
            for (const FamilyKernel& k : kernels) {
                const check::FamilyJudgement j = check::judge(f, k, c.in, truth);
                if (args.verbose) notes.push_back(answer_line(f, k, truth, j));
                if (j.violates != args.expect_broken)
                    problems.push_back("kernel " + k.name + " (" + k.contract.str() + ") " +
                                       (j.violates ? "breaks it: " + j.why : "keeps it, and was expected to break it"));
            }
        }
        if (problems.empty()) {
            ++passed;
            if (args.verbose) std::cout << "ok    " << file << "\n";
        } else {
            ++failed;
            for (const std::string& p : problems) std::cout << "FAIL  " << file << ": " << p << "\n";
        }
        for (const std::string& n : notes) std::cout << n << "\n";
    }
    for (const check::CaseError& e : errors) std::cerr << "error: " << e.str() << "\n";
    std::cout << "replay" << (host ? " --plugin " + host->info().name : args.kernel.empty() ? "" : " --kernel " + args.kernel)
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
