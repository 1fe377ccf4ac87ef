// Runs kernels through the generators, the references and their contracts:
// the engine behind `isect check`, and behind the tests that show a broken
// kernel is caught.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "isect/check/aabb_triangle.hpp"

namespace isect::check {

struct CheckOptions {
    double seconds = 10;       ///< wall-clock budget for generated cases
    uint64_t max_cases = 0;    ///< stop after this many cases; 0: no limit
    uint64_t seed = 0;
    std::string gen_kind;      ///< one mix only; empty: all of them
    bool progress = false;     ///< a line a second on stderr
    bool minimize = true;      ///< simplify the first counterexample
    bool stop_at_first = false;  ///< stop once every kernel has broken its contract
};

/// What one kernel did on the generated cases.
struct KernelReport {
    std::string name;
    Contract contract;
    uint64_t tried = 0;
    uint64_t false_hits = 0;
    uint64_t false_misses = 0;
    uint64_t in_band = 0;      ///< disagreements within band_k(): the declared K, or 1
    uint64_t violations = 0;   ///< disagreements the contract does not allow
    double measured_k = 0;     ///< smallest K covering every disagreement seen
    std::optional<AabbTriangleInput> counterexample;  ///< first violation, simplified
    bool counterexample_exact = false;                 ///< its exact answer
    uint64_t first_violation_case = 0;                 ///< 1-based; 0 when none
    double first_violation_seconds = 0;                ///< wall clock from the start
    bool holds() const { return violations == 0; }
    /// The K that in_band counts against.
    double band_k() const { return contract.kind == Contract::Kind::tolerant ? contract.k : 1.0; }
};

struct CheckReport {
    uint64_t cases = 0;
    double seconds = 0;
    std::map<std::string, uint64_t> mix;  ///< cases per generator kind
    uint64_t reference_mismatches = 0;
    std::optional<AabbTriangleInput> mismatch;  ///< first input the references disagree on
    std::string mismatch_message;
    std::vector<KernelReport> kernels;
    bool holds() const;
};

/// Generates cases until the budget is spent and judges every kernel on each.
CheckReport run_aabb_triangle_check(const std::vector<AabbTriangleKernel>& kernels, const CheckOptions& options);

/// Greedy simplification that keeps `still_fails` true: each coordinate in
/// turn tries 0, +-small integers, fewer mantissa bits, another coordinate's
/// value and dropping its sign, until no coordinate can be simplified.
/// Candidates must stay in the domain.
AabbTriangleInput simplify(AabbTriangleInput in, const std::function<bool(const AabbTriangleInput&)>& still_fails);

}  // namespace isect::check
