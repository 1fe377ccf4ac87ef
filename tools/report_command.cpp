#include "report_command.hpp"

#include "options.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "check/engine/judge.hpp"
#include "isect/plugin.h"
#include "check/io/case_file.hpp"

namespace isect::tool {

namespace {

using check::Family;

/// x as a C literal of the precision: a hexfloat (exact), INFINITY or NAN.
std::string literal(double x, bool single) {
    if (std::isnan(x)) return "NAN";
    if (std::isinf(x)) return x > 0 ? "INFINITY" : "-INFINITY";
    char text[64];
    std::snprintf(text, sizeof text, "%a%s", x, single ? "f" : "");
    return text;
}

std::string identifier(std::string key) {
    for (char& c : key)
        if (c == '.') c = '_';
    return key;
}

/// The class this case witnesses, from the check's JSON report: the one
/// whose case file has this file's name.
nlohmann::json class_of(const std::string& report, const std::string& case_file, std::string& why) {
    std::ifstream in(report);
    if (!in) {
        why = report + ": cannot be read";
        return {};
    }
    nlohmann::json j;
    try {
        in >> j;
    } catch (const std::exception& e) {
        why = report + ": not a JSON report (" + e.what() + ")";
        return {};
    }
    const std::string name = std::filesystem::path(case_file).filename().string();
    for (const auto& fam : j.value("families", nlohmann::json::array()))
        for (const auto& k : fam.value("kernels", nlohmann::json::array()))
            for (const auto& c : k.value("classes", nlohmann::json::array()))
                if (c.contains("case") && std::filesystem::path(c["case"].get<std::string>()).filename() == name) {
                    nlohmann::json out = c;
                    out["cases"] = k.value("cases", 0);
                    out["violations"] = k.value("violations", 0);
                    return out;
                }
    why = report + ": no class there has " + name + " as its witness";
    return {};
}

std::string read_all(const std::string& path, std::string& why) {
    std::ifstream in(path);
    if (!in) {
        why = path + ": cannot be read";
        return {};
    }
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

/// A finding as the report tells it: the witness judged by the references
/// and the kernel, and the words for it.
struct ReportedFinding {
    const Family& f;
    const check::FamilyCase* c;
    const check::FamilyKernel& k;
    const check::FamilyJudgement& j;
    check::Truth truth;
    bool single;
    double error_e;
    nlohmann::json cls;  ///< the class's line of --from, or null
    std::string title, exact_answer, decided, got_answer, headline;
    /// Whether the exact answer carries numbers to show.
    bool numbers() const { return f.answer_has_values[size_t(truth.answer)] && !truth.values.empty(); }
    /// What the plugin returns for an answer.
    int ret_of(int answer) const { return f.plugin_returns.empty() ? answer : f.plugin_returns[size_t(answer)]; }
};

/// The reproducer: the kernel's sources inlined (the defines first), the
/// input as hexfloats, the call, its answer printed beside the exact one,
/// exit 1 while they differ. Empty, with why, when a source cannot be read.
std::string reproducer_text(const ReportArgs& args, const ReportedFinding& x, const std::string& repro_name, std::string& why) {
    const Family& f = x.f;
    const check::FamilyCase* c = x.c;
    const check::FamilyKernel& k = x.k;
    const check::FamilyJudgement& j = x.j;
    const check::Truth& truth = x.truth;
    const bool single = x.single;
    const std::string &title = x.title, &headline = x.headline, &decided = x.decided;
    const std::string& exact_answer = x.exact_answer;
    const bool numbers = x.numbers();
    std::ostringstream r;
    const std::string T = single ? "float" : "double";
    r << "// Reproducer written by `isect report` from " << std::filesystem::path(args.case_file).filename().string()
      << ".\n// " << title << ": " << headline << (decided.empty() ? "" : " (" + decided + ")") << ".\n"
      << "// It needs nothing but what the code below includes. Build and run it, for example:\n"
      << "//   g++ -std=c++17 -O2 " << repro_name
      << (args.build.empty() ? "" : " " + args.build) << " && ./a.out\n"
      << "// It prints the answer beside the exact one and exits 1 while they differ.\n"
      << "#define ISECT_PLUGIN_EXPORT\n#define ISECT_ABI_VERSION " << ISECT_ABI_VERSION << "\n";
    for (const std::string& d : args.defines) {
        const size_t eq = d.find('=');
        r << "#define " << (eq == std::string::npos ? d + " 1" : d.substr(0, eq) + " " + d.substr(eq + 1)) << "\n";
    }
    for (const std::string& source : args.sources) {
        const std::string text = read_all(source, why);
        if (!why.empty()) {
            why = "--source " + why;
            return {};
        }
        r << "\n// --- " << std::filesystem::path(source).filename().string() << " ---\n";
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);)
            if (line.find("#include \"isect/plugin.h\"") == std::string::npos) r << line << "\n";
    }
    r << "\n// --- the input isect found ---\n#include <cmath>\n#include <cstdio>\n\nint main() {\n";
    size_t at = 0;
    for (const check::InputKey& key : f.inputs) {
        r << "    const " << T << " " << identifier(key.key);
        if (key.count == 1) {
            r << " = " << literal(c->in[at], single) << ";";
        } else {
            r << "[" << key.count << "] = {";
            for (int i = 0; i < key.count; ++i) r << (i ? ", " : "") << literal(c->in[at + size_t(i)], single);
            r << "};";
        }
        r << "  // " << key.key << "\n";
        at += size_t(key.count);
    }
    const size_t n_out = std::max<size_t>(f.outputs.size(), 1);
    r << "    " << T << " out[" << n_out << "];\n    for (" << T << "& x : out) x = NAN;  // what it does not write stays NaN\n";
    if (f.plugin_int_output) r << "    int " << identifier(f.outputs[*f.plugin_int_output]) << " = -1;\n";
    std::string call = "isect_" + f.name.substr(0, f.name.find(' ')) + (single ? "" : "_d") + "(";
    {
        // The base family's name: a declared convention is not part of it.
        call = "isect_" + c->family->name + (single ? "" : "_d") + "(";
        bool first = true;
        for (const check::InputKey& key : f.inputs) {
            call += (first ? "" : ", ") + identifier(key.key);
            first = false;
        }
        if (!f.plugin_out_args.empty()) call += ", " + f.plugin_out_args;
        call += ")";
    }
    const bool one_answer = f.answers.size() == 1;
    r << "    " << (one_answer ? "" : "const int ret = ") << call << ";\n";
    if (!one_answer)
        r << "    std::printf(\"returns %d   (exact: " << x.ret_of(truth.answer) << ", " << exact_answer << ")\\n\", ret);\n";
    if (numbers) {
        r << "    const char* const name[] = {";
        for (size_t i = 0; i < f.outputs.size(); ++i) r << (i ? ", " : "") << "\"" << f.outputs[i] << "\"";
        r << "};\n    const double exact[] = {";
        for (size_t i = 0; i < truth.values.size(); ++i) r << (i ? ", " : "") << literal(truth.values[i], false);
        r << "};\n";
        if (const auto i = f.plugin_int_output) {
            const std::string name = identifier(f.outputs[*i]);
            r << "    if (" << name << " != -1) out[" << *i << "] = " << T << "(" << name << ");\n";
        }
        r << "    for (int i = 0; i < " << truth.values.size() << "; ++i)\n"
          << "        if (!std::isnan(out[i])) std::printf(\"%-12s %.9g   (exact %.17g)\\n\", name[i], double(out[i]), exact[i]);\n";
    }
    // The exit: the answer, else the worst number against its allowed error.
    std::string failing = "false";
    if (!one_answer) failing = "ret != " + std::to_string(x.ret_of(truth.answer));
    if (!j.answer_differs && !j.failure && numbers && !j.error.output.empty())
        for (size_t i = 0; i < f.outputs.size(); ++i) {
            // The worst output, or each component of it ("normal": normal.x, .y, .z).
            const std::string worst(j.error.output);
            if (worst != f.outputs[i] && f.outputs[i].rfind(worst + ".", 0) != 0) continue;
            const std::string o = "double(out[" + std::to_string(i) + "])", e = "exact[" + std::to_string(i) + "]";
            const double off = std::fabs(j.got.values[i] - truth.values[i]);
            if (j.cuts && j.error.cut_k > 0) {
                // A box that must contain the exact one: lo may not rise, hi
                // not fall, past the band of the contract's K.
                const double allowed = off * k.contract.k / j.error.cut_k;
                const bool lo = check::lower_corner_output(f, i);
                failing += " || " + (lo ? o + " - " + e : e + " - " + o) + " > " + literal(allowed, false);
                r << "    std::printf(\"" << f.outputs[i] << " may cut the exact box by %.3g (the band of "
                  << k.contract.str() << ")\\n\", " << literal(allowed, false) << ");\n";
            } else if (j.error.e > 0) {
                // Infinitely many units (a scale of 0, a wrong sign of a
                // normal): any difference is too much.
                const double allowed = std::isfinite(j.error.e) ? off * x.error_e / j.error.e : 0.0;
                failing += " || !(std::fabs(" + o + " - " + e + ") <= " + literal(allowed, false) + ")";
                r << "    std::printf(\"allowed for " << f.outputs[i] << ": %.3g (" << check::format_k(x.error_e)
                  << " x u S)\\n\", " << literal(allowed, false) << ");\n";
            }
        }
    r << "    return " << failing << " ? 1 : 0;\n}\n";

    return r.str();
}

/// The issue body: the input, the exact answer and what decides it, the
/// answer, the contract and how far outside it, the class's size (--from).
std::string issue_text(const ReportedFinding& x, const std::string& repro_name) {
    std::ostringstream m;
    m << "### " << x.title << ": " << x.headline << (x.decided.empty() ? "" : " (" + x.decided + ")") << "\n\n";
    m << "**Input** (" << (x.single ? "float" : "double") << "; the reproducer has it as hexfloats):\n\n| | |\n|---|---|\n";
    size_t at = 0;
    for (const check::InputKey& key : x.f.inputs) {
        m << "| `" << key.key << "` |";
        for (int i = 0; i < key.count; ++i) m << " " << check::format_number(x.c->in[at + size_t(i)]);
        m << " |\n";
        at += size_t(key.count);
    }
    m << "\n**Exact answer**: " << x.exact_answer << (x.decided.empty() ? "" : ": " + x.decided)
      << ". Two independent exact references (" << x.f.references << ") agree on it.\n\n";
    m << "**Answer**: " << x.got_answer << " (" << x.j.why << ").\n\n";
    if (x.numbers() && !x.j.answer_differs && !x.j.failure) {
        m << "| output | answer | exact |\n|---|---:|---:|\n";
        for (size_t i = 0; i < x.f.outputs.size() && i < x.truth.values.size(); ++i)
            if (!(x.j.got.unprovided >> i & 1))
                m << "| " << x.f.outputs[i] << " | " << check::format_number(x.j.got.values[i]) << " | "
                  << check::format_number(x.truth.values[i]) << " |\n";
        m << "\n";
    }
    m << "**Contract**: " << x.k.contract.str() << " — ";
    if (x.j.answer_differs && x.truth.answer >= 0) {
        const double kk = check::measured_k(x.f, x.c->in, x.truth, check::Oracle::slow);
        m << "the answer may differ from the exact one only where moving the inputs by K·u·M could change it; here "
          << (std::isinf(kk) ? "no K does" : "it takes K = " + check::format_k(kk)) << " (u = 2^-" << (x.single ? 24 : 53)
          << ", M the magnitude of the positions).\n\n";
    } else if (x.j.failure) {
        m << "the call must return an answer.\n\n";
    } else {
        m << "each number may be off by E·u·S, E = " << check::format_k(x.error_e) << "; "
          << x.j.error.output << " is off by " << check::format_k(x.j.error.e) << ".\n\n";
    }
    if (!x.cls.is_null())
        m << "**How often**: " << x.cls.value("count", 0) << " of " << x.cls.value("cases", 0)
          << " generated cases fall in this class (" << x.cls.value("what", std::string()) << ", inputs "
          << x.cls.value("scale", std::string()) << "); this input is its minimised witness.\n\n";
    m << "**Reproduce**: `" << repro_name
      << "` (attached) calls it on this input and prints its answer beside the exact one.\n";

    return m.str();
}

int run_report(const ReportArgs& args) {
    const auto under_test = check::KernelsUnderTest::make("report", args.subject);
    if (!under_test || !under_test->start_workers("report", 1)) return 2;
    const check::ReadResult read = check::read_case_file(args.case_file, false);
    const auto* c = std::get_if<check::FamilyCase>(&read);
    if (!c) {
        for (const auto& e : std::get<std::vector<check::CaseError>>(read)) std::cerr << "isect report: " << e.str() << "\n";
        return 2;
    }
    const check::PrecisionScope scope(c->precision);
    const bool single = c->precision == check::Precision::single;
    std::string why;
    const Family& f = under_test->family(*c->family);
    const std::vector<check::FamilyKernel> kernels = under_test->kernels(f, &why);
    if (kernels.empty()) {
        std::cerr << "isect report: " << args.case_file << ": no kernel under test takes it (" << why << ")\n";
        return 2;
    }
    check::CaseJudge judged(f, kernels, c->in, check::Oracle::slow, false);
    judged.finish();
    if (!judged.disagreement().empty()) {
        std::cerr << "isect report: " << args.case_file << ": the references disagree: " << judged.disagreement() << "\n";
        return 2;
    }
    const check::Truth truth = judged.truth();
    const check::FamilyJudgement& j = judged.judgements().front();
    const check::FamilyKernel& k = kernels.front();
    if (!j.violates) {
        std::cout << "isect report: " << k.name << " keeps its contract (" << k.contract.str() << ") on "
                  << args.case_file << ": nothing to report\n";
        return 1;
    }
    nlohmann::json cls;
    if (!args.from.empty()) {
        cls = class_of(args.from, args.case_file, why);
        if (cls.is_null()) {
            std::cerr << "isect report: " << why << "\n";
            return 2;
        }
    }
    ReportedFinding x{f, c, k, judged.judgements().front(), truth, single, under_test->error_e(), cls, {}, {}, {}, {}, {}};
    x.title = args.title.empty() ? k.name : args.title;
    x.exact_answer = f.answers[size_t(truth.answer)];
    x.decided = f.deciding ? f.deciding(c->in.data(), truth, truth.answer) : "";
    x.got_answer = j.failure ? check::failure_kind_name(*j.failure)
                   : j.got.answer >= 0 && j.got.answer < int(f.answers.size())
                       ? f.answers[size_t(j.got.answer)]
                       : "no answer of the family (returns " + (j.got.returned ? std::to_string(*j.got.returned) : std::string("?")) + ")";
    // The headline: the answer, or where the answers agree, the worst number.
    x.headline = x.got_answer + " where the exact answer is " + x.exact_answer;
    if (!j.answer_differs && !j.failure)
        for (size_t i = 0; i < f.outputs.size() && i < truth.values.size(); ++i) {
            const std::string worst(j.error.output);
            if (worst == f.outputs[i] || f.outputs[i].rfind(worst + ".", 0) == 0) {
                x.headline = f.outputs[i] + " is " + check::format_number(j.got.values[i]) + " where the exact value is " +
                             check::format_number(truth.values[i]);
                break;
            }
        }
    const std::string stem = std::filesystem::path(args.case_file).stem().string();
    std::error_code ec;
    std::filesystem::create_directories(args.out, ec);
    const std::string repro_path = (std::filesystem::path(args.out) / (stem + "-repro.cpp")).string();
    const std::string issue_path = (std::filesystem::path(args.out) / (stem + "-issue.md")).string();

    const std::string repro_name = std::filesystem::path(repro_path).filename().string();
    why.clear();
    const std::string repro = reproducer_text(args, x, repro_name, why);
    if (!why.empty()) {
        std::cerr << "isect report: " << why << "\n";
        return 2;
    }
    for (const auto& [path, text] : {std::pair{repro_path, repro}, std::pair{issue_path, issue_text(x, repro_name)}}) {
        std::ofstream o(path);
        o << text;
        if (!o.good()) {
            std::cerr << "isect report: " << path << ": not written\n";
            return 2;
        }
        std::cout << path << "\n";
    }
    return 0;
}

CLI::App* add_report_command(CLI::App& app, ReportArgs& a) {
    CLI::App* c = app.add_subcommand(
        "report", "Turn a finding into a standalone reproducer (the kernel's source, the input as hexfloats) and an issue body");
    c->add_option("case", a.case_file, "The case file: a witness isect check wrote")->required();
    c->add_option("--plugin", a.subject.plugin, "The plugin whose kernel breaks on it")->required();
    c->add_option("--contract", a.subject.contract, "Its contract (default tolerant=1)")
        ->each([&a](const std::string&) { a.subject.contract_given = true; });
    c->add_option("--error", a.subject.error_e, "Numbers within E x u S (default 16)")->check(real_in(0, 1e15));
    c->add_option("--domain", a.subject.domain, "As the check declared it (default: the plugin's)");
    c->add_option("--require", a.subject.require, "As the check declared them (default: the plugin's)");
    c->add_option("--convention", a.subject.convention, "As the check declared them (default: the plugin's)");
    c->add_option("--source", a.sources, "The kernel's source files, inlined into the reproducer")->required();
    c->add_option("--define", a.defines, "NAME or NAME=VALUE defined before them (a wrapper's ROW_name)");
    c->add_option("--build", a.build, "What building the reproducer needs, for its header (\"-lode\")");
    c->add_option("--from", a.from, "The check's JSON report: the class this case witnesses, its size and shape");
    c->add_option("--title", a.title, "What is called, for both files (\"ODE 0.16, dCollide(box, box)\")");
    c->add_option("--out", a.out, "Folder for NAME-repro.cpp and NAME-issue.md (default: .)");
    return c;
}

}  // namespace isect::tool
