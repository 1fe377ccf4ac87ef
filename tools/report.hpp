// The report of every check, replay and fuzz campaign, built-in kernels or a
// plugin's, in one shape: text (for a person), markdown (a CI job summary),
// json (tools; fields in docs/checking.md) or junit (CI test reports).
// Progress goes to stderr, the report to stdout.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "check/model/family.hpp"
#include "check/engine/judge.hpp"
#include "check/engine/case_stream.hpp"
#include "check/engine/kernels_under_test.hpp"
#include "check/engine/run.hpp"
#include "check/io/safe_write.hpp"

namespace isect::tool {

using check::file_stem;

/// A finding an earlier `isect check` wrote into --out, replayed first by the
/// next run against the same kernel (the findings database).
struct ReplayedFinding {
    std::string path;
    std::string kernel;
    bool still_failing = false;
    std::string why;  ///< how it fails, or what the kernel now answers
    bool relation = false;  ///< it fails a relation, not the contract
};

/// A case file that failed for a reason the kernel table does not show: its
/// expect line is wrong, the references disagree on it, a kernel kept a
/// contract it was expected to break, an input that crashed the fuzz target.
struct CaseProblem {
    std::string path;
    std::string why;
};

/// A family as reports name it: "ray_triangle", "ray_triangle (double)"
/// for a double-precision run, "ray_sphere (surface)" under a convention.
inline std::string family_label(const check::Family& f, check::Precision p) {
    std::string tags = p == check::Precision::double_ ? "double" : "";
    for (const std::string& c : f.followed) tags += (tags.empty() ? "" : ", ") + c;
    return f.name + (tags.empty() ? "" : " (" + tags + ")");
}

/// One family's run and the files written for it.
struct FamilyResult {
    const check::Family* family = nullptr;
    check::Precision precision = check::Precision::single;  ///< of the inputs and kernels
    std::string label() const { return family_label(*family, precision); }
    std::vector<ReplayedFinding> replayed;  ///< the findings database, replayed before any generated case
    /// Every contract held on generated cases and on the replayed findings.
    bool holds() const {
        for (const ReplayedFinding& f : replayed)
            if (f.still_failing) return false;
        return report.holds();
    }
    /// What the exit status says: every contract held (or, with
    /// --expect-broken, broke where expected) and no case had a problem.
    bool passed(bool expect_broken) const { return problems.empty() && (expect_broken || holds()); }
    check::FamilyCheckReport report;
    std::vector<CaseProblem> problems;
    uint64_t outside_domain = 0;          ///< replay: case files skipped as outside the domain
    uint64_t new_cases = 0;               ///< fuzz: findings written as new corpus cases
    uint64_t duplicates = 0;              ///< fuzz: findings of a class the corpus already has
    std::string mismatch_path;            ///< the input the references disagreed on
    std::string report_domain;            ///< the domain judged, as text
};

/// What the whole run was.
struct RunInfo {
    /// The kernels under test as the report names them: the subject, the
    /// scope judged, and for a plugin its path, contract and E.
    void take_subject(const check::KernelsUnderTest& under_test);

    std::string command = "check";  ///< check, replay, fuzz or diff: what made the report
    bool expect_broken = false;     ///< replay --expect-broken
    std::string subject;      ///< "built-in kernels", or the plugin's name
    std::string plugin_path;  ///< empty for built-in kernels
    std::optional<check::Contract> contract;  ///< the contract a plugin is held to
    double error_e = 0;       ///< and its E
    uint64_t seed = 0;
    double tolerance = 0;       ///< isect diff: how far the two kernels' numbers may differ, in u
    check::Shard shard;         ///< the part of the case stream judged (--shard)
    uint64_t max_cases = 0;     ///< the case budget per family (--cases); 0: by time
    size_t jobs = 1;            ///< workers
    check::Domain domain;
    bool show_maps = false;   ///< the validity map tables in the text report
    int timeout_ms = 0;       ///< a plugin's hang timeout
    std::string fp_env;       ///< the kernels' floating-point environment, one line (fp_env.hpp)
    /// What a plugin's workers met that is no finding (check::KernelsUnderTest::notes).
    std::vector<std::string> notes;
    std::string interrupted;  ///< the signal that stopped the run ("SIGTERM"), empty when none
    /// isect merge: the reports merged into this one, as their shards
    /// ("0/4", ...); empty for a run's own report.
    std::vector<std::string> merged;
    /// What went wrong outside any family: a case file that cannot be read,
    /// a finding or map that could not be saved. Any makes the run fail.
    std::vector<CaseProblem> errors;
    /// isect replay: each case file and how it stood ("passed", "failed",
    /// "skipped"), with why where it did not pass; in the JSON report.
    struct CaseOutcome {
        std::string path, family, precision, status, why;
    };
    std::vector<CaseOutcome> cases;
    /// Whether the whole run passed: no error, no interruption, and every
    /// family passed.
    bool passed(const std::vector<FamilyResult>& results) const {
        if (!errors.empty() || !interrupted.empty()) return false;
        for (const FamilyResult& r : results)
            if (!r.passed(expect_broken)) return false;
        return true;
    }
};


/// "text", "markdown", "json", "junit"; false for anything else.
bool known_format(const std::string& format);

void print_report(std::ostream& out, const std::string& format, const RunInfo& info,
                  const std::vector<FamilyResult>& results);

/// The report as JSON (report_json.cpp), as print_report writes it for "json".
void print_json(std::ostream& out, const RunInfo& info, const std::vector<FamilyResult>& results);

/// What a class's author should know beside it (a degeneracy every member
/// has, inputs beyond the domain's ordinary scales); empty when nothing.
std::string class_hint(const FamilyResult& r, const check::Domain& domain, const check::FailureClass& fc);

/// Reads a check report print_report wrote as JSON back into its run and
/// families (for isect merge): every field a report of another format
/// shows, witnesses exact. Returns what is wrong with it, naming the field
/// ("families[2].kernels[0]: no 'classes'"), or an empty string.
std::string read_json_report(const std::string& text, RunInfo& info, std::vector<FamilyResult>& results);

}  // namespace isect::tool
