// The aabb_triangle family as the checker sees it: the built-in kernels and
// their contracts, the exact answer from both references, the tolerance band,
// the symmetries, and the generators of inputs where kernels break.
#pragma once

#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "isect/aabb_triangle.hpp"
#include "isect/check/contract.hpp"

namespace rc {
template <typename T> class Gen;
}

namespace isect::check {

/// One input, and which generator made it (for RC_CLASSIFY and reports).
struct AabbTriangleInput {
    Aabb box;
    Triangle tri;
    const char* kind = "given";
};

/// A kernel under test: a built-in one, a test fixture, later a plugin.
struct AabbTriangleKernel {
    std::string name;
    Contract contract;
    std::function<bool(const Aabb&, const Triangle&)> fn;
};

/// The kernels isect ships, with the contracts their headers declare.
const std::vector<AabbTriangleKernel>& aabb_triangle_kernels();

/// Thrown when the two references disagree: a bug in one of them, or an
/// unchecked library precondition. Never swallowed.
struct ReferenceMismatch : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The exact answer, from both references, which must agree. Throws
/// std::domain_error outside aabb_triangle_in_domain: the references refuse.
bool aabb_triangle_truth(const Aabb& box, const Triangle& tri);

/// The smallest K whose band explains answering `kernel` where the exact
/// answer is `exact`: the least K such that the box grown by delta = K 2^-24 M
/// and the box shrunk by delta have different exact answers. 0 when any
/// K > 0 does (the input touches); +inf when no K up to 2^64 does.
double aabb_triangle_band(const Aabb& box, const Triangle& tri, bool exact);

/// Whether the band of width K explains answering !exact: the box grown and
/// shrunk by delta = K 2^-24 M have different exact answers. False for K = 0.
bool aabb_triangle_in_band(const Aabb& box, const Triangle& tri, bool exact, double k);

/// Runs a kernel on one input and judges it against the exact answer.
Judgement judge(const AabbTriangleKernel& kernel, const AabbTriangleInput& in, bool exact);

/// Whether the kernel breaks its contract on this input (one band query at
/// the declared K at most; cheaper than judge when only the verdict counts).
bool violates(const AabbTriangleKernel& kernel, const AabbTriangleInput& in, bool exact);

/// The largest magnitude among the fifteen inputs (M in the contracts).
float largest_magnitude(const Aabb& box, const Triangle& tri);

/// One of the 48 symmetries of the cube: an axis permutation (index 0..5)
/// and a mirror mask (bit i flips axis i). Exact on floats.
struct Symmetry {
    int perm = 0;
    int mirror = 0;
};
AabbTriangleInput apply(const Symmetry& s, const AabbTriangleInput& in);

/// Scales every coordinate by 2^k; exact unless a value leaves the normal
/// range, which scaling_is_exact tells.
AabbTriangleInput scale_pow2(const AabbTriangleInput& in, int k);
bool scaling_is_exact(const AabbTriangleInput& in, int k);

/// The triangle's vertices rotated by one place, or reversed.
AabbTriangleInput rotate_vertices(const AabbTriangleInput& in);
AabbTriangleInput reverse_vertices(const AabbTriangleInput& in);

/// The generators. In-domain inputs, mixing: uniform, grid-snapped
/// near-degenerate constructions, the seed-002 family, huge and tiny
/// magnitudes, subnormals and signed zeros, one-ulp nudges off touching.
rc::Gen<AabbTriangleInput> gen_aabb_triangle();
/// Just one of the mixes, by its kind name ("uniform", "grid", "pm10",
/// "magnitude", "subnormal", "ulp"); throws std::invalid_argument otherwise.
rc::Gen<AabbTriangleInput> gen_aabb_triangle(const std::string& kind);
/// The kind names gen_aabb_triangle(kind) accepts.
const std::vector<std::string>& aabb_triangle_gen_kinds();
/// Out-of-domain inputs: some coordinate inf or NaN, or lo > hi.
rc::Gen<AabbTriangleInput> gen_aabb_triangle_out_of_domain();

/// How RapidCheck shows an input in a counterexample: as a case file a
/// person can paste, with the exact answer when there is one.
void showValue(const AabbTriangleInput& in, std::ostream& os);

/// The input as a case file (origin in the leading comment).
std::string format_input(const AabbTriangleInput& in, bool expect_overlap, const std::string& origin);

}  // namespace isect::check
