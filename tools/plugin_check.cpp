#include "plugin_check.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "isect/check/case_file.hpp"
#include "isect/check/plugin.hpp"
#include "report.hpp"

namespace isect::tool {

namespace {

using check::Family;
using check::FamilyCheckReport;

struct FamilyResult {
    const Family* family = nullptr;
    FamilyCheckReport report;
    std::string case_path;  ///< the first counterexample, written to --out
    std::string case_text;
    std::string hang_path;  ///< the input it hung on, when that was not the first counterexample
};

/// Writes a case into --out, named after the plugin, family, seed and a suffix.
std::string write_case(const PluginCheckArgs& args, const std::string& plugin, const Family& f, uint64_t seed,
                       const std::string& suffix, const std::string& text) {
    std::filesystem::create_directories(args.out);
    std::string stem = plugin + "-" + f.name + "-" + std::to_string(seed) + suffix;
    for (char& c : stem)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
    const std::string path = (std::filesystem::path(args.out) / (stem + ".case")).string();
    std::ofstream(path) << text;
    return path;
}

/// The first counterexample, simplified while it still breaks the contract
/// (not for a hang: every trial would wait for the timeout).
void keep_counterexample(const Family& f, const check::FamilyKernel& k, const PluginCheckArgs& args, uint64_t seed,
                         const std::string& plugin, FamilyResult& r) {
    check::FamilyKernelReport& kr = r.report.kernels[0];
    if (!kr.counterexample) return;
    if (kr.counterexample_why.rfind("hang", 0) != 0) {
        const auto fails = [&](const check::Floats& t) {
            try {
                return check::judge(f, k, t, f.truth(t.data())).violates;
            } catch (const check::ReferenceMismatch&) {
                return false;
            }
        };
        *kr.counterexample = check::simplify_floats(
            *kr.counterexample, [&](const check::Floats& t) { return f.domain(t.data()).empty(); }, fails);
        kr.counterexample_why = check::judge(f, k, *kr.counterexample, f.truth(kr.counterexample->data())).why;
    }
    const std::string origin = "isect check --plugin " + plugin + " --contract " + k.contract.str() + ", seed " +
                               std::to_string(seed) + ": " + kr.counterexample_why;
    r.case_text = check::format_family_case(f, *kr.counterexample, f.truth(kr.counterexample->data()), origin);
    r.case_path = write_case(args, plugin, f, seed, "", r.case_text);
    if (kr.hang_input && kr.counterexample_why.rfind("hang", 0) != 0) {
        const std::string hang_origin = "isect check --plugin " + plugin + ", seed " + std::to_string(seed) +
                                        ": hang: no answer within " + std::to_string(args.timeout_ms) + " ms";
        r.hang_path = write_case(args, plugin, f, seed, "-hang",
                                 check::format_family_case(f, *kr.hang_input, f.truth(kr.hang_input->data()), hang_origin));
    }
}

std::string xml_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string json_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += c;
        else if (c == '\n') out += "\\n";
        else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
        else out += c;
    }
    return out;
}

std::string num(double x) {
    if (std::isinf(x)) return "\"inf\"";
    if (std::isnan(x)) return "null";
    std::ostringstream o;
    o << x;
    return o.str();
}

void print(const PluginCheckArgs& args, const check::PluginInfo& info, const check::Contract& contract, uint64_t seed,
           const std::vector<FamilyResult>& results) {
    bool holds = true;
    for (const FamilyResult& r : results) holds = holds && r.report.holds();
    std::ostream& out = std::cout;
    if (args.format == "json") {
        out << "{\"plugin\": \"" << json_escape(info.name) << "\", \"path\": \"" << json_escape(info.path)
            << "\", \"contract\": \"" << contract.str() << "\", \"error_e\": " << num(args.error_e)
            << ", \"seed\": " << seed << ", \"holds\": " << (holds ? "true" : "false") << ", \"families\": [";
        for (size_t i = 0; i < results.size(); ++i) {
            const FamilyResult& r = results[i];
            const check::FamilyKernelReport& k = r.report.kernels[0];
            out << (i ? ", " : "") << "{\"family\": \"" << r.family->name << "\", \"cases\": " << r.report.cases
                << ", \"wrong_answers\": " << k.wrong_answers << ", \"in_band\": " << k.in_band
                << ", \"violations\": " << k.violations << ", \"measured_k\": " << num(k.measured_k)
                << ", \"measured_e\": " << num(k.measured_e) << ", \"references_agree\": "
                << (r.report.reference_mismatches ? "false" : "true") << ", \"verdict\": \""
                << (r.report.holds() ? "holds" : "broken") << "\"";
            if (k.stopped_at_hang) out << ", \"hang\": \"" << json_escape(r.hang_path.empty() ? r.case_path : r.hang_path) << "\"";
            if (!r.case_path.empty())
                out << ", \"counterexample\": \"" << json_escape(r.case_path) << "\", \"why\": \""
                    << json_escape(k.counterexample_why) << "\"";
            out << "}";
        }
        out << "]}\n";
        return;
    }
    if (args.format == "junit") {
        size_t failures = 0;
        for (const FamilyResult& r : results) failures += !r.report.holds();
        out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"isect check "
            << xml_escape(info.name) << " (" << contract.str() << ")\" tests=\"" << results.size() << "\" failures=\""
            << failures << "\">\n";
        for (const FamilyResult& r : results) {
            const check::FamilyKernelReport& k = r.report.kernels[0];
            out << "    <testcase classname=\"" << xml_escape(info.name) << "\" name=\"" << r.family->name << "\" time=\""
                << r.report.seconds << "\">\n";
            const std::string hang = k.stopped_at_hang && k.counterexample_why.rfind("hang", 0) != 0
                                         ? "; then hang: no answer within " + std::to_string(args.timeout_ms) + " ms"
                                         : "";
            if (!r.report.holds())
                out << "      <failure message=\"" << xml_escape(k.counterexample_why + hang) << "\">"
                    << xml_escape(r.case_text + (r.case_path.empty() ? "" : "written to " + r.case_path))
                    << "</failure>\n";
            out << "      <system-out>" << r.report.cases << " cases, " << k.wrong_answers << " wrong answers ("
                << k.in_band << " in band), measured K " << check::format_k(k.measured_k) << "</system-out>\n";
            out << "    </testcase>\n";
        }
        out << "  </testsuite>\n</testsuites>\n";
        return;
    }
    if (args.format == "markdown") {
        out << "### isect check: `" << info.name << "`, contract `" << contract.str() << "`: "
            << (holds ? "holds" : "**broken**") << "\n\n"
            << "| family | cases | wrong answers | in band | measured K | error E | verdict | counterexample |\n"
            << "|---|---:|---:|---:|---:|---:|---|---|\n";
        for (const FamilyResult& r : results) {
            const check::FamilyKernelReport& k = r.report.kernels[0];
            out << "| " << r.family->name << " | " << r.report.cases << " | " << k.wrong_answers << " | " << k.in_band
                << " | " << (k.wrong_answers ? check::format_k(k.measured_k) : "-") << " | "
                << (r.family->values.empty() ? "-" : check::format_k(k.measured_e)) << " | "
                << (r.report.holds() ? "holds" : "**broken**: " + k.counterexample_why)
                << (k.stopped_at_hang && k.counterexample_why.rfind("hang", 0) != 0 ? "; then a hang" : "") << " | "
                << (r.case_path.empty() ? "" : "`" + r.case_path + "`") << " |\n";
        }
        out << "\nseed " << seed << "; numbers within " << check::format_k(args.error_e) << " x 2^-24 S\n";
        return;
    }
    out << "isect check --plugin " << info.path << " (" << info.name << "), contract " << contract.str()
        << ", exports:";
    for (const std::string& f : info.families) out << " " << f;
    out << "\n\n";
    for (const FamilyResult& r : results) {
        print_family_report(out, *r.family, r.report, seed);
        if (r.report.kernels[0].stopped_at_hang)
            out << "  stopped at the first hang (no answer within " << args.timeout_ms << " ms)"
                << (r.hang_path.empty() ? "" : ", its input written to " + r.hang_path) << "\n";
        if (!r.case_text.empty()) out << "\ncounterexample, written to " << r.case_path << ":\n" << r.case_text;
        out << "\n";
    }
    out << (holds ? "the contract holds for every family checked\n" : "the contract is BROKEN\n");
}

/// The plugin loaded in its worker, or nullptr after saying why on stderr.
std::unique_ptr<check::PluginHost> open_host(const PluginCheckArgs& args, const char* command) {
    try {
        return std::make_unique<check::PluginHost>(args.path, args.timeout_ms);
    } catch (const std::exception& e) {
        std::cerr << "isect " << command << ": " << e.what() << "\n";
        return nullptr;
    }
}

}  // namespace

int run_plugin_check(const PluginCheckArgs& args) {
    const auto contract = check::Contract::parse(args.contract);
    if (!contract) {
        std::cerr << "isect check: --contract '" << args.contract << "' is not exact, conservative or tolerant=K\n";
        return 2;
    }
    if (args.format != "text" && args.format != "markdown" && args.format != "json" && args.format != "junit") {
        std::cerr << "isect check: --format '" << args.format << "' is not text, markdown, json or junit\n";
        return 2;
    }
    const std::unique_ptr<check::PluginHost> host = open_host(args, "check");
    if (!host) return 2;
    const check::PluginInfo& info = host->info();
    std::vector<const Family*> run;
    for (const Family* f : check::plugin_families())
        if (std::find(info.families.begin(), info.families.end(), f->name) != info.families.end() &&
            (args.family.empty() || args.family == f->name))
            run.push_back(f);
    if (run.empty()) {
        std::string exported;
        for (const std::string& f : info.families) exported += " " + f;
        std::cerr << "isect check: " << info.path << " does not export isect_" << args.family
                  << " (it exports:" << exported << ")\n";
        return 2;
    }
    const uint64_t seed = args.seed_given ? args.seed : std::random_device{}();
    std::vector<FamilyResult> results;
    for (const Family* f : run) {
        const check::FamilyKernel k = host->kernel(*f, *contract, args.error_e);
        check::FamilyCheckOptions options;
        options.seconds = args.seconds;
        options.max_cases = args.cases;
        options.seed = seed;
        options.minimize = false;
        options.stop_at_hang = true;
        options.progress = !args.quiet && args.format == "text" && args.seconds > 3;
        FamilyResult r;
        r.family = f;
        r.report = check::run_family_check(*f, {k}, options);
        keep_counterexample(*f, k, args, seed, info.name, r);
        results.push_back(std::move(r));
    }
    print(args, info, *contract, seed, results);
    for (const FamilyResult& r : results)
        if (!r.report.holds()) return 1;
    return 0;
}

int run_plugin_replay(const PluginCheckArgs& args, const std::vector<std::string>& paths, bool expect_broken) {
    const auto contract = check::Contract::parse(args.contract);
    if (!contract) {
        std::cerr << "isect replay: --contract '" << args.contract << "' is not exact, conservative or tolerant=K\n";
        return 2;
    }
    const std::unique_ptr<check::PluginHost> host = open_host(args, "replay");
    if (!host) return 2;
    std::vector<check::CaseError> errors;
    size_t as_expected = 0, not_as_expected = 0;
    for (const std::string& file : check::expand_case_paths(paths, errors)) {
        const check::ReadResult r = check::read_case_file(file);
        if (const auto* errs = std::get_if<std::vector<check::CaseError>>(&r)) {
            errors.insert(errors.end(), errs->begin(), errs->end());
            continue;
        }
        const check::Case& c = std::get<check::Case>(r);
        const Family* f = nullptr;
        check::Floats in;
        if (const auto* fc = std::get_if<check::FamilyCase>(&c)) {
            f = fc->family;
            in = fc->in;
        } else {
            const auto& tc = std::get<check::AabbTriangleCase>(c);
            f = &check::aabb_triangle_family();
            in.assign(tc.box.lo.begin(), tc.box.lo.end());
            in.insert(in.end(), tc.box.hi.begin(), tc.box.hi.end());
            for (const Vec3f& v : tc.tri.v) in.insert(in.end(), v.begin(), v.end());
        }
        const auto& exported = host->info().families;
        if (std::find(exported.begin(), exported.end(), f->name) == exported.end()) {
            errors.push_back({file, 0, host->info().name + " does not export isect_" + f->name});
            continue;
        }
        const check::FamilyJudgement j = check::judge(*f, host->kernel(*f, *contract, args.error_e), in, f->truth(in.data()));
        const bool ok = j.violates == expect_broken;
        (ok ? as_expected : not_as_expected)++;
        std::cout << (ok ? "ok    " : "FAIL  ") << file << ": "
                  << (j.violates ? "breaks " + contract->str() + ": " + j.why : "keeps " + contract->str()) << "\n";
    }
    for (const check::CaseError& e : errors) std::cerr << "error: " << e.str() << "\n";
    std::cout << "replay --plugin " << host->info().name << ": " << as_expected << " as expected, " << not_as_expected
              << " not, " << errors.size() << " errors\n";
    if (!errors.empty()) return 2;
    return not_as_expected ? 1 : 0;
}

}  // namespace isect::tool
