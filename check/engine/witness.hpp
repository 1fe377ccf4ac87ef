// Witnesses: which member of a failure class shows it best (proper input
// over degenerate, then the most ordinary), and the minimiser that
// simplifies it while it stays in its class and in what was asked for.
#pragma once

#include <functional>
#include <optional>

#include "check/model/family.hpp"

namespace isect::check {

/// How ordinary an input looks: lower for magnitudes nearer 1, fewer
/// mantissa bits, fewer signs. Witnesses are the least complex.
int complexity(const Inputs& in);

/// The first of f's degeneracies the input has, as its precondition says
/// it ("dir != 0", "tri has nonzero area"), or null when it has none.
const Precondition* degeneracy(const Family& f, const double* in);

/// Whether a is the better witness than b: not degenerate where b is,
/// else less complex. A bug shown on a proper triangle, a box with extent
/// and a nonzero direction tells its author more than one shown on zeros.
bool better_witness(const Family& f, const Inputs& a, const Inputs& b);

/// Whether input a, found at case a_case, is the better member of a class
/// than b, found at b_case: the better witness, or as good and found
/// earlier. A strict order on (input, case), so a class's best member is the
/// same whichever worker or shard counts it first.
bool better_member(const Family& f, const Inputs& a, uint64_t a_case, const Inputs& b, uint64_t b_case);

/// The trials a witness may be minimised into: inside f's own domain and
/// the declared one (magnitudes and preconditions), and not degenerate when
/// `start` is not.
std::function<bool(const Inputs&)> witness_space(const Family& f, const Domain& domain, const Inputs& start);

/// A witness minimised: simplified while `same_class` holds, every trial
/// inside f's domain, the declared one and (when start is proper) proper.
/// The one minimiser of check, fuzz, minimize and diff; each says what its
/// class is.
Inputs minimise_witness(const Family& f, const Domain& domain, const Inputs& start,
                        const std::function<bool(const Inputs&)>& same_class);

/// Greedy simplification of a flat input keeping still_fails true (the
/// minimiser of every family): zeroes, small integers, fewer mantissa bits,
/// shared values, whole-input power-of-two scaling. Candidates stay in the
/// domain `ok`.
Inputs simplify_floats(Inputs in, const std::function<bool(const Inputs&)>& ok,
                       const std::function<bool(const Inputs&)>& still_fails);

/// An input near another whose exact answer is a kernel's wrong one: each
/// number moved by at most K u times its role's scale (band_deltas, the
/// rule of docs/contracts.md). Its K bounds from above the least K whose
/// band explains the wrong answer; the band's own K (measured_k) bounds it
/// from below: between them is the truth, and a band much narrower than
/// this K is a loose one.
struct Perturbation {
    double k = 0;
    Inputs input;
};

/// Where a perturbation's moved numbers land: on the run's precision (an
/// input its kernels can be given) or on doubles (finer than a float run's
/// grid: to measure a band below one rounding of its largest numbers).
enum class Moves { run_precision, doubles };

/// Searches for such a perturbation in exact arithmetic (the fast oracle,
/// the references where it cannot decide): first the band's own directions
/// where it gives them (Family::Band::directions), in 1% steps from the
/// band's K (`from`); unless one flips within 1.5 times it, each number
/// moved alone, both ways, up to 256 times the band's K, and those that
/// flip the answer alone moved together, each its way; and random sign
/// patterns (each number moved by -delta, 0 or +delta) from `from` up to
/// `to`; then the least K of the pattern that flips, then each number's
/// move dropped or reversed while that lowers K by 5% or more (four passes
/// at most). Where that K is above twice the band's (or none flips), each
/// number moved onto the nearest other value of the input within its delta,
/// in the order of the K each needs (boxes smaller than the doubles' grid at
/// their offset meet only where their centres land on the same doubles).
/// Deterministic for an input. Nullopt when no move flips the answer up to
/// `to`.
std::optional<Perturbation> flipping_perturbation(const Family& f, const Inputs& in, int answer, double from,
                                                  double to = 0x1p40, Moves moves = Moves::run_precision);

}  // namespace isect::check
