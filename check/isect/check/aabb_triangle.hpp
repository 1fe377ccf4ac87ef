// The aabb_triangle family as the checker sees it: the built-in kernels and
// their contracts, the exact answer from both references, the tolerance band,
// the symmetries, and the generators of inputs where kernels break.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
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

/// A built-in kernel by name, or a planted bug by "broken:NAME"
/// (broken_aabb_triangle.hpp); nullptr when there is none.
const AabbTriangleKernel* find_aabb_triangle_kernel(const std::string& name);

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

// --- Fuzzing (aabb_triangle_fuzz.cpp) ---------------------------------------

/// The fuzz targets' byte layout: 2 header bytes, then 15 slots of 5 bytes
/// (box.lo xyz, box.hi xyz, the 9 triangle coordinates), 77 bytes in all;
/// shorter input is padded with zeros, longer is cut. README, "Fuzzing".
constexpr size_t kAabbTriangleFuzzBytes = 77;

/// Decodes fuzz bytes into an input (which may be outside the domain).
AabbTriangleInput decode_aabb_triangle(const uint8_t* data, size_t size);

/// The bytes that decode to exactly this input (every slot raw).
std::vector<uint8_t> encode_aabb_triangle(const AabbTriangleInput& in);

/// Float-aware mutation in place: ulp steps, snapping to integers and zero,
/// sign flips, power-of-two scaling, copying a coordinate, changing a slot's
/// construction, moving a vertex onto the line of the other two. Returns the new size (kAabbTriangleFuzzBytes), or 0 when
/// max_size is too small for the layout.
size_t mutate_aabb_triangle(uint8_t* data, size_t size, size_t max_size, unsigned seed);

/// Which of the 13 axes separates the closed sets most robustly (the widest
/// gap per unit of box growth), decided exactly: "face x", "normal",
/// "edge x*f1" (e_x cross the second edge), or "none" when they meet.
std::string aabb_triangle_deciding_axis(const Aabb& box, const Triangle& tri);

/// A fast sufficient test for aabb_triangle_in_band: the fast oracle on a
/// double box rounded so that "in band" there implies "in band" exactly.
/// False means not proved, not "outside".
bool aabb_triangle_fast_proves_in_band(const AabbTriangleInput& in, bool exact, double k);

/// What a fuzzer or checker found.
struct Finding {
    std::string kernel;     ///< a kernel's name, or "references"
    std::string signature;  ///< kernel, contract, kind, what decided: for de-duplication
    std::string message;    ///< one line for a person
    bool exact = false;     ///< the exact answer (the clip reference's when references disagree)
};

/// The fuzz oracle: runs the kernels on one input against the fast exact
/// oracle; on any disagreement, and on every input when cross_check is set,
/// both rational references decide and are compared with the oracle. Returns
/// the first broken contract or disagreement among the exact ones.
std::optional<Finding> fuzz_aabb_triangle(const std::vector<const AabbTriangleKernel*>& kernels,
                                          const AabbTriangleInput& in, bool cross_check);

/// The input as a case file (origin in the leading comment).
std::string format_input(const AabbTriangleInput& in, bool expect_overlap, const std::string& origin);

}  // namespace isect::check
