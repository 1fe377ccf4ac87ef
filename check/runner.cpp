#include "isect/check/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <rapidcheck.h>
#include <unistd.h>

namespace isect::check {

bool CheckReport::holds() const {
    if (reference_mismatches) return false;
    for (const KernelReport& k : kernels)
        if (!k.holds()) return false;
    return true;
}

namespace {

std::vector<float*> coords(AabbTriangleInput& in) {
    std::vector<float*> out;
    for (int i = 0; i < 3; ++i) out.push_back(&in.box.lo[i]);
    for (int i = 0; i < 3; ++i) out.push_back(&in.box.hi[i]);
    for (Vec3f& v : in.tri.v)
        for (float& x : v) out.push_back(&x);
    return out;
}

/// How many significant mantissa bits x has (0 for zero).
int significant_bits(float x) {
    if (x == 0) return 0;
    int e;
    float m = std::frexp(std::fabs(x), &e);
    int n = 0;
    while (m != 0 && n < 30) {
        m = m * 2 - std::floor(m * 2);
        ++n;
    }
    return n;
}

/// Simpler means: fewer significant bits, then smaller magnitude, then
/// non-negative. Zero is simplest.
bool simpler(float a, float b) {
    if (significant_bits(a) != significant_bits(b)) return significant_bits(a) < significant_bits(b);
    if (std::fabs(a) != std::fabs(b)) return std::fabs(a) < std::fabs(b);
    return std::signbit(b) && !std::signbit(a);
}

std::vector<float> candidates(float x, const std::vector<float>& others) {
    std::vector<float> c = {0.0f, -x, std::round(x), std::trunc(x)};
    for (int k = -4; k <= 4; ++k) c.push_back(float(k));
    int e;
    const float m = std::frexp(x, &e);
    for (int bits = 1; bits < 24; ++bits) c.push_back(std::ldexp(std::round(std::ldexp(m, bits)), e - bits));
    c.insert(c.end(), others.begin(), others.end());
    return c;
}

/// The sum of simplicity over all coordinates: a whole-input move is taken
/// only when it makes the case simpler overall.
int complexity(AabbTriangleInput in) {
    int total = 0;
    for (float* p : coords(in)) {
        if (*p == 0) continue;
        int e;
        std::frexp(*p, &e);
        total += 4 * significant_bits(*p) + std::abs(e - 1) + (std::signbit(*p) ? 1 : 0);
    }
    return total;
}

}  // namespace

AabbTriangleInput simplify(AabbTriangleInput in, const std::function<bool(const AabbTriangleInput&)>& still_fails) {
    const auto accept = [&](const AabbTriangleInput& trial) {
        if (!aabb_triangle_in_domain(trial.box, trial.tri) || complexity(trial) >= complexity(in) ||
            !still_fails(trial))
            return false;
        in = trial;
        return true;
    };
    for (bool changed = true; changed;) {
        changed = false;
        // Whole input: scale by 2^k towards magnitude 1.
        int e;
        std::frexp(largest_magnitude(in.box, in.tri), &e);
        for (int k : {1 - e, -e, 2 - e, 4 - e})
            if (k != 0 && scaling_is_exact(in, k) && accept(scale_pow2(in, k))) changed = true;
        // Shared values: every occurrence of +-v at once.
        std::vector<float> values;
        for (float* p : coords(in))
            if (*p != 0) values.push_back(std::fabs(*p));
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        for (float v : values)
            for (float c : {1.0f, 2.0f, 0.5f, 3.0f, 4.0f, std::round(v)}) {
                if (c == v || c == 0) continue;
                AabbTriangleInput trial = in;
                for (float* p : coords(trial))
                    if (std::fabs(*p) == v) *p = std::copysign(c, *p);
                if (accept(trial)) {
                    changed = true;
                    break;
                }
            }
        // One coordinate at a time.
        const std::vector<float*> slots = coords(in);
        for (size_t s = 0; s < slots.size(); ++s) {
            std::vector<float> others;
            for (float* p : slots) others.push_back(*p);
            for (float c : candidates(*slots[s], others)) {
                if (!simpler(c, *slots[s])) continue;
                AabbTriangleInput trial = in;
                *coords(trial)[s] = c;
                if (!aabb_triangle_in_domain(trial.box, trial.tri) || !still_fails(trial)) continue;
                in = trial;
                changed = true;
                break;
            }
        }
    }
    return in;
}

CheckReport run_aabb_triangle_check(const std::vector<AabbTriangleKernel>& kernels, const CheckOptions& options) {
    using Clock = std::chrono::steady_clock;
    CheckReport report;
    for (const AabbTriangleKernel& k : kernels) {
        KernelReport r;
        r.name = k.name;
        r.contract = k.contract;
        report.kernels.push_back(r);
    }
    const rc::Gen<AabbTriangleInput> gen =
        options.gen_kind.empty() ? gen_aabb_triangle() : gen_aabb_triangle(options.gen_kind);
    rc::Random random(options.seed);
    const auto start = Clock::now();
    auto last_progress = start;
    const bool tty = isatty(fileno(stderr));
    const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };

    const auto all_broken = [&] {
        for (const KernelReport& r : report.kernels)
            if (!r.violations) return false;
        return !report.kernels.empty();
    };
    while ((options.max_cases == 0 || report.cases < options.max_cases) &&
           (options.max_cases != 0 || elapsed() < options.seconds) && !(options.stop_at_first && all_broken())) {
        const AabbTriangleInput in = gen(random.split(), rc::kNominalSize).value();
        ++report.cases;
        ++report.mix[in.kind];
        bool exact;
        try {
            exact = aabb_triangle_truth(in.box, in.tri);
        } catch (const ReferenceMismatch& e) {
            if (!report.reference_mismatches++) {
                report.mismatch = in;
                report.mismatch_message = e.what();
            }
            continue;
        }
        for (size_t i = 0; i < kernels.size(); ++i) {
            KernelReport& r = report.kernels[i];
            ++r.tried;
            const bool answer = kernels[i].fn(in.box, in.tri);
            if (answer == exact) continue;
            answer ? ++r.false_hits : ++r.false_misses;
            // One band query answers both in_band and, for tolerant kernels,
            // the verdict; the bisection for the measured K runs only when
            // this disagreement needs a wider band than any seen before.
            const bool in_band = aabb_triangle_in_band(in.box, in.tri, exact, r.band_k());
            r.in_band += in_band;
            if (!(r.measured_k > 0 && aabb_triangle_in_band(in.box, in.tri, exact, r.measured_k)))
                r.measured_k = std::max(r.measured_k, aabb_triangle_band(in.box, in.tri, exact));
            const Contract& c = kernels[i].contract;
            const bool ok = c.kind == Contract::Kind::conservative ? answer
                            : c.kind == Contract::Kind::tolerant   ? in_band && c.k > 0
                                                                   : false;
            if (ok) continue;
            if (!r.violations++) {
                r.counterexample = in;
                r.counterexample_exact = exact;
                r.first_violation_case = report.cases;
                r.first_violation_seconds = elapsed();
            }
        }
        // Progress: one line rewritten in place on a terminal, a line every
        // five seconds into a log.
        if (options.progress && Clock::now() - last_progress > std::chrono::seconds(tty ? 1 : 5)) {
            last_progress = Clock::now();
            uint64_t broken = 0;
            for (const KernelReport& r : report.kernels) broken += r.violations;
            std::fprintf(stderr, "%s[check aabb_triangle] %5.1f s  %llu cases  %llu violations%s", tty ? "\r" : "",
                         elapsed(), (unsigned long long)report.cases, (unsigned long long)broken, tty ? "" : "\n");
            std::fflush(stderr);
        }
    }
    if (options.progress && tty) std::fprintf(stderr, "\n");
    report.seconds = elapsed();

    if (options.minimize) {
        for (size_t i = 0; i < kernels.size(); ++i) {
            KernelReport& r = report.kernels[i];
            if (!r.counterexample) continue;
            const auto fails = [&](const AabbTriangleInput& t) {
                try {
                    return violates(kernels[i], t, aabb_triangle_truth(t.box, t.tri));
                } catch (const ReferenceMismatch&) {
                    return false;  // keep the finding about the kernel, not the references
                }
            };
            r.counterexample = simplify(*r.counterexample, fails);
            r.counterexample_exact = aabb_triangle_truth(r.counterexample->box, r.counterexample->tri);
        }
    }
    return report;
}

}  // namespace isect::check
