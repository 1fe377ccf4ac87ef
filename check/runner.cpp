#include "isect/check/runner.hpp"
#include "isect/check/budget.hpp"
#include "isect/check/family.hpp"

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

Floats flatten(const AabbTriangleInput& in) {
    Floats out(in.box.lo.begin(), in.box.lo.end());
    out.insert(out.end(), in.box.hi.begin(), in.box.hi.end());
    for (const Vec3f& v : in.tri.v) out.insert(out.end(), v.begin(), v.end());
    return out;
}

AabbTriangleInput unflatten(const Floats& f, const char* kind) {
    AabbTriangleInput in;
    in.kind = kind;
    for (int i = 0; i < 3; ++i) {
        in.box.lo[i] = f[size_t(i)];
        in.box.hi[i] = f[size_t(3 + i)];
        for (int k = 0; k < 3; ++k) in.tri.v[size_t(k)][size_t(i)] = f[size_t(6 + 3 * k + i)];
    }
    return in;
}

}  // namespace

AabbTriangleInput simplify(AabbTriangleInput in, const std::function<bool(const AabbTriangleInput&)>& still_fails) {
    const char* kind = in.kind;
    const Floats out = simplify_floats(
        flatten(in),
        [&](const Floats& f) {
            const AabbTriangleInput t = unflatten(f, kind);
            return aabb_triangle_in_domain(t.box, t.tri);
        },
        [&](const Floats& f) { return still_fails(unflatten(f, kind)); });
    return unflatten(out, kind);
}

CheckReport run_aabb_triangle_check(const std::vector<AabbTriangleKernel>& kernels, const CheckOptions& options) {
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
    Budget budget(options.seconds, options.max_cases, options.progress);
    const auto all_broken = [&] {
        for (const KernelReport& r : report.kernels)
            if (!r.violations) return false;
        return !report.kernels.empty();
    };
    while (budget.more(report.cases) && !(options.stop_at_first && all_broken())) {
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
                r.first_violation_seconds = budget.elapsed();
            }
        }
        uint64_t broken = 0;
        for (const KernelReport& r : report.kernels) broken += r.violations;
        budget.report("aabb_triangle", report.cases, broken);
    }
    budget.finish();
    report.seconds = budget.elapsed();

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
