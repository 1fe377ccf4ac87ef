#include "check_command.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>

#include "isect/check/case_file.hpp"
#include "isect/check/family_gen.hpp"
#include "isect/check/plugin.hpp"
#include "report.hpp"

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

/// Writes every failure class's witness, the hang input and the reference
/// disagreement as case files, with where they came from.
void keep_findings(const CheckArgs& args, const std::string& subject, FamilyResult& r,
                   const std::vector<FamilyKernel>& kernels) {
    const Family& f = *r.family;
    const std::string seed = std::to_string(args.seed);
    r.class_paths.assign(kernels.size(), {});
    r.hang_paths.assign(kernels.size(), "");
    for (size_t i = 0; i < kernels.size(); ++i) {
        const check::FamilyKernelReport& k = r.report.kernels[i];
        const std::string who = args.plugin.empty() ? f.name + "-" + k.name : subject + "-" + f.name;
        for (size_t c = 0; c < k.classes.size(); ++c) {
            const check::FailureClass& fc = k.classes[c];
            const std::string origin =
                (args.plugin.empty() ? "isect check" : "isect check --plugin " + subject) + ", seed " + seed +
                ", domain " + r.report_domain + ": kernel " + k.name + " breaks " + k.contract.str() + "\nclass " +
                std::to_string(c + 1) + " of " + std::to_string(k.classes.size()) + ", " + std::to_string(fc.count) +
                " violations: " + describe_class(fc.signature) + (fc.minimised ? ", minimised" : ", as found") + "\n" +
                fc.why + "\nsignature: " + fc.signature;
            r.class_paths[i].push_back(write_case(args.out, who + "-" + seed + (c ? "-" + std::to_string(c + 1) : ""),
                                                  check::format_family_case(f, fc.witness, origin)));
        }
        if (k.hang_input && (k.classes.empty() || k.classes[0].why.rfind("hang", 0) != 0))
            r.hang_paths[i] = write_case(args.out, who + "-" + seed + "-hang",
                                         check::format_family_case(f, *k.hang_input, "isect check --plugin " + subject +
                                                                   ", seed " + seed + ": hang: no answer within " +
                                                                   std::to_string(args.timeout_ms) + " ms"));
    }
    if (r.report.mismatch)
        r.mismatch_path = write_case(args.out, f.name + "-references-" + seed,
                                     "# isect check, seed " + seed + ": the references disagree (" +
                                         r.report.mismatch_message + ")\n" + check::show_family_input(f, *r.report.mismatch));
}

/// A finding an earlier `isect check` of the same kernels wrote into --out:
/// the case and the name of the kernel it broke.
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
    const std::string from = args.plugin.empty() ? "isect check, " : "isect check --plugin " + subject + ", ";
    for (const std::string& file : check::expand_case_paths({args.out}, errors)) {
        check::ReadResult r = check::read_case_file(file);
        if (auto* bad = std::get_if<std::vector<check::CaseError>>(&r)) {
            errors.insert(errors.end(), bad->begin(), bad->end());
            continue;
        }
        check::FamilyCase& c = std::get<check::FamilyCase>(r);
        const size_t at = c.origin.find("signature: ");
        if (c.origin.rfind(from, 0) != 0 || at == std::string::npos) continue;
        const std::string kernel = c.origin.substr(at + 11, c.origin.find('|', at) - at - 11);
        out.push_back({std::move(c), kernel});
    }
    for (const auto& e : errors) std::cerr << "isect check: findings database: " << e.str() << " (skipped)\n";
    return out;
}

/// The findings of t's family and kernels, judged before any generated case.
/// A finding that still breaks its kernel's contract breaks the run; one
/// that now passes is reported as such; both stay until promoted or deleted.
std::vector<ReplayedFinding> replay_findings(const std::vector<StoredFinding>& findings, const Target& t,
                                             const check::Domain& domain) {
    std::vector<ReplayedFinding> out;
    for (const StoredFinding& f : findings) {
        const check::FamilyCase& c = f.c;
        const auto k = std::find_if(t.kernels.begin(), t.kernels.end(), [&](const FamilyKernel& x) { return x.name == f.kernel; });
        // A finding of the other precision belongs to the other kind of run.
        if (c.family != t.family || c.precision != check::precision() || k == t.kernels.end() ||
            !domain.outside(*t.family, c.in.data()).empty())
            continue;
        ReplayedFinding p{c.path, f.kernel, false, ""};
        try {
            const check::Truth truth = t.family->truth(c.in.data());
            const check::FamilyJudgement j = check::judge(*t.family, *k, c.in, truth);
            p.still_failing = j.violates;
            p.why = j.violates ? j.why
                               : j.answer_differs ? "answers " + t.family->answers[size_t(j.got.answer)] + ", inside its band"
                                                  : "answers " + t.family->answers[size_t(truth.answer)] + ", as the references do";
        } catch (const std::exception& e) {
            p.still_failing = true;
            p.why = e.what();
        }
        out.push_back(p);
    }
    return out;
}

/// The python that has matplotlib: Debian's, which pyenv may shadow.
std::string python() { return fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3"; }

/// Draws every kernel's validity map (tools/validity_map.py, matplotlib)
/// beside the report: OUT/STEM-map.png, one picture per family and kernel.
void draw_maps(const CheckArgs& args, const RunInfo& info, std::vector<FamilyResult>& results) {
    nlohmann::json maps = nlohmann::json::array();
    for (FamilyResult& r : results) {
        r.map_paths.assign(r.report.kernels.size(), "");
        for (size_t i = 0; i < r.report.kernels.size(); ++i) {
            const check::FamilyKernelReport& k = r.report.kernels[i];
            const std::string who = args.plugin.empty() ? r.family->name + "-" + k.name : info.subject + "-" + r.family->name;
            const std::string png = (fs::path(args.out) / (file_stem(who + "-" + std::to_string(args.seed)) + "-map.png")).string();
            nlohmann::json cells = nlohmann::json::array();
            for (const auto& [key, cell] : k.map)
                cells.push_back({key.first, key.second, cell.cases, cell.wrong_answers, cell.violations,
                                 std::isfinite(cell.measured_k) ? cell.measured_k : 1e300});
            maps.push_back({{"family", r.family->name}, {"kernel", k.name}, {"contract", k.contract.str()},
                            {"domain", info.domain.str()}, {"cases", k.tried}, {"png", png}, {"cells", cells}});
            r.map_paths[i] = png;
        }
    }
    fs::create_directories(args.out);
    const std::string data = (fs::path(args.out) / ("maps-" + std::to_string(args.seed) + ".json")).string();
    std::ofstream(data) << maps.dump();
    // Installed beside the binary (share/isect), or in the source tree it was built from.
    std::error_code ec;
    const fs::path installed = fs::canonical("/proc/self/exe", ec).parent_path().parent_path() / "share" / "isect" / "validity_map.py";
    const std::string script =
        !ec && fs::exists(installed) ? installed.string() : (fs::path(args.source_dir) / "tools" / "validity_map.py").string();
    const std::string command = python() + " '" + script + "' '" + data + "' 1>&2";
    if (!fs::exists(script) || std::system(command.c_str()) != 0) {
        std::cerr << "isect check: no validity map pictures (" << script
                  << " needs python3 with matplotlib: apt-get install python3-matplotlib); the data is in " << data << "\n";
        for (FamilyResult& r : results) r.map_paths.assign(r.report.kernels.size(), "");
    }
}

}  // namespace

bool parse_domain_arg(const std::string& command, const std::string& text, check::Domain& out) {
    std::string why;
    const auto d = check::Domain::parse(text, why);
    if (!d) {
        std::cerr << "isect " << command << ": --domain " << why << "\n";
        return false;
    }
    out = *d;
    return true;
}

bool set_precision_arg(const std::string& command, const std::string& text) {
    if (text != "float" && text != "double") {
        std::cerr << "isect " << command << ": --precision '" << text << "' is not float or double\n";
        return false;
    }
    check::set_precision(text == "double" ? check::Precision::double_ : check::Precision::single);
    return true;
}

int run_check(const CheckArgs& args_in) {
    CheckArgs args = args_in;
    if (!known_format(args.format)) {
        std::cerr << "isect check: --format '" << args.format << "' is not text, markdown, json or junit\n";
        return 2;
    }
    RunInfo info;
    if (!args.domain.empty() && !parse_domain_arg("check", args.domain, info.domain)) return 2;
    if (args.oracle != "fast" && args.oracle != "slow") {
        std::cerr << "isect check: --oracle '" << args.oracle << "' is not fast or slow\n";
        return 2;
    }
    if (!set_precision_arg("check", args.precision)) return 2;
    if (!args.seed_given) args.seed = std::random_device{}();
    info.seed = args.seed;
    info.timeout_ms = args.timeout_ms;

    std::unique_ptr<check::PluginHost> host;
    std::vector<Target> targets;
    if (!args.plugin.empty()) {
        const auto contract = check::Contract::parse(args.contract);
        if (!contract) {
            std::cerr << "isect check: --contract '" << args.contract << "' is not exact, conservative or tolerant=K\n";
            return 2;
        }
        if (!args.kernel.empty()) {
            std::cerr << "isect check: --kernel names a built-in kernel; with --plugin the plugin's kernels run\n";
            return 2;
        }
        try {
            host = std::make_unique<check::PluginHost>(args.plugin, args.timeout_ms);
        } catch (const std::exception& e) {
            std::cerr << "isect check: " << e.what() << "\n";
            return 2;
        }
        const check::PluginInfo& p = host->info();
        info.subject = p.name;
        info.plugin_path = p.path;
        info.contract = *contract;
        info.error_e = args.error_e;
        if (args.domain.empty() && p.domain) info.domain = *p.domain;
        for (const Family* f : check::families())
            if (p.exports(*f, check::precision()) && (args.family.empty() || args.family == f->name))
                targets.push_back({f, {host->kernel(*f, *contract, args.error_e)}});
        if (targets.empty()) {
            std::string exported;
            for (const std::string& f : p.families) exported += " isect_" + f;
            const bool dbl = check::precision() == check::Precision::double_;
            std::cerr << "isect check: " << p.path
                      << (args.family.empty() ? std::string(" exports no ") + (dbl ? "double" : "float") + " function"
                                              : " does not export isect_" + args.family + (dbl ? "_d" : ""))
                      << " (it exports:" << exported << ")" << (dbl ? "" : "; _d functions take --precision double")
                      << "\n";
            return 2;
        }
    } else {
        info.subject = "built-in kernels";
        if (!args.family.empty() && !check::find_family(args.family)) {
            std::string known;
            for (const Family* f : check::families()) known += (known.empty() ? "" : ", ") + f->name;
            std::cerr << "isect check: no family named '" << args.family << "' (" << known << ")\n";
            return 2;
        }
        for (const Family* f : check::families()) {
            if (!args.family.empty() && args.family != f->name) continue;
            if (args.kernel.empty()) {
                if (!f->kernels().empty()) targets.push_back({f, f->kernels()});
            } else if (const auto k = f->find_kernel(args.kernel)) {
                targets.push_back({f, {*k}});
            }
        }
        if (targets.empty()) {
            std::cerr << "isect check: no kernel named '" << args.kernel
                      << "'; `isect kernels` lists them (built-in ones and broken:NAME fixtures)\n";
            return 2;
        }
    }
    if (!args.gen.empty()) {  // only the families that have this generator kind
        std::vector<Target> keep;
        for (const Target& t : targets) {
            const auto kinds = check::gen_kinds(*t.family);
            if (std::find(kinds.begin(), kinds.end(), args.gen) != kinds.end()) keep.push_back(t);
        }
        if (keep.empty()) {
            std::cerr << "isect check: no family checked has a generator kind '" << args.gen << "'\n";
            return 2;
        }
        targets = keep;
    }
    info.show_maps = args.map || host;

    const std::vector<StoredFinding> findings = load_findings(args, info.subject);
    std::vector<FamilyResult> results;
    for (const Target& t : targets) {
        check::FamilyCheckOptions options;
        options.oracle = args.oracle == "slow" ? check::Oracle::slow : check::Oracle::fast;
        options.seconds = args.seconds;
        options.max_cases = args.cases;
        options.seed = args.seed;
        options.gen_kind = args.gen;
        options.domain = info.domain;
        options.stop_at_first = args.stop_at_first;
        options.stop_at_hang = host != nullptr;
        options.progress = !args.quiet && args.format == "text" && (args.seconds > 3 || args.cases > 20000);
        FamilyResult r;
        r.family = t.family;
        r.precision = check::precision();
        r.replayed = replay_findings(findings, t, info.domain);
        try {
            r.report = check::run_family_check(*t.family, t.kernels, options);
        } catch (const std::exception& e) {
            std::cerr << "isect check: " << t.family->name << ": " << e.what() << "\n";
            return 2;
        }
        r.report_domain = info.domain.str();
        keep_findings(args, info.subject, r, t.kernels);
        results.push_back(std::move(r));
    }
    if (info.show_maps) draw_maps(args, info, results);
    print_report(std::cout, args.format, info, results);
    for (const FamilyResult& r : results)
        if (!r.holds()) return 1;
    return 0;
}

}  // namespace isect::tool
