// The floating-point environment a kernel runs in, and the one the exact
// truth runs in, kept apart.
//
// The control state of a thread (MXCSR on x86-64: rounding, flush-to-zero,
// denormals-are-zero, exception masks; FPCR on AArch64) decides what a
// kernel computes. A plugin built with -ffast-math or -Ofast sets FTZ and
// DAZ for the whole process when it is loaded (gcc links crtfastmath.o into
// it); Embree, many engines and every GPU run that way on purpose. The
// truth's interval arithmetic must never run in such a mode, so every
// in-process call of user code saves the state, sets the kernel's, calls,
// and restores the judge's; a kernel that changes the state is reported.
// `--fp-env ftz,daz` asks for that mode deliberately.
#pragma once

#include <atomic>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "check/model/family.hpp"

namespace isect::check {

/// A thread's floating-point control state.
struct FpControl {
    uint64_t bits = 0;
    bool operator==(const FpControl& o) const { return bits == o.bits; }
    bool operator!=(const FpControl& o) const { return bits != o.bits; }
};

/// This thread's state now.
FpControl fp_control();
/// Sets this thread's state.
void set_fp_control(FpControl c);
/// The state a C program starts in: round to nearest, no FTZ/DAZ, every
/// exception masked.
FpControl default_fp_control();
/// Whether c flushes results (FTZ) or inputs (DAZ) to zero.
bool flushes_to_zero(FpControl c);
bool denormals_are_zero(FpControl c);
/// "default", or what differs from it: "FTZ, DAZ", "round toward zero", ...
std::string describe_fp_control(FpControl c);

/// What `--fp-env` asks for: the kernel's FTZ and DAZ bits set, or both
/// cleared ("default"), everything else as the default state.
struct FpEnv {
    bool ftz = false, daz = false;
    /// "default", "ftz", "daz", "ftz,daz" (either order); nullopt with why.
    static std::optional<FpEnv> parse(const std::string& text, std::string& why);
    std::string str() const;
    FpControl control() const;
};

/// What a kernel did to the control state, counted over its calls by
/// every worker of a run at once.
struct FpWatch {
    std::atomic<uint64_t> changed_calls{0};  ///< calls after which the state was not the one set
    FpControl first_change{};    ///< the state after the first such call (set by whoever counted it)
    FpControl kernel_env{};      ///< the state the kernel runs in
    /// Counts one call that left the state `after`.
    void changed(FpControl after) {
        if (changed_calls.fetch_add(1, std::memory_order_relaxed) == 0) first_change = after;
    }
};

/// Wraps k so that each call runs in `env`, restores the caller's state
/// afterwards, and counts calls that changed it into *watch.
FamilyKernel in_fp_env(FamilyKernel k, FpControl env, std::shared_ptr<FpWatch> watch);

/// One line for a report: the environment kernels ran in, and how it came
/// to be ("FTZ, DAZ, set by the plugin when it loaded: built with
/// -ffast-math or -Ofast?"), and any change a kernel made.
std::string describe_kernel_env(FpControl env, const std::string& how, const FpWatch* watch);

}  // namespace isect::check
