#include "check/io/fp_env.hpp"

#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace isect::check {

namespace {

#if defined(__x86_64__) || defined(__i386__)
constexpr uint64_t kFtz = 1u << 15, kDaz = 1u << 6, kRound = 3u << 13, kMasks = 0x3fu << 7, kDefault = 0x1f80;
#elif defined(__aarch64__)
// FPCR: FZ (bit 24) flushes inputs and results alike; there is no separate DAZ.
constexpr uint64_t kFtz = 1u << 24, kDaz = 1u << 24, kRound = 3u << 22, kMasks = 0x9f00, kDefault = 0;
#else
constexpr uint64_t kFtz = 0, kDaz = 0, kRound = 0, kMasks = 0, kDefault = 0;
#endif

}  // namespace

FpControl fp_control() {
#if defined(__x86_64__) || defined(__i386__)
    return {_mm_getcsr() & ~uint64_t(0x3f)};  // the sticky exception flags are not control
#elif defined(__aarch64__)
    uint64_t r;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(r));
    return {r};
#else
    return {0};
#endif
}

void set_fp_control(FpControl c) {
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(unsigned(c.bits));
#elif defined(__aarch64__)
    __asm__ __volatile__("msr fpcr, %0" : : "r"(c.bits));
#else
    (void)c;
#endif
}

FpControl default_fp_control() { return {kDefault}; }

bool flushes_to_zero(FpControl c) { return kFtz && (c.bits & kFtz); }
bool denormals_are_zero(FpControl c) { return kDaz && (c.bits & kDaz); }

std::string describe_fp_control(FpControl c) {
    if (c == default_fp_control()) return "default";
    std::string out;
    const auto add = [&](const std::string& s) { out += (out.empty() ? "" : ", ") + s; };
    if (kFtz == kDaz) {
        if (flushes_to_zero(c)) add("FTZ, DAZ");
    } else {
        if (flushes_to_zero(c)) add("FTZ");
        if (denormals_are_zero(c)) add("DAZ");
    }
#if defined(__x86_64__) || defined(__i386__)
    const uint64_t mode = (c.bits & kRound) >> 13;  // 0 nearest, 1 down, 2 up, 3 toward zero
#elif defined(__aarch64__)
    const uint64_t mode = (c.bits & kRound) >> 22;  // 0 nearest, 1 up, 2 down, 3 toward zero
    const uint64_t swap[4] = {0, 2, 1, 3};
#endif
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
#if defined(__aarch64__)
    const uint64_t m = swap[mode];
#else
    const uint64_t m = mode;
#endif
    static const char* const names[4] = {"", "round down", "round up", "round toward zero"};
    if (m) add(names[m]);
    if ((c.bits & kMasks) != (kDefault & kMasks)) add("exception traps changed");
#endif
    const uint64_t known = kFtz | kDaz | kRound | kMasks;
    if ((c.bits & ~known) != (kDefault & ~known)) {
        std::ostringstream s;
        s << "control bits 0x" << std::hex << c.bits;
        add(s.str());
    }
    return out.empty() ? "default" : out;
}

std::optional<FpEnv> FpEnv::parse(const std::string& text, std::string& why) {
    FpEnv e;
    if (text == "default") return e;
    std::stringstream in(text);
    bool any = false;
    for (std::string part; std::getline(in, part, ',');) {
        if (part == "ftz") e.ftz = true;
        else if (part == "daz") e.daz = true;
        else {
            why = "'" + text + "' is not default, ftz, daz or ftz,daz";
            return std::nullopt;
        }
        any = true;
    }
    if (!any) {
        why = "'" + text + "' is not default, ftz, daz or ftz,daz";
        return std::nullopt;
    }
    if (!kFtz) {
        why = "this machine has no flush-to-zero control isect knows";
        return std::nullopt;
    }
    return e;
}

std::string FpEnv::str() const {
    if (!ftz && !daz) return "default";
    return std::string(ftz ? "ftz" : "") + (ftz && daz ? "," : "") + (daz ? "daz" : "");
}

FpControl FpEnv::control() const {
    FpControl c = default_fp_control();
    if (ftz) c.bits |= kFtz;
    if (daz) c.bits |= kDaz;
    return c;
}

FamilyKernel in_fp_env(FamilyKernel k, FpControl env, std::shared_ptr<FpWatch> watch) {
    watch->kernel_env = env;
    k.fn = [fn = std::move(k.fn), env, watch](const double* in) {
        const FpControl judge = fp_control();
        set_fp_control(env);
        Answer a;
        try {
            a = fn(in);
        } catch (...) {
            set_fp_control(judge);
            throw;
        }
        const FpControl after = fp_control();
        set_fp_control(judge);
        if (after != env) watch->changed(after);
        return a;
    };
    return k;
}

std::string describe_kernel_env(FpControl env, const std::string& how, const FpWatch* watch) {
    std::string line = describe_fp_control(env);
    if (!how.empty()) line += " (" + how + ")";
    if (watch && watch->changed_calls)
        line += "; the kernel CHANGED the floating-point control state on " + std::to_string(watch->changed_calls) +
                " call(s), first to " + describe_fp_control(watch->first_change) +
                " (restored after each call; the judge never runs in it)";
    return line;
}

}  // namespace isect::check
