#include "diff_command.hpp"

#include "options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>

#include "check_command.hpp"
#include "check/engine/witness.hpp"
#include "check/engine/case_stream.hpp"
#include "check/io/case_file.hpp"
#include "check/model/generate.hpp"
#include "check/io/interrupt.hpp"
#include "check/io/plugin_host.hpp"
#include "check/io/safe_write.hpp"
#include "check/engine/kernels_under_test.hpp"
#include "report.hpp"
#include "witness_files.hpp"

namespace isect::tool {

namespace {

using check::Family;
using check::FamilyKernel;
using check::Inputs;

/// The shortest decimal that reads back as x: 1e-06, never 9.9999999999999995e-07.
std::string shortest(double x) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, r.ptr);
}

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
    const check::PluginHost* host() const { return under_test->host(); }
};

/// What one kernel answered, with a crash or hang as answer -1.
check::Answer answer_of(const FamilyKernel& k, const Inputs& in, std::string& failure) {
    try {
        return k.fn(in.data());
    } catch (const check::KernelFailure& e) {
        failure = e.what();
        return {-1, {}, 0};
    }
}

/// A disagreement, judged: what differs, whom the exact truth sides with,
/// the family's deciding test and the scale, as a violation is classed.
struct Disagreement {
    std::string what;     ///< "A hit, B miss", or "numbers: t" (the output that differs most)
    std::string sides;    ///< "A", "B", "neither", or "both" (numbers both within 1 u S of exact)
    std::string decided;  ///< the family's deciding test of the exact answer, when it has one
    std::string scale;    ///< check::scale_bucket
    /// As the case file keeps it: "what|sides|decided|scale".
    std::string str() const { return what + "|" + sides + "|" + decided + "|" + scale; }
    bool operator==(const Disagreement& o) const {
        return what == o.what && sides == o.sides && decided == o.decided && scale == o.scale;
    }
};

/// "A hit, B miss (on an edge), inputs ordinary (2^-20..2^20); the
/// references side with A".
std::string describe(const Disagreement& d) {
    return d.what + (d.decided.empty() ? "" : " (" + d.decided + ")") + ", inputs " + d.scale +
           "; the references side with " + d.sides;
}

std::string answer_name(const Family& f, int a) {
    return a >= 0 && a < int(f.answers.size()) ? f.answers[size_t(a)] : "no answer (crash or hang)";
}

/// Whether two answers' numbers differ by more than tol u max(|x|, |y|);
/// names the output that differs most.
bool numbers_differ(const Family& f, const check::Answer& x, const check::Answer& y, double tol, std::string& output) {
    double worst = 0;
    for (size_t i = 0; i < x.values.size() && i < y.values.size() && i < f.outputs.size(); ++i) {
        const double a = x.values[i], b = y.values[i];
        if (a == b || (std::isnan(a) && std::isnan(b))) continue;
        const double scale = std::max({std::fabs(a), std::fabs(b), check::least_normal()});
        const double units = std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b)
                                 ? INFINITY
                                 : std::fabs(a - b) / scale / check::unit_roundoff();
        if (units > tol && units > worst) {
            worst = units;
            output = f.outputs[i];
        }
    }
    return worst > 0;
}

/// Judges one input; nullopt when A and B agree (or the input decides
/// nothing: the references disagree, which replay reports elsewhere).
std::optional<Disagreement> disagreement(const Family& f, const FamilyKernel& ka, const FamilyKernel& kb,
                                         const Inputs& in, double tol) {
    std::string fa, fb, output;
    const check::Answer a = answer_of(ka, in, fa), b = answer_of(kb, in, fb);
    const bool answers = a.answer != b.answer;
    const bool carries = !answers && a.answer >= 0 && a.answer < int(f.answers.size()) &&
                         f.answer_has_values[size_t(a.answer)];
    if (!answers && !(carries && numbers_differ(f, a, b, tol, output))) return std::nullopt;
    const std::vector<FamilyKernel> both{ka, kb};
    check::CaseJudge judged(f, both, in, check::Oracle::slow, false);
    judged.finish();
    if (!judged.disagreement().empty()) return std::nullopt;
    const check::Truth& truth = judged.truth();
    Disagreement d;
    if (answers) {
        d.what = "A " + answer_name(f, a.answer) + ", B " + answer_name(f, b.answer);
        const bool ra = a.answer == truth.answer, rb = b.answer == truth.answer;
        d.sides = ra ? "A" : rb ? "B" : "neither";
    } else {
        // The numbers: each side's error against the exact ones, in units
        // of u S (the family's scales); the smaller is the one the
        // references side with, both when each is within 1.
        d.what = "numbers: " + output;
        const double ea = judged.judgements()[0].error.e, eb = judged.judgements()[1].error.e;
        d.sides = ea <= 1 && eb <= 1 ? "both" : ea < eb ? "A" : eb < ea ? "B" : "neither";
    }
    if (f.deciding) d.decided = f.deciding(in.data(), truth, truth.answer);
    d.scale = check::scale_bucket(f, in);
    return d;
}

struct DiffClass {
    Disagreement key;
    uint64_t count = 0;
    Inputs witness;
    uint64_t witness_case = 0;  ///< its case number: of equal witnesses the earlier is kept
    uint64_t first_case = 0;
    std::string path;
};

struct DiffFamily {
    const Family* family = nullptr;
    uint64_t inputs = 0, disagreements = 0;
    double seconds = 0;
    std::map<std::string, uint64_t> sides = {{"A", 0}, {"B", 0}, {"neither", 0}, {"both", 0}};
    std::vector<DiffClass> classes;

    /// Counts a disagreement on case n into its class; the class keeps its
    /// best witness (better_witness, then the earlier case), whoever counts.
    void add(const Disagreement& d, const Inputs& in, uint64_t n) {
        ++disagreements;
        ++sides[d.sides];
        add_class({d, 1, in, n, n, ""});
    }
    /// Adds another worker's counts of the same family.
    void merge(const DiffFamily& o) {
        inputs += o.inputs;
        disagreements += o.disagreements;
        for (const auto& [side, n] : o.sides) sides[side] += n;
        for (const DiffClass& c : o.classes) add_class(c);
    }

private:
    void add_class(const DiffClass& c) {
        auto at = std::find_if(classes.begin(), classes.end(), [&](const DiffClass& x) { return x.key == c.key; });
        if (at == classes.end()) {
            classes.push_back(c);
            return;
        }
        at->count += c.count;
        at->first_case = std::min(at->first_case, c.first_case);
        if (check::better_member(*family, c.witness, c.witness_case, at->witness, at->witness_case)) {
            at->witness = c.witness;
            at->witness_case = c.witness_case;
        }
    }
};

/// The classes' witnesses: the most ordinary member of each, minimised
/// inside the domain keeping its class, then written as a case.
void keep_witnesses(const DiffArgs& args, const Side& a, const Side& b, const FamilyKernel& ka, const FamilyKernel& kb,
                    const check::Domain& domain, DiffFamily& r, WitnessFiles& files) {
    const Family& f = *r.family;
    for (size_t c = 0; c < r.classes.size(); ++c) {
        DiffClass& cl = r.classes[c];
        const auto same = [&](const Inputs& t) {
            const auto d = disagreement(f, ka, kb, t, args.tolerance);
            return d && *d == cl.key;
        };
        if (c < 8) cl.witness = check::minimise_witness(f, domain, cl.witness, same);
        const std::string origin = "isect diff, seed " + std::to_string(args.seed) + ", domain " + domain.str() +
                                   "\nA = " + a.name() + ", B = " + b.name() + "\nclass " + std::to_string(c + 1) +
                                   " of " + std::to_string(r.classes.size()) + ", " + std::to_string(cl.count) +
                                   " inputs: " + describe(cl.key);
        const std::string who = "diff " + a.name() + " " + b.name();
        const check::Written w =
            files.keep(f.name + "|" + cl.key.str(), "diff-" + a.name() + "-" + b.name() + "-" + f.name + "-" + std::to_string(args.seed),
                       who, check::format_family_case(f, cl.witness, origin + "\nsignature: " + who + "|" + cl.key.str()));
        cl.path = w.ok() ? w.path : "";
    }
}

void print_text(std::ostream& out, const DiffArgs& args, const Side& a, const Side& b, const check::Domain& domain,
                const std::vector<DiffFamily>& results, const RunInfo& info) {
    if (!info.interrupted.empty())
        out << "INTERRUPTED by " << info.interrupted << ": this report covers the inputs judged before it\n";
    if (!info.fp_env.empty()) out << "kernels' floating-point environment: " << info.fp_env << "\n";
    out << "isect diff: A = " << a.name() << ", B = " << b.name() << ", seed " << args.seed << ", domain "
        << domain.str() << (args.tolerance > 0 ? ", numbers may differ by " + shortest(args.tolerance) + " u" : "")
        << "\n";
    for (const DiffFamily& r : results) {
        out << "\n" << family_label(*r.family, check::precision()) << ": " << r.inputs << " inputs in " << check::format_k(r.seconds) << " s, ";
        if (!r.disagreements) {
            out << "A and B agree on every one\n";
            continue;
        }
        out << r.disagreements << " disagree; the references side with A on " << r.sides.at("A") << ", with B on "
            << r.sides.at("B") << ", with neither on " << r.sides.at("neither");
        if (r.sides.at("both")) out << ", with both (numbers each within 1 u S) on " << r.sides.at("both");
        out << "\n";
        for (size_t c = 0; c < r.classes.size(); ++c) {
            const DiffClass& cl = r.classes[c];
            out << "  " << c + 1 << ". " << cl.count << " x " << describe(cl.key) << "\n";
            std::string shown = check::show_family_input(*r.family, cl.witness);
            for (size_t at = 0; (at = shown.find('\n', at)) != std::string::npos && at + 1 < shown.size(); at += 6)
                shown.replace(at, 1, "\n     ");
            out << "     " << shown << "     " << (cl.path.empty() ? "NOT SAVED (see the errors)" : "written to " + cl.path) << "\n";
        }
    }
    for (const CaseProblem& e : info.errors) out << "ERROR " << e.why << "\n";
}

void print_json(std::ostream& out, const DiffArgs& args, const Side& a, const Side& b, const check::Domain& domain,
                const std::vector<DiffFamily>& results, const RunInfo& info) {
    nlohmann::json run;
    run["command"] = "diff";
    run["a"] = a.name();
    run["b"] = b.name();
    run["seed"] = args.seed;
    run["domain"] = domain.str();
    run["precision"] = check::precision_name(check::precision());
    run["tolerance"] = args.tolerance;
    if (!info.fp_env.empty()) run["fp_env"] = info.fp_env;
    run["interrupted"] = info.interrupted.empty() ? nlohmann::json(nullptr) : nlohmann::json(info.interrupted);
    run["errors"] = nlohmann::json::array();
    for (const CaseProblem& e : info.errors) run["errors"].push_back({{"path", e.path}, {"why", e.why}});
    bool agree = true;
    for (const DiffFamily& r : results) {
        nlohmann::json fam;
        fam["family"] = r.family->name;
        fam["inputs"] = r.inputs;
        fam["disagreements"] = r.disagreements;
        fam["sides"] = r.sides;
        for (const DiffClass& cl : r.classes) {
            fam["classes"].push_back({{"signature", cl.key.str()},
                                      {"description", describe(cl.key)},
                                      {"count", cl.count},
                                      {"case", cl.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(cl.path)}});
        }
        agree = agree && r.disagreements == 0;
        run["families"].push_back(fam);
    }
    run["agree"] = agree;
    run["passed"] = agree && info.errors.empty() && info.interrupted.empty();
    out << run.dump(2) << "\n";
}

}  // namespace

int run_diff(const DiffArgs& args_in) {
    DiffArgs args = args_in;
    if (args.format != "text" && args.format != "json") {
        std::cerr << "isect diff: --format '" << args.format << "' is not text or json\n";
        return 2;
    }
    if (!set_precision_arg("diff", args.precision)) return 2;
    if (!args.seed_given) args.seed = std::random_device{}();
    if (const std::string why = check::probe_folder(args.out); !why.empty()) {
        std::cerr << "isect diff: --out " << why << "\n";
        return 2;
    }
    const size_t jobs = check::workers_for("diff", args.jobs, args.cases ? (args.cases + 15) / 16 : 0);
    // Each side a plugin (a path) or a built-in kernel's name, in one scope
    // and floating-point environment.
    Side a, b;
    for (auto [side, subject] : {std::pair{&a, &args.a}, std::pair{&b, &args.b}}) {
        check::SubjectArgs sub;
        (is_plugin(*subject) ? sub.plugin : sub.kernel) = *subject;
        sub.timeout_ms = args.timeout_ms;
        sub.fp_env = args.fp_env;
        sub.domain = args.domain;
        sub.require = args.require;
        side->under_test = check::KernelsUnderTest::make("diff", sub);
        if (!side->under_test || !side->under_test->start_workers("diff", jobs)) return 2;
    }
    const check::Domain& domain = a.under_test->domain();
    std::vector<DiffFamily> results;
    WitnessFiles files(args.out);
    RunInfo info;
    check::catch_interrupts();
    for (const Family* f : check::families()) {
        if (!args.family.empty() && args.family != f->name) continue;
        if (check::interrupted()) break;
        const auto ka = a.kernel(*f), kb = b.kernel(*f);
        if (!ka || !kb) continue;
        // The case stream isect check judges for this seed, shared by the
        // workers, each calling its own kernels (a plugin's worker each).
        check::StreamOptions stream_options;
        stream_options.seed = args.seed;
        stream_options.seconds = args.seconds;
        stream_options.max_cases = args.cases;
        stream_options.domain = domain;
        check::CaseStream stream(*f, stream_options, jobs);
        std::vector<DiffFamily> parts(jobs);
        check::run_workers(jobs, [&](size_t w) {
            DiffFamily& part = parts[w];
            part.family = f;
            const auto wa = a.kernel(*f, w), wb = b.kernel(*f, w);
            std::vector<check::StreamCase> block;
            while (stream.next(block))
                for (size_t i = 0; i < block.size(); ++i) {
                    const check::StreamCase& c = block[i];
                    if (!stream.more(i)) break;
                    ++part.inputs;
                    if (const auto d = disagreement(*f, *wa, *wb, c.generated.in, args.tolerance))
                        part.add(*d, c.generated.in, c.number);
                }
        });
        DiffFamily r;
        r.family = f;
        for (const DiffFamily& part : parts) r.merge(part);
        r.seconds = stream.elapsed();
        std::sort(r.classes.begin(), r.classes.end(), [](const DiffClass& x, const DiffClass& y) {
            return x.count != y.count ? x.count > y.count : x.first_case < y.first_case;
        });
        if (r.inputs == 0 && !check::interrupted()) {
            std::cerr << "isect diff: " << f->name << ": no input was judged (--seconds " << check::format_k(args.seconds)
                      << "); give more time or --cases N\n";
            return 2;
        }
        keep_witnesses(args, a, b, *ka, *kb, domain, r, files);
        results.push_back(std::move(r));
    }
    if (results.empty()) {
        std::cerr << "isect diff: no family " << (args.family.empty() ? "" : "'" + args.family + "' ")
                  << "has a " << check::precision_name(check::precision()) << " kernel on both sides ('" << a.name()
                  << "', '" << b.name() << "'); `isect kernels` lists the built-in ones\n";
        return 2;
    }
    for (const std::string& e : files.errors()) info.errors.push_back({e.substr(0, e.find(": ")), "witness not saved: " + e});
    if (check::interrupted()) info.interrupted = check::interrupt_name();
    info.fp_env = a.under_test->fp_env_line();
    if (b.under_test->fp_env_line() != info.fp_env)
        info.fp_env = "A: " + info.fp_env + "; B: " + b.under_test->fp_env_line();
    if (args.format == "json") print_json(std::cout, args, a, b, domain, results, info);
    else print_text(std::cout, args, a, b, domain, results, info);
    if (check::interrupted()) return check::interrupted_status();
    for (const DiffFamily& r : results)
        if (r.disagreements) return 1;
    return info.errors.empty() ? 0 : 2;
}

CLI::App* add_diff_command(CLI::App& app, DiffArgs& a) {
    CLI::App* c = app.add_subcommand("diff", "Two kernels on the same inputs: where they disagree, and which one the references side with");
    c->add_option("a", a.a, "A plugin (a path) or a built-in kernel's name")->required();
    c->add_option("b", a.b, "Another plugin or built-in kernel")->required();
    c->add_option("--family", a.family, "One family (default: every family both have)");
    c->add_option("--precision", a.precision, "float (default) or double: the kernels compared");
    c->add_option("--domain", a.domain, "Only inputs whose nonzero magnitudes lie in LO:HI");
    c->add_option("--require", a.require, "Only inputs that meet these preconditions (`isect kernels` lists them)");
    c->add_option("--seconds", a.seconds, "Time budget, per family")->check(real_in(0, 1e7, true));
    c->add_option("--cases", a.cases, "Stop after this many inputs per family instead of --seconds")->check(whole_in(1, uint64_t(1e15)));
    c->add_option("--seed", a.seed, "Random seed (default: a fresh one, printed)")
        ->check(whole_in(0, UINT64_MAX))
        ->each([&a](const std::string&) { a.seed_given = true; });
    c->add_option("--tolerance", a.tolerance,
                  "Numbers may differ by this many u max(|a|, |b|) (u = 2^-24 or 2^-53; default 0: any difference)")
        ->check(real_in(0, 1e15));
    c->add_option("--fp-env", a.fp_env, "Both kernels' floating-point environment: default, ftz, daz or ftz,daz");
    c->add_option("--out", a.out, "Folder for the classes' witness cases (default: findings)");
    c->add_option("--format", a.format, "text (default) or json");
    c->add_option("--jobs,-j", a.jobs, "Workers (default 0: every core available); the inputs and classes are the same")
        ->check(whole_in(0, 4096));
    c->add_option("--timeout-ms", a.timeout_ms, "A plugin call taking longer is a hang (default 2000)")->check(whole_in(1, 86400000));
    return c;
}

}  // namespace isect::tool
