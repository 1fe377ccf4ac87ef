// A family as the checker sees it, for every family after aabb_triangle: the
// input as named groups of floats, the answer (one of a few names) and the
// numbers a kernel builds, the exact truth from two references, the tolerance
// band, the error bound of the numbers, the generators and the kernels.
//
// One engine (family.cpp) runs any family: generated cases, judgement under
// the contracts, simplification of counterexamples, case files. Each family
// lives in check/FAMILY.cpp and registers one Family value.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "isect/check/contract.hpp"

namespace rc {
template <typename T> class Gen;
}

namespace isect::check {

/// The input: every float of the family's keys, in order.
using Floats = std::vector<float>;

/// A generated input and the generator mix that made it.
struct Generated {
    std::string kind;
    Floats in;
    const struct Family* family = nullptr;  ///< who made it (for showing it)
};

/// One named group of input numbers, as a case file writes it ("box.lo" 3).
struct InputKey {
    std::string key;
    int count = 0;
};

/// What a kernel answers: which of the family's answers, and the numbers it
/// built (in the family's value order; only read when the family says the
/// answer carries them).
struct Answer {
    int answer = 0;
    std::vector<double> values;
    /// Bit i set: the kernel did not compute values[i] (a plugin left that
    /// output untouched); it is not checked.
    uint64_t unprovided = 0;
};

/// A kernel under test. The contract is about the answer; the numbers must
/// stay within error_e times each output's documented scale 2^-24 S.
struct FamilyKernel {
    std::string name;
    Contract contract;
    double error_e = 0;
    std::function<Answer(const float*)> fn;
};

/// Thrown by a kernel that could not answer: a plugin that crashed, hung
/// or replied with garbage. The engine judges it as a broken contract, with
/// this message as the reason.
struct KernelFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The exact answer, from both references, which agreed. values are the
/// exact numbers rounded to double, when the answer carries them.
struct Truth {
    int answer = 0;
    std::vector<double> values;
};

/// How far a kernel's numbers are from the exact ones: the smallest E that
/// covers every output (+inf for a broken promise such as containment), and
/// which output needed it.
struct ValueError {
    double e = 0;
    std::string output;
    std::string detail;
};

struct Family {
    std::string name;
    std::vector<InputKey> inputs;
    std::vector<std::string> answers;        ///< answer names, as expect writes them
    std::vector<bool> answer_has_values;     ///< per answer: are the numbers defined
    std::vector<std::string> values;         ///< names of the numeric outputs
    int safe_answer = 1;                     ///< what a conservative kernel may answer instead (hit, straddle)
    std::string references;                  ///< the two references, for reports

    /// Empty when the input is in the domain the references decide; else
    /// why, naming the key ("box.hi: 1 is below box.lo 2 on axis x").
    std::function<std::string(const float*)> domain;
    /// Both references; throws ReferenceMismatch when they disagree.
    std::function<Truth(const float*)> truth;
    /// Whether moving every input by at most delta = K 2^-24 M (M the
    /// largest input magnitude) could make `answer` the exact one. May say
    /// yes too often (a wider band), never too rarely. False for K = 0 unless
    /// the input itself decides nothing.
    std::function<bool(const float*, const Truth&, int answer, double k)> in_band;
    /// Error of a kernel's numbers, called when its answer is the exact one
    /// and that answer carries values.
    std::function<ValueError(const float*, const Truth&, const Answer&)> value_error;

    /// The CGAL reference alone, for the benchmarks' ratios; returns
    /// something of its result so that the call is not optimised away.
    std::function<double(const float*)> cgal;

    std::function<std::vector<FamilyKernel>()> kernels;  ///< built-in, as core/ declares them
    std::function<std::vector<FamilyKernel>()> broken;   ///< planted bugs, "broken:NAME"
    std::vector<std::string> gen_kinds;
    /// One generator mix by kind, or every mix for "".
    std::function<rc::Gen<Generated>(const std::string& kind)> gen;

    size_t size() const {
        size_t n = 0;
        for (const InputKey& k : inputs) n += size_t(k.count);
        return n;
    }
    /// The offset of a key's first float; throws std::out_of_range.
    size_t offset(const std::string& key) const {
        size_t n = 0;
        for (const InputKey& k : inputs) {
            if (k.key == key) return n;
            n += size_t(k.count);
        }
        throw std::out_of_range("family " + name + " has no key " + key);
    }
    /// The index of an answer's name; -1 when unknown.
    int answer_index(const std::string& a) const {
        for (size_t i = 0; i < answers.size(); ++i)
            if (answers[i] == a) return int(i);
        return -1;
    }
    std::optional<FamilyKernel> find_kernel(const std::string& name) const;  ///< built-in or broken:NAME
};

/// The families, one function each, defined in check/FAMILY.cpp.
const Family& ray_triangle_family();
/// A planted bug for the watertightness property: strict edge tests, so a
/// ray through a shared edge misses both triangles. Inside the band of
/// tolerant=1, so the contract check cannot see it; the property does.
FamilyKernel ray_triangle_strict_edges_kernel();
const Family& ray_aabb_family();
const Family& segment_aabb_family();
const Family& aabb_aabb_family();
const Family& aabb_plane_family();
const Family& aabb_plane_overlap_family();
const Family& sphere_aabb_family();
const Family& moving_aabb_family();
const Family& moving_aabb_plane_family();
const Family& transformed_aabb_family();
const Family& triangle_measures_family();
const Family& polygon_measures_family();

/// Every family the generic engine runs, in report order.
const std::vector<const Family*>& families();
/// A family by name; nullptr when none.
const Family* find_family(const std::string& name);

/// The largest magnitude among the inputs (M in the contracts); NaN ignored.
double largest_magnitude(const Floats& in);

/// delta = K 2^-24 M for an input.
double band_delta(const Floats& in, double k);

/// The smallest K whose band explains `answer` (bisection over in_band,
/// 2^-40 to 2^40): 0 when the input decides nothing, +inf when no K does.
double measured_k(const Family& f, const Floats& in, const Truth& truth, int answer);

/// A kernel's result on one input, judged.
struct FamilyJudgement {
    Answer got;
    bool answer_differs = false;
    bool in_band = false;   ///< the differing answer is within the declared (or K=1) band
    ValueError error;       ///< when the answers agree and carry values
    bool violates = false;
    std::string why;        ///< one line when violates
};

FamilyJudgement judge(const Family& f, const FamilyKernel& k, const Floats& in, const Truth& truth);

// --- The check engine --------------------------------------------------------

struct FamilyCheckOptions {
    double seconds = 10;
    uint64_t max_cases = 0;   ///< stop after this many; 0: by seconds
    uint64_t seed = 0;
    std::string gen_kind;     ///< one mix only; empty: all
    bool progress = false;
    bool minimize = true;
    bool stop_at_first = false;
    bool stop_at_hang = false;  ///< a kernel that hung once costs the timeout on every case after
};

struct FamilyKernelReport {
    std::string name;
    Contract contract;
    double error_e = 0;
    uint64_t tried = 0;
    uint64_t wrong_answers = 0;
    uint64_t in_band = 0;
    uint64_t violations = 0;
    double measured_k = 0;   ///< smallest K covering every differing answer
    double measured_e = 0;   ///< largest error of the numbers, in units of 2^-24 S
    std::optional<Floats> counterexample;
    std::string counterexample_why;
    uint64_t first_violation_case = 0;
    bool stopped_at_hang = false;
    std::optional<Floats> hang_input;  ///< the input it hung on, when stopped there
    bool holds() const { return violations == 0; }
};

struct FamilyCheckReport {
    std::string family;
    uint64_t cases = 0;
    double seconds = 0;
    std::map<std::string, uint64_t> mix;
    uint64_t reference_mismatches = 0;
    std::optional<Floats> mismatch;
    std::string mismatch_message;
    std::vector<FamilyKernelReport> kernels;
    bool holds() const;
};

FamilyCheckReport run_family_check(const Family& f, const std::vector<FamilyKernel>& kernels,
                                   const FamilyCheckOptions& options);

/// Greedy simplification of a flat input keeping still_fails true (the
/// minimiser of every family): zeroes, small integers, fewer mantissa bits,
/// shared values, whole-input power-of-two scaling. Candidates stay in the
/// domain `ok`.
Floats simplify_floats(Floats in, const std::function<bool(const Floats&)>& ok,
                       const std::function<bool(const Floats&)>& still_fails);

// --- Case files -------------------------------------------------------------

/// A case of a generic family: the input, the expected exact answer and,
/// when it carries them, the exact numbers rounded to double.
struct FamilyCase {
    std::string path;
    std::string origin;
    const Family* family = nullptr;
    Floats in;
    int expect = 0;
    std::map<std::string, double> expect_values;  ///< expect.NAME lines
};

/// The text of a case: origin comment, family, keys, expect and the values.
std::string format_family_case(const Family& f, const Floats& in, const Truth& truth, const std::string& origin);

/// Problems replaying one case: the references against expect, each kernel
/// against its contract. Empty when it passes.
std::vector<std::string> replay_family_case(const FamilyCase& c);

/// Shows an input the way RapidCheck prints counterexamples: as a case.
std::string show_family_input(const Family& f, const Floats& in);

}  // namespace isect::check
