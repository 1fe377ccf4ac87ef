#include "campaign.hpp"

#include "options.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_command.hpp"
#include "check/io/case_file.hpp"
#include "check/io/child.hpp"
#include "check/model/family.hpp"
#include "check/engine/judge.hpp"
#include "check/engine/run.hpp"
#include "check/engine/findings.hpp"
#include "check/engine/witness.hpp"
#include "check/io/fuzz_bytes.hpp"
#include "check/io/interrupt.hpp"
#include "check/io/plugin_host.hpp"
#include "check/io/safe_write.hpp"
#include "check/engine/kernels_under_test.hpp"
#include "check/engine/relation.hpp"
#include "report.hpp"

namespace isect::tool {

namespace fs = std::filesystem;
using check::Family;
using check::FamilyKernel;
using check::Finding;

namespace {

/// Picks "key: value" out of a libFuzzer status line.
std::string field(const std::string& line, const std::string& key) {
    const size_t at = line.find(key);
    if (at == std::string::npos) return "";
    size_t b = at + key.size();
    while (b < line.size() && (line[b] == ' ' || line[b] == ':')) ++b;
    size_t e = b;
    while (e < line.size() && line[e] != ' ') ++e;
    return line.substr(b, e - b);
}

}  // namespace

int run_minimize(const std::string& path, const check::SubjectArgs& subject, const std::string& out) {
    const check::ReadResult r = check::read_case_file(path);
    if (const auto* errors = std::get_if<std::vector<check::CaseError>>(&r)) {
        for (const auto& e : *errors) std::cerr << "error: " << e.str() << "\n";
        return 2;
    }
    const check::FamilyCase& c = std::get<check::FamilyCase>(r);
    const check::PrecisionScope scope(c.precision);  // a double case: the double kernels, u = 2^-53
    const auto in_scope = check::KernelsUnderTest::make("minimize", subject);
    if (!in_scope) return 2;
    const Family& f = in_scope->family(*c.family);
    std::string none;
    const std::vector<FamilyKernel> kernels = in_scope->kernels(f, &none);
    if (kernels.empty()) {
        std::cerr << "isect minimize: " << none << "\n";
        return 2;
    }
    const std::vector<check::Relation> relations = in_scope->relations(f, kernels);
    std::optional<check::Finding> found;
    try {
        found = check::fuzz_one(f, kernels, c.in, true, nullptr, &relations);
    } catch (const std::exception&) {
    }
    if (!found) {
        std::cerr << "isect minimize: " << c.path << ": every kernel keeps its contract and the references agree; "
                  << "nothing to minimise (name the kernel that fails with --kernel, or --plugin)\n";
        return 1;
    }
    const check::Domain& domain = in_scope->domain();
    if (const std::string why = domain.outside(f, c.in.data()); !why.empty()) {
        std::cerr << "isect minimize: " << c.path << " is outside what was asked for: " << why << "\n";
        return 2;
    }
    // The finding's class, minimised as every command minimises one.
    check::FailureClass fc = check::class_of(*found, c.in);
    check::minimise_finding(f, kernels, *found, fc, domain);
    const std::optional<check::RelationKind> relation =
        found->relation ? std::optional<check::RelationKind>(found->relation->kind) : std::nullopt;
    const std::string text = check::finding_case(f, fc, {(c.origin.empty() ? "" : c.origin + "\n") + "minimised by isect minimize", "", ""}, relation);
    if (out.empty()) {
        std::cout << text;
    } else {
        const check::Written w = check::write_file_atomic(out, text);
        if (!w.ok()) {
            std::cerr << "isect minimize: " << w.error << "\n";
            return 2;
        }
        std::cerr << "isect minimize: wrote " << out << "\n";
    }
    return 0;
}

namespace {

/// Whether `inner` is `outer` or lies inside it (both made absolute).
bool inside(const fs::path& inner, const fs::path& outer) {
    std::error_code ec;
    const fs::path a = fs::weakly_canonical(inner, ec), b = fs::weakly_canonical(outer, ec);
    if (b.empty()) return false;
    const auto m = std::mismatch(b.begin(), b.end(), a.begin(), a.end());
    return m.first == b.end();
}

/// The folder campaigns work in: --work, else ./isect-fuzz, unless the
/// current folder is inside isect's source tree or install prefix (whose
/// files a campaign must not touch): then the user's cache,
/// $XDG_CACHE_HOME/isect/fuzz or ~/.cache/isect/fuzz.
fs::path work_folder(const FuzzArgs& args) {
    if (!args.work.empty()) return fs::absolute(args.work);
    std::error_code ec;
    const fs::path here = fs::current_path(ec);
    const fs::path prefix = check::this_program().parent_path().parent_path();
    const bool ours = inside(here, args.source_dir) || (!ec && fs::exists(prefix / "share" / "isect") && inside(here, prefix));
    if (!ours) return here / "isect-fuzz";
    const char* cache = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    if (cache && *cache) return fs::path(cache) / "isect" / "fuzz";
    return fs::path(home && *home ? home : "/tmp") / ".cache" / "isect" / "fuzz";
}

/// Where the isect fuzz files installed with isect live: share/isect beside
/// the binary, or the source tree it was built from.
std::string shared_file(const FuzzArgs& args, const std::string& rel) {
    if (const fs::path installed = check::installed_file(rel); !installed.empty()) return installed.string();
    const fs::path source = fs::path(args.source_dir) / rel;
    return fs::exists(source) ? source.string() : "";
}

/// The bytes of a file.
std::vector<uint8_t> file_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), {});
}

/// The folder of a family's campaigns: its family, conventions and subject,
/// so that unrelated campaigns never share a pool.
fs::path campaign_folder(const FuzzArgs& args, const Family& f) {
    std::string name = f.name;
    for (const std::string& c : f.followed) name += "-" + c;
    name += "-" + file_stem(args.subject.plugin.empty() ? (args.subject.kernel.empty() ? "built-in" : args.subject.kernel)
                                                        : fs::path(args.subject.plugin).stem().string());
    if (args.precision == "double") name += "-double";
    return work_folder(args) / name;
}

/// What a libFuzzer run did: how many inputs it ran, its last speed and
/// coverage.
struct LibFuzzerRun {
    uint64_t inputs = 0;
    std::string execs = "?", cov = "?";
};

/// Runs family f's target in fork mode in `work` (its pool in `pool`, the
/// target's findings in work/findings, libFuzzer's crashes in
/// work/artifacts), its output into work/libfuzzer.log and a progress line.
/// libFuzzer leads a process group of its own: a signal stops the whole
/// group (killed outright two seconds later); what it found so far is on
/// disk. nullopt when it could not be started.
std::optional<LibFuzzerRun> run_libfuzzer(const FuzzArgs& args, const Family& f, const check::Domain& domain,
                                          const fs::path& work, const fs::path& pool, std::string& fp_note) {
    const fs::path found_dir = work / "findings";
    std::vector<std::string> argv = {args.fuzz_dir + "/fuzz_" + f.name,
                                     "-fork=" + std::to_string(std::max(1, args.jobs)),
                                     "-ignore_crashes=1",
                                     "-max_total_time=" + std::to_string(std::max(1, int(args.minutes * 60))),
                                     // a seed case's text; every slot of the longest layout is 2 + 9 x 16 bytes in double
                                     "-max_len=1024",
                                     "-artifact_prefix=" + (work / "artifacts").string() + "/",
                                     pool.string()};
    if (const std::string dict = shared_file(args, "fuzz/floats.dict"); !dict.empty()) argv.insert(argv.begin() + 5, "-dict=" + dict);
    // The seeds are the family's corpus, case files as they are.
    if (const std::string seeds = shared_file(args, "corpus/" + f.name); !seeds.empty()) argv.push_back(seeds);
    check::ChildSpec spec;
    spec.argv = argv;
    spec.own_group = true;
    const auto set = [&spec](const char* var, const std::string& value) { spec.env.push_back(std::string(var) + "=" + value); };
    const auto joined = [](const std::vector<std::string>& names) {
        std::string out;
        for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
        return out;
    };
    // The kernels, as this campaign chose them, in the one form every
    // command and target reads (the plugin by its absolute path; the scope
    // this campaign merged from the command line and the plugin).
    check::SubjectArgs sub = args.subject;
    if (!sub.plugin.empty()) sub.plugin = fs::absolute(check::resolve_plugin_path(sub.plugin)).string();
    sub.domain = domain.everything() ? "" : domain.str();
    sub.require = joined(domain.required);
    sub.convention = joined(f.followed);
    set("ISECT_FUZZ_SUBJECT", sub.text());
    if (args.plain_mutator) set("ISECT_FUZZ_MUTATOR", "plain");
    set("ISECT_FUZZ_PRECISION", args.precision);
    set("ISECT_FUZZ_FINDINGS", found_dir.string());
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) return std::nullopt;
    spec.fds = {{pipefd[1], STDOUT_FILENO}, {pipefd[1], STDERR_FILENO}};
    std::string not_started;
    const pid_t child = check::start_child(spec, not_started);
    close(pipefd[1]);
    if (child < 0) {
        close(pipefd[0]);
        std::cerr << "isect fuzz: " << not_started << "\n";
        return std::nullopt;
    }
    check::forward_interrupts_to(child);
    const bool tty = isatty(STDERR_FILENO);
    FILE* from = fdopen(pipefd[0], "r");
    std::ofstream log(work / "libfuzzer.log");
    LibFuzzerRun run;
    std::error_code ec;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, from)) {
        const std::string line(buf);
        log << line;
        if (line.find("CHANGED the floating-point control state") != std::string::npos && fp_note.empty())
            fp_note = line.substr(line.find("the kernel"), line.find('(') - line.find("the kernel") - 1);
        if (line.rfind("#", 0) != 0) continue;
        run.inputs = std::max<uint64_t>(run.inputs, std::strtoull(line.c_str() + 1, nullptr, 10));
        if (auto e = field(line, "exec/s"); !e.empty()) run.execs = e;
        if (auto c = field(line, "cov:"); !c.empty()) run.cov = c;
        size_t kept = 0;
        for (fs::directory_iterator it(found_dir, ec), end; !ec && it != end; it.increment(ec)) ++kept;
        std::fprintf(stderr, "%s[fuzz %s] exec/s %s  cov %s  classes found %zu  %s", tty ? "\r" : "", f.name.c_str(),
                     run.execs.c_str(), run.cov.c_str(), kept, tty ? "" : "\n");
    }
    fclose(from);
    int status = 0;
    waitpid(child, &status, 0);
    check::forward_interrupts_to(0);
    kill(-child, SIGKILL);  // a fork job left behind
    if (tty) std::fprintf(stderr, "\n");
    return run;
}

/// The inputs a campaign found: the target's findings and libFuzzer's
/// crash and timeout artefacts, in order.
std::vector<fs::path> inputs_found(const fs::path& work) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const fs::path& dir : {work / "findings", work / "artifacts"})
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().filename().string()[0] != '.') out.push_back(it->path());
    std::sort(out.begin(), out.end());
    return out;
}

/// One family's campaign: libFuzzer in fork mode, whose target keeps each
/// failure class's first input in a findings folder and goes on (so that a
/// kernel failing on many inputs does not end every job); then every input
/// found kept as every finding is (CampaignFindings). Each campaign works
/// in a folder of its own, so that one never deletes another's. Returns the
/// number of new cases and crashes kept, or -1 on an error.
int fuzz_family(const FuzzArgs& args, const Family& f, const std::vector<FamilyKernel>& kernels,
                const std::vector<check::Relation>& relations, const check::Domain& domain, const std::string& who,
                const std::string& corpus, FamilyResult& result, uint64_t& inputs_run, std::string& fp_note) {
    const fs::path base = campaign_folder(args, f), pool = base / "pool";
    std::error_code ec;
    fs::create_directories(pool, ec);
    std::string run_dir = (base / "run-XXXXXX").string();
    if (ec || !mkdtemp(run_dir.data())) {
        std::cerr << "isect fuzz: cannot make a work folder in " << base.string() << ": " << std::strerror(errno) << "\n";
        return -1;
    }
    const fs::path work(run_dir), artifacts = work / "artifacts";
    fs::create_directories(artifacts, ec);
    fs::create_directories(work / "findings", ec);
    std::cerr << "isect fuzz: " << f.name << ", kernel " << who << ", domain " << domain.str() << ", " << args.minutes
              << " min on " << args.jobs << " job(s)\n";
    const auto started = std::chrono::steady_clock::now();
    const std::optional<LibFuzzerRun> ran = run_libfuzzer(args, f, domain, work, pool, fp_note);
    if (!ran) return -1;
    if (check::interrupted()) std::cerr << "isect fuzz: interrupted by " << check::interrupt_name() << "; keeping what was found\n";
    inputs_run = ran->inputs;

    std::ostream& lines = args.format == "text" ? std::cout : std::cerr;
    result.family = &f;
    result.precision = check::precision();
    result.report_domain = domain.str();
    check::CampaignFindings findings(f, kernels, relations, domain, corpus,
                                     "found by isect fuzz (" + f.name + ", kernel " + who + ", domain " + domain.str() + ")",
                                     result.report);
    int unexplained = 0;
    for (const fs::path& file : inputs_found(work)) {
        const std::vector<uint8_t> bytes = file_bytes(file);
        const check::Inputs input = check::decode_fuzz(f, bytes.data(), bytes.size(), domain);
        // The target judges only what the bytes fit into; so does this.
        if (f.in_domain(input.data(), nullptr) && !domain.covers(f, input.data())) continue;
        const check::CampaignFindings::Taken taken = findings.take(input);
        using Fate = check::CampaignFindings::Taken::Fate;
        if (taken.fate == Fate::new_case) lines << "new case " << taken.path << ": " << taken.line << "\n";
        if (taken.fate == Fate::not_saved) lines << "isect fuzz: finding NOT saved: " << taken.line << "\n";
        if (taken.fate != Fate::holds) continue;
        // The target kept it (a finding of its own, or libFuzzer's crash or
        // timeout artefact), but judged again here, through the kernels as
        // isect replay runs them, it breaks no contract.
        ++unexplained;
        const std::string why = file.parent_path() == artifacts
                                    ? "libFuzzer kept it as a crash or timeout of the target, and judged again here it "
                                      "breaks no contract; the input is kept there"
                                    : "the target found a broken contract on it, and judged again here (as isect replay "
                                      "judges it) it breaks none; the input is kept there";
        result.problems.push_back({file.string(), why});
        lines << "isect fuzz: " << file.string() << ": " << why << "\n";
    }
    findings.finish(ran->inputs);
    result.report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    result.new_cases = findings.new_cases();
    result.duplicates = findings.duplicates();
    result.mismatch_path = findings.mismatch_path();
    for (const std::string& e : findings.files().errors())
        result.problems.push_back({e.substr(0, e.find(": ")), "finding not saved: " + e});
    lines << "isect fuzz: " << f.name << " done; last exec/s " << ran->execs << ", coverage " << ran->cov << "; "
          << result.new_cases << " new case(s), " << result.duplicates << " duplicate finding(s), " << unexplained
          << " crash(es) kept as bytes; libFuzzer log in " << (work / "libfuzzer.log").string() << "\n";
    // The work folder goes once everything in it is judged; kept while it
    // holds a crash's bytes.
    if (!unexplained) {
        fs::remove_all(artifacts, ec);
        fs::remove_all(work / "findings", ec);
    }
    return int(result.new_cases) + unexplained;
}

}  // namespace

int run_fuzz(const FuzzArgs& args) {
    if (!known_format(args.format)) {
        std::cerr << "isect fuzz: --format '" << args.format << "' is not text, markdown, json or junit\n";
        return 2;
    }
    if (!set_precision_arg("fuzz", args.precision)) return 2;
    // The target fuzzes a plugin in process; findings are judged again here
    // through a worker, so a crash stays a kept input.
    const auto under_test = check::KernelsUnderTest::make("fuzz", args.subject);
    if (!under_test) return 2;
    check::PluginHost* host = under_test->host();
    const check::Domain& domain = under_test->domain();
    std::vector<const Family*> families;
    for (const Family* base : check::families())
        if (args.family.empty() || args.family == base->name)
            for (const Family* f : under_test->families_of(*base))
                if (!under_test->kernels(*f).empty()) families.push_back(f);
    if (families.empty()) {
        if (host)
            std::cerr << "isect fuzz: " << args.subject.plugin << " does not export isect_" << args.family
                      << (check::precision() == check::Precision::double_ ? "_d" : "") << "\n";
        else
            std::cerr << "isect fuzz: no family '" << args.family << "' with kernel '" << args.subject.kernel
                      << "' (isect kernels lists them)\n";
        return 2;
    }
    RunInfo info;
    info.command = "fuzz";
    info.take_subject(*under_test);
    // The targets: built here from isect's source tree when they are not
    // (clang and libFuzzer, as ./isect fuzz builds them), else the one
    // command that builds them is named.
    if (!fs::exists(args.fuzz_dir + "/fuzz_" + families.front()->name)) {
        const fs::path script = fs::path(args.source_dir) / "isect";
        if (std::getenv("ISECT_FUZZ_DIR") == nullptr && fs::exists(script)) {
            std::cerr << "isect fuzz: no libFuzzer targets in " << args.fuzz_dir << "; building them: " << script.string()
                      << " fuzz-targets\n";
            std::string why;
            const int status = check::run_child({script.string(), "fuzz-targets"}, nullptr, why);
            if (status != 0) {
                std::cerr << "isect fuzz: building the fuzz targets failed (" << (status < 0 ? why : "its output is above")
                          << ")\n";
                return 2;
            }
        }
        if (!fs::exists(args.fuzz_dir + "/fuzz_" + families.front()->name)) {
            std::cerr << "isect fuzz: no libFuzzer target " << args.fuzz_dir << "/fuzz_" << families.front()->name
                      << ": build the targets with clang and -DISECT_BUILD_FUZZ=ON (isect's ./isect fuzz-targets does) "
                         "and set ISECT_FUZZ_DIR to their folder\n";
            return 2;
        }
    }
    // The corpus folder must take the cases before a minute is spent.
    const auto corpus_of = [&](const Family& f) {
        return !args.corpus.empty() ? args.corpus : host ? std::string("findings") : "corpus/" + f.name;
    };
    for (const Family* f : families)
        if (const std::string why = check::probe_folder(corpus_of(*f)); !why.empty()) {
            std::cerr << "isect fuzz: --corpus " << why << "\n";
            return 2;
        }
    check::catch_interrupts();
    std::vector<FamilyResult> results;
    int found = 0;
    std::string fp_note;  // what a target said of a kernel changing the state
    for (const Family* f : families) {
        const std::vector<FamilyKernel> kernels = under_test->kernels(*f);
        const std::string who = host ? "plugin " + args.subject.plugin + " (" + under_test->plugin_contract()->str() + ")"
                                     : args.subject.kernel.empty() ? "built-in" : args.subject.kernel;
        FamilyResult result;
        uint64_t inputs = 0;
        const int n = fuzz_family(args, *f, kernels, under_test->relations(*f, kernels), domain, who, corpus_of(*f), result,
                                  inputs, fp_note);
        if (n < 0) return 2;
        if (inputs == 0 && !check::interrupted()) {
            std::cerr << "isect fuzz: " << f->name << ": libFuzzer ran no input (its log says why); no verdict\n";
            return 2;
        }
        found += n;
        results.push_back(std::move(result));
        if (check::interrupted()) break;
    }
    if (check::interrupted()) info.interrupted = check::interrupt_name();
    info.fp_env = under_test->fp_env_line();
    info.notes = under_test->notes();
    if (!fp_note.empty() && info.fp_env.find("CHANGED") == std::string::npos) info.fp_env += "; " + fp_note;
    if (args.format == "text") std::cout << "\n";
    print_report(std::cout, args.format, info, results);
    if (check::interrupted()) return check::interrupted_status();
    return found > 0 ? 1 : 0;
}

CLI::App* add_fuzz_command(CLI::App& app, FuzzArgs& a) {
    CLI::App* c = app.add_subcommand("fuzz", "Run libFuzzer campaigns; findings become minimised corpus cases");
    c->add_option("--family", a.family, "One family (default: every family)");
    add_subject_options(c, a.subject, "fitted into them, or not judged");
    c->add_option("--minutes", a.minutes, "Campaign length, per family")->check(real_in(0, 1e6, true));
    c->add_option("--jobs", a.jobs, "libFuzzer fork-mode jobs (cores)")->check(whole_in(1, 1024));
    c->add_option("--work", a.work,
                  "Where campaigns keep their pools, logs and inputs kept as bytes (default ./isect-fuzz; the user's "
                  "cache folder when run inside isect's source or install tree)");
    c->add_option("--corpus", a.corpus, "Where new cases go (default: ./corpus/FAMILY of the current folder; ./findings for a plugin)");
    c->add_flag("--plain-mutator", a.plain_mutator, "libFuzzer's mutations only (for comparisons)");
    c->add_option("--format", a.format, "Report as text, markdown, json or junit");
    c->add_option("--precision", a.precision, "float (default) or double: the inputs and kernels fuzzed");
    return c;
}

CLI::App* add_minimize_command(CLI::App& app, MinimizeArgs& a) {
    CLI::App* c = app.add_subcommand("minimize", "Shrink a failing case to the simplest one that still fails");
    c->add_option("case", a.path, "The case file")->required();
    add_subject_options(c, a.subject, "never tried (every trial stays inside)");
    c->add_option("-o,--out", a.out, "Write here instead of stdout");
    return c;
}

}  // namespace isect::tool
