#include "campaign.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
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
#include "isect/check/case_file.hpp"
#include "isect/check/family.hpp"
#include "isect/check/fuzz.hpp"
#include "isect/check/plugin.hpp"
#include "report.hpp"

namespace isect::tool {

namespace fs = std::filesystem;
using check::Family;
using check::FamilyKernel;
using check::Finding;

namespace {

/// The finding on an input, judged by the references on every input.
std::optional<Finding> finding_on(const Family& f, const std::vector<FamilyKernel>& kernels, const check::Inputs& in) {
    try {
        return check::fuzz_one(f, kernels, in, true);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

/// Simplifies while the same signature is found, inside the domain.
check::Inputs minimise(const Family& f, const std::vector<FamilyKernel>& kernels, const check::Inputs& in,
                       const std::string& signature, const check::Domain& domain) {
    return check::simplify_floats(
        in, [&](const check::Inputs& t) { return f.domain(t.data()).empty() && domain.outside(f, t.data()).empty(); },
        [&](const check::Inputs& t) {
            const auto g = finding_on(f, kernels, t);
            return g && g->signature == signature;
        });
}

/// The signatures already in the corpus ("signature: ..." in a case's
/// origin), each with the case that has it.
std::map<std::string, std::string> known_signatures(const std::string& dir) {
    std::map<std::string, std::string> out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() != ".case") continue;
        std::ifstream in(it->path());
        for (std::string line; std::getline(in, line);) {
            const size_t at = line.find("signature: ");
            if (line.rfind("#", 0) == 0 && at != std::string::npos) out.emplace(line.substr(at + 11), it->path().string());
        }
    }
    return out;
}

/// fuzz-KERNEL-HASH.case, HASH of the whole signature.
std::string file_name_for(const std::string& signature) {
    std::string name;
    for (char c : signature.substr(0, signature.find('|'))) name += std::isalnum((unsigned char)c) ? c : '_';
    uint32_t h = 2166136261u;
    for (char c : signature) h = (h ^ uint8_t(c)) * 16777619u;
    char hex[9];
    std::snprintf(hex, sizeof hex, "%08x", h);
    return "fuzz-" + name + "-" + hex + ".case";
}

volatile std::sig_atomic_t g_interrupted = 0;
volatile pid_t g_child = 0;
/// Ctrl-C: remember it and pass it on to libFuzzer's process group (libFuzzer
/// runs in a group of its own). A fork-mode parent does not always stop on
/// SIGINT, so two seconds later the group is killed; crash files already
/// written are kept either way.
void on_alarm(int) {
    if (g_child > 0) kill(-g_child, SIGKILL);
}
void on_interrupt(int) {
    g_interrupted = 1;
    if (g_child > 0) kill(-g_child, SIGINT);
    std::signal(SIGALRM, on_alarm);
    alarm(2);
}

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

int run_minimize(const std::string& path, const std::string& kernel, const std::string& out) {
    const check::ReadResult r = check::read_case_file(path);
    if (const auto* errors = std::get_if<std::vector<check::CaseError>>(&r)) {
        for (const auto& e : *errors) std::cerr << "error: " << e.str() << "\n";
        return 2;
    }
    const check::FamilyCase& c = std::get<check::FamilyCase>(r);
    const check::PrecisionScope scope(c.precision);  // a double case: the double kernels, u = 2^-53
    const Family& f = *c.family;
    std::vector<FamilyKernel> kernels;
    if (kernel.empty()) kernels = f.kernels();
    else if (const auto k = f.find_kernel(kernel)) kernels.push_back(*k);
    if (kernels.empty()) {
        std::cerr << "isect minimize: " << f.name << " has no kernel named '" << kernel << "'\n";
        return 2;
    }
    const auto found = finding_on(f, kernels, c.in);
    if (!found) {
        std::cerr << "isect minimize: " << c.path << ": every kernel keeps its contract and the references agree; "
                  << "nothing to minimise (name a kernel with --kernel)\n";
        return 1;
    }
    const check::Inputs small = minimise(f, kernels, c.in, found->signature, check::Domain{});
    const auto again = finding_on(f, kernels, small);
    std::string origin = c.origin.empty() ? "" : c.origin + "\n";
    origin += "minimised by isect minimize: " + again->message + "\nsignature: " + again->signature;
    const std::string text = check::format_family_case(f, small, origin);
    if (out.empty()) {
        std::cout << text;
    } else {
        std::ofstream(out) << text;
        std::cerr << "isect minimize: wrote " << out << "\n";
    }
    return 0;
}

namespace {

/// One family's campaign: libFuzzer in fork mode, then every artifact
/// judged again, minimised, de-duplicated and written, and counted into the
/// family's report (over the findings: libFuzzer reports nothing of the
/// inputs every kernel got right). Returns the number of new cases and
/// crashes kept, or -1 on a usage error.
int fuzz_family(const FuzzArgs& args, const Family& f, const std::vector<FamilyKernel>& kernels,
                const check::Domain& domain, const std::string& who, FamilyResult& result) {
    const std::string target = args.fuzz_dir + "/fuzz_" + f.name;
    if (!fs::exists(target)) {
        std::cerr << "isect fuzz: no libFuzzer target at '" << target << "' (./isect fuzz builds it with clang)\n";
        return -1;
    }
    const std::string corpus = !args.corpus.empty() ? args.corpus : !args.plugin.empty() ? "findings" : args.source_dir + "/corpus/" + f.name;
    const fs::path work = fs::path(args.fuzz_dir) / ".." / ("campaign_" + f.name), pool = work / "pool",
                   artifacts = work / "artifacts";
    fs::create_directories(pool);
    fs::remove_all(artifacts);
    fs::create_directories(artifacts);
    fs::create_directories(corpus);
    const std::string seeds = args.source_dir + "/fuzz/seeds/" + f.name;
    std::vector<std::string> argv = {target,
                                     "-fork=" + std::to_string(std::max(1, args.jobs)),
                                     "-ignore_crashes=1",
                                     "-max_total_time=" + std::to_string(std::max(1, int(args.minutes * 60))),
                                     // every slot of the longest layout: 2 + 9 x 16 bytes in double
                                     check::precision() == check::Precision::double_ ? "-max_len=256" : "-max_len=128",
                                     "-dict=" + args.source_dir + "/fuzz/floats.dict",
                                     "-artifact_prefix=" + artifacts.string() + "/",
                                     pool.string()};
    if (fs::exists(seeds)) argv.push_back(seeds);
    std::cerr << "isect fuzz: " << f.name << ", kernel " << who << ", domain " << domain.str() << ", " << args.minutes
              << " min on " << args.jobs << " job(s)\n";
    const auto started = std::chrono::steady_clock::now();

    int pipefd[2];
    if (pipe(pipefd) != 0) return -1;
    const pid_t child = fork();
    if (child == 0) {
        setpgid(0, 0);
        dup2(pipefd[1], STDERR_FILENO);
        dup2(pipefd[1], STDOUT_FILENO);
        close(pipefd[0]);
        close(pipefd[1]);
        if (!args.kernel.empty()) setenv("ISECT_FUZZ_KERNEL", args.kernel.c_str(), 1);
        if (!args.plugin.empty()) {
            setenv("ISECT_FUZZ_PLUGIN", fs::absolute(args.plugin).c_str(), 1);
            setenv("ISECT_FUZZ_CONTRACT", args.contract.c_str(), 1);
        }
        if (!domain.everything()) setenv("ISECT_FUZZ_DOMAIN", args.domain_text.c_str(), 1);
        if (args.plain_mutator) setenv("ISECT_FUZZ_MUTATOR", "plain", 1);
        setenv("ISECT_FUZZ_PRECISION", args.precision.c_str(), 1);
        std::vector<char*> cargv;
        for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
        cargv.push_back(nullptr);
        execv(cargv[0], cargv.data());
        std::perror("isect fuzz: exec");
        _exit(127);
    }
    close(pipefd[1]);
    // After Ctrl-C we keep going, to collect what libFuzzer found so far.
    setpgid(child, child);
    g_child = child;
    std::signal(SIGINT, on_interrupt);
    const bool tty = isatty(STDERR_FILENO);
    FILE* from = fdopen(pipefd[0], "r");
    std::ofstream log(work / "libfuzzer.log");
    std::string execs = "?", cov = "?", crashes = "0";
    uint64_t inputs = 0;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, from)) {
        const std::string line(buf);
        log << line;
        if (line.rfind("#", 0) != 0) continue;
        inputs = std::max<uint64_t>(inputs, std::strtoull(line.c_str() + 1, nullptr, 10));
        if (auto e = field(line, "exec/s"); !e.empty()) execs = e;
        if (auto c = field(line, "cov:"); !c.empty()) cov = c;
        if (auto o = field(line, "oom/timeout/crash:"); !o.empty()) crashes = o.substr(o.rfind('/') + 1);
        std::fprintf(stderr, "%s[fuzz %s] exec/s %s  cov %s  findings %s  %s", tty ? "\r" : "", f.name.c_str(),
                     execs.c_str(), cov.c_str(), crashes.c_str(), tty ? "" : "\n");
    }
    fclose(from);
    int status = 0;
    waitpid(child, &status, 0);
    alarm(0);
    std::signal(SIGINT, SIG_DFL);
    if (tty) std::fprintf(stderr, "\n");
    if (g_interrupted) std::cerr << "isect fuzz: interrupted; keeping what was found\n";

    // Findings: decode, judge again with the references on every input,
    // minimise, de-duplicate by failure class, write into the corpus.
    std::ostream& lines = args.format == "text" ? std::cout : std::cerr;
    result.family = &f;
    result.precision = check::precision();
    result.report.family = f.name;
    result.report.cases = inputs;
    result.report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    result.report_domain = domain.str();
    for (const FamilyKernel& k : kernels) result.report.kernels.push_back(check::kernel_report_for(k));
    std::vector<std::map<std::string, std::string>> witness_files(kernels.size());  // class -> case file
    std::set<std::string> written;
    std::map<std::string, std::string> known = known_signatures(corpus);
    int unexplained = 0;
    for (const auto& entry : fs::directory_iterator(artifacts)) {
        std::ifstream in(entry.path(), std::ios::binary);
        const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
        const check::Inputs input = check::decode_fuzz(f, bytes.data(), bytes.size(), domain);
        const auto found = finding_on(f, kernels, input);
        if (!found) {
            ++unexplained;  // a crash or timeout of a kernel, not a contract: keep the bytes
            result.problems.push_back({entry.path().string(),
                                       "not a contract finding (a crash or timeout in a kernel?); the input is kept there"});
            lines << "isect fuzz: " << entry.path().string()
                  << " is not a contract finding (a crash or timeout in a kernel?); the input is kept there\n";
            continue;
        }
        check::Inputs kept = input;
        std::string path;
        if (const auto at = known.find(found->signature); at != known.end()) {
            ++result.duplicates;
            path = at->second;
        } else {
            kept = minimise(f, kernels, input, found->signature, domain);
            const auto again = finding_on(f, kernels, kept);
            const std::string origin = "found by isect fuzz (" + f.name + ", kernel " + who + ", domain " +
                                       domain.str() + "), minimised\n" + again->message + "\nsignature: " + found->signature;
            path = (fs::path(corpus) / file_name_for(found->signature)).string();
            std::ofstream(path) << check::format_family_case(f, kept, origin);
            known.emplace(found->signature, path);
            written.insert(path);
            ++result.new_cases;
            lines << "new case " << path << ": " << again->message << "\n";
        }
        // Counted as every check counts a case: each kernel judged on it.
        check::Truth truth;
        try {
            truth = f.truth(kept.data());
        } catch (const check::ReferenceMismatch& e) {
            if (!result.report.reference_mismatches++) {
                result.report.mismatch = kept;
                result.report.mismatch_message = e.what();
                result.mismatch_path = path;
            }
            continue;
        }
        ++result.report.reference_cases;
        for (size_t i = 0; i < kernels.size(); ++i) {
            const check::FamilyJudgement j = check::judge(f, kernels[i], kept, truth);
            const check::FailureClass* fc =
                check::tally_judgement(f, kernels[i], result.report.kernels[i], kept, truth, j, 0);
            if (fc && fc->witness == kept) witness_files[i][fc->signature] = path;
        }
    }
    result.class_paths.assign(kernels.size(), {});
    for (size_t i = 0; i < kernels.size(); ++i) {
        check::FamilyKernelReport& k = result.report.kernels[i];
        k.tried = inputs;  // every kernel ran on every input
        check::sort_classes(k);
        for (check::FailureClass& fc : k.classes) {
            result.class_paths[i].push_back(witness_files[i][fc.signature]);
            fc.minimised = written.count(result.class_paths[i].back()) > 0;
        }
    }
    lines << "isect fuzz: " << f.name << " done; last exec/s " << execs << ", coverage " << cov << "; "
          << result.new_cases << " new case(s), " << result.duplicates << " duplicate finding(s), " << unexplained
          << " crash(es) kept as bytes; libFuzzer log in " << (work / "libfuzzer.log").string() << "\n";
    return int(result.new_cases) + unexplained;
}

}  // namespace

int run_fuzz(const FuzzArgs& args) {
    if (!known_format(args.format)) {
        std::cerr << "isect fuzz: --format '" << args.format << "' is not text, markdown, json or junit\n";
        return 2;
    }
    if (!set_precision_arg("fuzz", args.precision)) return 2;
    check::Domain domain;
    if (!args.domain_text.empty() && !parse_domain_arg("fuzz", args.domain_text, domain)) return 2;
    std::vector<const Family*> families;
    std::unique_ptr<check::PluginHost> host;
    std::optional<check::Contract> contract;
    if (!args.plugin.empty()) {
        contract = check::Contract::parse(args.contract);
        if (!contract) {
            std::cerr << "isect fuzz: --contract '" << args.contract << "' is not exact, conservative or tolerant=K\n";
            return 2;
        }
        // The target fuzzes the plugin in process; findings are judged again
        // here through a worker, so a crash stays a kept input.
        try {
            host = std::make_unique<check::PluginHost>(args.plugin, 2000);
        } catch (const std::exception& e) {
            std::cerr << "isect fuzz: " << e.what() << "\n";
            return 2;
        }
        if (args.domain_text.empty() && host->info().domain) domain = *host->info().domain;
        for (const Family* f : check::families())
            if (host->info().exports(*f, check::precision()) && (args.family.empty() || args.family == f->name))
                families.push_back(f);
        if (families.empty()) {
            std::cerr << "isect fuzz: " << args.plugin << " does not export isect_" << args.family
                      << (check::precision() == check::Precision::double_ ? "_d" : "") << "\n";
            return 2;
        }
    } else {
        for (const Family* f : check::families())
            if ((args.family.empty() || args.family == f->name) &&
                (args.kernel.empty() ? !f->kernels().empty() : bool(f->find_kernel(args.kernel))))
                families.push_back(f);
        if (families.empty()) {
            std::cerr << "isect fuzz: no family '" << args.family << "' with kernel '" << args.kernel
                      << "' (isect kernels lists them)\n";
            return 2;
        }
    }
    RunInfo info;
    info.command = "fuzz";
    info.domain = domain;
    info.subject = host ? host->info().name : args.kernel.empty() ? "built-in kernels" : args.kernel;
    if (host) {
        info.plugin_path = host->info().path;
        info.contract = contract;
        info.error_e = 16;
    }
    std::vector<FamilyResult> results;
    int found = 0;
    for (const Family* f : families) {
        std::vector<FamilyKernel> kernels;
        std::string who;
        if (host) {
            kernels = {host->kernel(*f, *contract, 16)};
            who = "plugin " + args.plugin + " (" + args.contract + ")";
        } else if (!args.kernel.empty()) {
            kernels = {*f->find_kernel(args.kernel)};
            who = args.kernel;
        } else {
            kernels = f->kernels();
            who = "built-in";
        }
        FamilyResult result;
        const int n = fuzz_family(args, *f, kernels, domain, who, result);
        if (n < 0) return 2;
        found += n;
        results.push_back(std::move(result));
        if (g_interrupted) break;
    }
    if (args.format == "text") std::cout << "\n";
    print_report(std::cout, args.format, info, results);
    return found > 0 ? 1 : 0;
}

}  // namespace isect::tool
