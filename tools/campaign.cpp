#include "campaign.hpp"

#include <algorithm>
#include <csignal>
#include <memory>
#include <optional>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <sys/types.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include "isect/check/aabb_triangle.hpp"
#include "isect/check/case_file.hpp"
#include "isect/check/family.hpp"
#include "isect/check/plugin.hpp"
#include "isect/check/runner.hpp"

namespace isect::tool {

namespace fs = std::filesystem;
using check::AabbTriangleInput;
using check::AabbTriangleKernel;
using check::Finding;

namespace {

std::vector<const AabbTriangleKernel*> kernels_for(const std::string& name) {
    std::vector<const AabbTriangleKernel*> out;
    if (name.empty()) {
        for (const AabbTriangleKernel& k : check::aabb_triangle_kernels()) out.push_back(&k);
    } else if (const AabbTriangleKernel* k = check::find_aabb_triangle_kernel(name)) {
        out.push_back(k);
    }
    return out;
}

/// The finding on an input, judged by the rational references on every input.
std::optional<Finding> finding_on(const std::vector<const AabbTriangleKernel*>& kernels, const AabbTriangleInput& in) {
    try {
        return check::fuzz_aabb_triangle(kernels, in, true);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

/// Simplifies while the same signature is found.
AabbTriangleInput minimise(const std::vector<const AabbTriangleKernel*>& kernels, const AabbTriangleInput& in,
                           const std::string& signature) {
    return check::simplify(in, [&](const AabbTriangleInput& t) {
        const auto f = finding_on(kernels, t);
        return f && f->signature == signature;
    });
}

/// The signatures already in the corpus ("signature: ..." in a case's origin).
std::set<std::string> known_signatures(const std::string& dir) {
    std::set<std::string> out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() != ".case") continue;
        std::ifstream in(it->path());
        for (std::string line; std::getline(in, line);) {
            const size_t at = line.find("signature: ");
            if (line.rfind("#", 0) == 0 && at != std::string::npos) out.insert(line.substr(at + 11));
        }
    }
    return out;
}

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

namespace {

/// isect minimize on a case of the generic engine: the first kernel (or the
/// one named) that breaks its contract, simplified while it still does.
int minimize_family_case(const check::FamilyCase& c, const std::string& kernel, const std::string& out) {
    const check::Family& f = *c.family;
    std::vector<check::FamilyKernel> kernels;
    if (kernel.empty()) kernels = f.kernels();
    else if (const auto k = f.find_kernel(kernel)) kernels.push_back(*k);
    if (kernels.empty()) {
        std::cerr << "isect minimize: " << f.name << " has no kernel named '" << kernel << "'\n";
        return 2;
    }
    const auto violates = [&](const check::FamilyKernel& k, const check::Floats& in) {
        try {
            return check::judge(f, k, in, f.truth(in.data())).violates;
        } catch (const check::ReferenceMismatch&) {
            return false;
        }
    };
    for (const check::FamilyKernel& k : kernels) {
        if (!violates(k, c.in)) continue;
        const check::Floats small = check::simplify_floats(
            c.in, [&](const check::Floats& t) { return f.domain(t.data()).empty(); },
            [&](const check::Floats& t) { return violates(k, t); });
        const check::Truth truth = f.truth(small.data());
        std::string origin = c.origin.empty() ? "" : c.origin + "\n";
        origin += "minimised by isect minimize: kernel " + k.name + " (" + k.contract.str() +
                  "): " + check::judge(f, k, small, truth).why;
        const std::string text = check::format_family_case(f, small, truth, origin);
        if (out.empty()) {
            std::cout << text;
        } else {
            std::ofstream(out) << text;
            std::cerr << "isect minimize: wrote " << out << "\n";
        }
        return 0;
    }
    std::cerr << "isect minimize: " << c.path << ": every kernel keeps its contract; nothing to minimise"
              << " (name a kernel with --kernel)\n";
    return 1;
}

}  // namespace

int run_minimize(const std::string& path, const std::string& kernel, const std::string& out) {
    const check::ReadResult r = check::read_case_file(path);
    if (const auto* errors = std::get_if<std::vector<check::CaseError>>(&r)) {
        for (const auto& e : *errors) std::cerr << "error: " << e.str() << "\n";
        return 2;
    }
    if (const auto* fc = std::get_if<check::FamilyCase>(&std::get<check::Case>(r)))
        return minimize_family_case(*fc, kernel, out);
    if (const auto* fc = std::get_if<check::FamilyCase>(&std::get<check::Case>(r)))
        return minimize_family_case(*fc, kernel, out);
    const auto kernels = kernels_for(kernel);
    if (kernels.empty()) {
        std::cerr << "isect minimize: no kernel named '" << kernel << "'\n";
        return 2;
    }
    const auto& c = std::get<check::AabbTriangleCase>(std::get<check::Case>(r));
    const AabbTriangleInput in{c.box, c.tri, "case"};
    const auto f = finding_on(kernels, in);
    if (!f) {
        std::cerr << "isect minimize: " << path << ": every kernel keeps its contract and the references agree; "
                  << "nothing to minimise (name a kernel with --kernel)\n";
        return 1;
    }
    const AabbTriangleInput small = minimise(kernels, in, f->signature);
    std::string origin = c.origin.empty() ? "" : c.origin + "\n";
    origin += "minimised by isect minimize: " + f->message + "\nsignature: " + f->signature;
    const std::string text = check::format_input(small, finding_on(kernels, small)->exact, origin);
    if (out.empty()) {
        std::cout << text;
    } else {
        std::ofstream(out) << text;
        std::cerr << "isect minimize: wrote " << out << "\n";
    }
    return 0;
}

int run_fuzz(const FuzzArgs& args) {
    if (args.family != "aabb_triangle") {
        std::cerr << "isect fuzz: no fuzz target for family '" << args.family
                  << "' (aabb_triangle; the other families are checked by isect check, with --plugin too)\n";
        return 2;
    }
    // A plugin is fuzzed in process by the target; its findings are judged
    // again here through a worker process, so a crash stays a kept input.
    std::unique_ptr<check::PluginHost> host;
    std::optional<AabbTriangleKernel> plugin_kernel;
    if (!args.plugin.empty()) {
        const auto contract = check::Contract::parse(args.contract);
        if (!contract) {
            std::cerr << "isect fuzz: --contract '" << args.contract << "' is not exact, conservative or tolerant=K\n";
            return 2;
        }
        try {
            host = std::make_unique<check::PluginHost>(args.plugin, 2000);
        } catch (const std::exception& e) {
            std::cerr << "isect fuzz: " << e.what() << "\n";
            return 2;
        }
        const auto& exported = host->info().families;
        if (std::find(exported.begin(), exported.end(), "aabb_triangle") == exported.end()) {
            std::cerr << "isect fuzz: " << args.plugin << " does not export isect_aabb_triangle, the family with a "
                      << "fuzz target; use isect check --plugin for the others\n";
            return 2;
        }
        check::PluginHost* h = host.get();
        plugin_kernel = AabbTriangleKernel{host->info().name, *contract, [h](const isect::Aabb& b, const isect::Triangle& t) {
                                               float in[15];
                                               for (int i = 0; i < 3; ++i) {
                                                   in[i] = b.lo[size_t(i)];
                                                   in[3 + i] = b.hi[size_t(i)];
                                                   for (int v = 0; v < 3; ++v) in[6 + 3 * v + i] = t.v[size_t(v)][size_t(i)];
                                               }
                                               return h->call(check::aabb_triangle_family(), in).answer == 1;
                                           }};
    }
    const auto kernels = plugin_kernel ? std::vector<const AabbTriangleKernel*>{&*plugin_kernel} : kernels_for(args.kernel);
    if (kernels.empty()) {
        std::cerr << "isect fuzz: no kernel named '" << args.kernel << "'\n";
        return 2;
    }
    if (args.target.empty() || !fs::exists(args.target)) {
        std::cerr << "isect fuzz: no libFuzzer target at '" << args.target
                  << "' (./isect fuzz builds it with clang; or pass --target)\n";
        return 2;
    }
    const fs::path work = args.work, pool = work / "pool", artifacts = work / "artifacts";
    fs::create_directories(pool);
    fs::remove_all(artifacts);
    fs::create_directories(artifacts);
    fs::create_directories(args.corpus);

    std::vector<std::string> argv = {args.target,
                                     "-fork=" + std::to_string(std::max(1, args.jobs)),
                                     "-ignore_crashes=1",
                                     "-max_total_time=" + std::to_string(std::max(1, int(args.minutes * 60))),
                                     "-max_len=" + std::to_string(check::kAabbTriangleFuzzBytes),
                                     "-artifact_prefix=" + artifacts.string() + "/",
                                     pool.string()};
    if (!args.dict.empty() && fs::exists(args.dict)) argv.insert(argv.begin() + 1, "-dict=" + args.dict);
    if (!args.seeds.empty()) argv.push_back(args.seeds);
    const std::string who = !args.plugin.empty() ? "plugin " + args.plugin + " (" + args.contract + ")"
                            : args.kernel.empty() ? "built-in" : args.kernel;
    std::cerr << "isect fuzz: " << args.family << ", kernel " << who
              << ", " << args.minutes << " min on " << args.jobs << " job(s)\n";

    int pipefd[2];
    if (pipe(pipefd) != 0) return 2;
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
        if (args.plain_mutator) setenv("ISECT_FUZZ_MUTATOR", "plain", 1);
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
    char buf[4096];
    while (std::fgets(buf, sizeof buf, from)) {
        const std::string line(buf);
        log << line;
        if (line.rfind("#", 0) != 0) continue;
        if (auto e = field(line, "exec/s"); !e.empty()) execs = e;
        if (auto c = field(line, "cov:"); !c.empty()) cov = c;
        if (auto o = field(line, "oom/timeout/crash:"); !o.empty()) crashes = o.substr(o.rfind('/') + 1);
        std::fprintf(stderr, "%s[fuzz %s] exec/s %s  cov %s  findings %s  %s", tty ? "\r" : "", args.family.c_str(),
                     execs.c_str(), cov.c_str(), crashes.c_str(), tty ? "" : "\n");
    }
    fclose(from);
    int status = 0;
    waitpid(child, &status, 0);
    alarm(0);
    std::signal(SIGINT, SIG_DFL);
    if (tty) std::fprintf(stderr, "\n");
    if (g_interrupted) std::cerr << "isect fuzz: interrupted; keeping what was found\n";

    // Findings: decode, judge again with the rational references on every
    // input, minimise, de-duplicate by signature, write into the corpus.
    std::set<std::string> known = known_signatures(args.corpus);
    int fresh = 0, duplicate = 0, unexplained = 0;
    for (const auto& entry : fs::directory_iterator(artifacts)) {
        std::ifstream in(entry.path(), std::ios::binary);
        const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
        const AabbTriangleInput input = check::decode_aabb_triangle(bytes.data(), bytes.size());
        const auto f = finding_on(kernels, input);
        if (!f) {
            ++unexplained;  // a crash or timeout of a kernel, not a contract: keep the bytes
            std::cerr << "isect fuzz: " << entry.path().string()
                      << " is not a contract finding (a crash or timeout in a kernel?); the input is kept there\n";
            continue;
        }
        if (known.count(f->signature)) {
            ++duplicate;
            continue;
        }
        const AabbTriangleInput small = minimise(kernels, input, f->signature);
        const auto g = finding_on(kernels, small);
        const std::string origin = "found by isect fuzz (" + args.family + ", kernel " + who + "), minimised\n" +
                                   g->message +
                                   "\nsignature: " + f->signature;
        const fs::path path = fs::path(args.corpus) / file_name_for(f->signature);
        std::ofstream(path) << check::format_input(small, g->exact, origin);
        known.insert(f->signature);
        ++fresh;
        std::cout << "new case " << path.string() << ": " << g->message << "\n";
    }
    std::cout << "isect fuzz: " << args.family << " done; last exec/s " << execs << ", coverage " << cov << "; "
              << fresh << " new case(s), " << duplicate << " duplicate finding(s), " << unexplained
              << " crash(es) kept as bytes; libFuzzer log in " << (work / "libfuzzer.log").string() << "\n";
    return fresh + unexplained > 0 ? 1 : 0;
}

}  // namespace isect::tool
