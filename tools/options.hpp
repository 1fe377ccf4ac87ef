// Ranges of the command line's numbers: a flag outside its range is a usage
// error naming the flag and the range (exit 2), never a run that judges
// nothing or runs forever (`--cases -5` once wrapped to 2^64 - 5).
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "check/engine/case_stream.hpp"
#include "check/engine/kernels_under_test.hpp"
#include "check/engine/run.hpp"

namespace isect::tool {

/// A whole number in [lo, hi], written in decimal digits (a sign is not a
/// digit: -1 is refused, not wrapped).
inline CLI::Validator whole_in(uint64_t lo, uint64_t hi) {
    const std::string range = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return "'" + text + "' is not " + range;
            errno = 0;
            const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
            if (errno == ERANGE || v < lo || v > hi) return "'" + text + "' is not " + range;
            return "";
        },
        range);
}

/// A finite number in [lo, hi], or in (lo, hi] when lo_open: NaN and the
/// infinities are refused.
inline CLI::Validator real_in(double lo, double hi, bool lo_open = false) {
    char text_range[96];
    std::snprintf(text_range, sizeof text_range, "a number %s %g and at most %g", lo_open ? "above" : "of at least", lo, hi);
    const std::string range = text_range;
    return CLI::Validator(
        [lo, hi, lo_open, range](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !std::isfinite(v) || v > hi || (lo_open ? !(v > lo) : !(v >= lo)))
                return "'" + text + "' is not " + range;
            return "";
        },
        range);
}

/// What the kernels are judged on besides their contracts, whoever they
/// are: their environment, the inputs they take (domain, preconditions,
/// conventions, a mesh) and the relations between their calls.
inline void add_scope_options(CLI::App* cmd, check::SubjectArgs& s, const std::string& outside) {
    cmd->add_option("--timeout-ms", s.timeout_ms, "A plugin's call taking longer is a hang (default 2000)")
        ->check(whole_in(1, 86400000));
    cmd->add_option("--fp-env", s.fp_env,
                    "The kernels' floating-point environment: default, ftz, daz or ftz,daz (flush-to-zero, "
                    "denormals-are-zero, as -ffast-math builds and GPUs run); the truth always runs in the default one");
    cmd->add_option("--domain", s.domain,
                    "Only inputs whose nonzero magnitudes lie in LO:HI (2^-20:2^20, 1e-6:1e6): " + outside);
    cmd->add_option("--require", s.require,
                    "Preconditions your kernel declares (nonzero_direction, proper_triangle, ...; `isect kernels` lists "
                    "each family's): inputs that miss them are " + outside);
    cmd->add_option("--relation", s.relation,
                    "Relations between calls each kernel is judged for besides its contract, comma-separated: symmetric "
                    "(the same answer with two arguments swapped), monotone (a hit stays a hit, same entry, as tmax "
                    "grows), watertight (a ray through an edge two triangles share hits one of them)");
    cmd->add_option("--mesh", s.mesh,
                    "A mesh (OBJ, PLY, STL) cases are drawn from too: its triangles, rays through its shared edges and "
                    "vertices, pairs of its neighbouring triangles, boxes of a voxel grid over it (the report's mix: mesh_*)");
    cmd->add_option("--convention", s.convention,
                    "Conventions your kernel follows (surface, cull_back; `isect kernels` lists each family's): the exact "
                    "answer it is judged against follows them");
}

/// The flags that choose the kernels a command judges (check::SubjectArgs):
/// which kernels, then their scope (add_scope_options), declared once for
/// every command that takes them. `outside` says what becomes of the inputs
/// outside --domain and --require for the command.
inline void add_subject_options(CLI::App* cmd, check::SubjectArgs& s, const std::string& outside) {
    cmd->add_option("--kernel", s.kernel,
                    "Built-in kernels by name, comma-separated (`isect kernels`; broken:NAME plants a bug, broken:* every "
                    "planted bug); default: every built-in one");
    cmd->add_option("--plugin", s.plugin, "A plugin's kernels (a shared library, isect/plugin.h) instead of the built-in ones");
    cmd->add_option("--contract", s.contract,
                    "With --plugin: exact, conservative, conservative=K or tolerant=K (default tolerant=1); with --kernel: "
                    "the kernel's own contract or a stricter one it is then held to")
        ->each([&s](const std::string&) { s.contract_given = true; });
    cmd->add_option("--error", s.error_e, "With --plugin: numbers within E x u S (default 16)")->check(real_in(0, 1e15));
    add_scope_options(cmd, s, outside);
}

/// A run over the generated case stream (isect check, isect diff): which
/// cases, how many workers, and where its report and witnesses go.
struct RunArgs {
    double seconds = 10;              ///< per family
    uint64_t cases = 0;               ///< per family, instead of seconds
    uint64_t seed = 0;
    bool seed_given = false;
    std::string family;               ///< one family; empty: every one
    std::string gen;                  ///< one generator kind; empty: all
    std::string shard;                ///< I/N: this run's part of the case stream; empty: all of it
    size_t jobs = 0;                  ///< workers; 0: the cores available
    std::string precision = "float";  ///< float or double: the inputs and the kernels' scalar
    std::string out = "findings";
    std::string format = "text";
};

/// RunArgs' flags, declared once for every command that runs a stream.
void add_run_options(CLI::App* cmd, RunArgs& a);

/// The run's flags checked before anything runs: the format, the precision
/// (set for the run), the family, the seed (a fresh one unless given) and
/// the shard (which needs --seed). Nullopt, having said why, on a usage
/// error.
std::optional<check::Shard> settle_run_args(const std::string& command, RunArgs& a);

/// A family's options as the run's flags set them: its case stream (seed,
/// budget, shard, generator kind, the declared domain) and, for a shard,
/// every class minimised (isect merge shows the largest of the whole run
/// minimised, whichever shard found their witness).
check::FamilyCheckOptions run_options(const RunArgs& a, const check::Shard& shard, const check::Domain& domain);

/// Whether f has the generator kind `gen` (`--gen`; empty: every family has).
bool has_gen_kind(const check::Family& f, const std::string& gen);

/// Sets the run's precision from --precision's text ("float" or "double");
/// prints the error and returns false when it is neither.
bool set_precision_arg(const std::string& command, const std::string& text);

}  // namespace isect::tool
