#include "isect/check/family.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <rapidcheck.h>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "isect/check/budget.hpp"
#include "isect/check/case_file.hpp"

namespace isect::check {

std::optional<FamilyKernel> Family::find_kernel(const std::string& kernel) const {
    const bool is_broken = kernel.rfind("broken:", 0) == 0;
    for (const FamilyKernel& k : is_broken ? broken() : kernels())
        if (k.name == kernel) return k;
    return std::nullopt;
}

const std::vector<const Family*>& families() {
    static const std::vector<const Family*> all = {&ray_triangle_family(), &ray_aabb_family(), &segment_aabb_family(), &aabb_plane_family(), &aabb_plane_overlap_family(), &aabb_aabb_family(), &sphere_aabb_family(),
                                                      &moving_aabb_family(), &moving_aabb_plane_family(),
                                                      &transformed_aabb_family(),
                                                      &triangle_measures_family(), &polygon_measures_family()};
    return all;
}

const Family* find_family(const std::string& name) {
    for (const Family* f : families())
        if (f->name == name) return f;
    return nullptr;
}

double largest_magnitude(const Floats& in) {
    double m = 0;
    for (float x : in)
        if (std::isfinite(x)) m = std::max(m, double(std::fabs(x)));
    return m;
}

double band_delta(const Floats& in, double k) { return k * std::ldexp(largest_magnitude(in), -24); }

double measured_k(const Family& f, const Floats& in, const Truth& truth, int answer) {
    if (f.in_band(in.data(), truth, answer, 0)) return 0;
    double hi = std::ldexp(1.0, 40);
    if (!f.in_band(in.data(), truth, answer, hi)) return std::numeric_limits<double>::infinity();
    double lo = std::ldexp(1.0, -40);
    if (f.in_band(in.data(), truth, answer, lo)) return lo;
    for (int i = 0; i < 48; ++i) {  // geometric bisection to about 3 digits
        const double mid = std::sqrt(lo * hi);
        (f.in_band(in.data(), truth, answer, mid) ? hi : lo) = mid;
        if (hi / lo < 1.001) break;
    }
    return hi;
}

FamilyJudgement judge(const Family& f, const FamilyKernel& k, const Floats& in, const Truth& truth) {
    FamilyJudgement j;
    try {
        j.got = k.fn(in.data());
    } catch (const KernelFailure& e) {
        j.violates = true;
        j.answer_differs = true;
        j.got.answer = -1;
        j.why = e.what();
        return j;
    }
    if (j.got.answer < 0 || j.got.answer >= int(f.answers.size())) {
        j.violates = true;
        j.answer_differs = true;
        j.why = "answer " + std::to_string(j.got.answer) + " is not one of the family's answers";
        return j;
    }
    if (j.got.answer != truth.answer) {
        j.answer_differs = true;
        const double band_k = k.contract.kind == Contract::Kind::tolerant ? k.contract.k : 1.0;
        j.in_band = f.in_band(in.data(), truth, j.got.answer, band_k);
        switch (k.contract.kind) {
            case Contract::Kind::exact: j.violates = true; break;
            case Contract::Kind::conservative: j.violates = j.got.answer != f.safe_answer; break;
            case Contract::Kind::tolerant: j.violates = !(j.in_band && k.contract.k > 0); break;
        }
        if (j.violates)
            j.why = "answers " + f.answers[size_t(j.got.answer)] + ", exact is " + f.answers[size_t(truth.answer)] +
                    (j.in_band ? " (in band, but the contract is " + k.contract.str() + ")" : " outside the band");
        return j;
    }
    if (!f.answer_has_values[size_t(truth.answer)]) return j;
    if (j.got.values.size() != f.values.size()) {
        j.violates = true;
        j.why = "returned " + std::to_string(j.got.values.size()) + " numbers, the family has " +
                std::to_string(f.values.size());
        return j;
    }
    if (j.got.unprovided == 0) {
        j.error = f.value_error(in.data(), truth, j.got);
    } else {  // outputs the kernel did not compute count as exact
        Answer checked = j.got;
        for (size_t i = 0; i < checked.values.size() && i < 64; ++i)
            if (checked.unprovided >> i & 1) checked.values[i] = truth.values[i];
        j.error = f.value_error(in.data(), truth, checked);
    }
    if (!(j.error.e <= k.error_e)) {
        j.violates = true;
        std::ostringstream why;
        why << j.error.output << " is off by " << format_k(j.error.e) << " x 2^-24 S, allowed " << format_k(k.error_e);
        if (!j.error.detail.empty()) why << " (" << j.error.detail << ")";
        j.why = why.str();
    }
    return j;
}

// --- Simplification -----------------------------------------------------------

namespace {

int significant_bits(float x) {
    if (x == 0 || !std::isfinite(x)) return 0;
    int e;
    float m = std::frexp(std::fabs(x), &e);
    int n = 0;
    while (m != 0 && n < 30) {
        m = m * 2 - std::floor(m * 2);
        ++n;
    }
    return n;
}

/// Simpler: fewer significant bits, then smaller magnitude, then not negative.
bool simpler(float a, float b) {
    if (significant_bits(a) != significant_bits(b)) return significant_bits(a) < significant_bits(b);
    if (std::fabs(a) != std::fabs(b)) return std::fabs(a) < std::fabs(b);
    return std::signbit(b) && !std::signbit(a);
}

int complexity(const Floats& in) {
    int total = 0;
    for (float x : in) {
        if (x == 0 || !std::isfinite(x)) continue;
        int e;
        std::frexp(x, &e);
        total += 4 * significant_bits(x) + std::abs(e - 1) + (std::signbit(x) ? 1 : 0);
    }
    return total;
}

std::vector<float> candidates(float x, const Floats& others) {
    std::vector<float> c = {0.0f, -x, std::round(x), std::trunc(x)};
    for (int k = -4; k <= 4; ++k) c.push_back(float(k));
    int e;
    const float m = std::frexp(x, &e);
    for (int bits = 1; bits < 24; ++bits) c.push_back(std::ldexp(std::round(std::ldexp(m, bits)), e - bits));
    c.insert(c.end(), others.begin(), others.end());
    return c;
}

bool scaling_exact(const Floats& in, int k) {
    for (float x : in) {
        if (!std::isfinite(x) || x == 0) continue;
        const float y = std::ldexp(x, k);
        if (!std::isfinite(y) || std::ldexp(y, -k) != x) return false;
    }
    return true;
}

}  // namespace

Floats simplify_floats(Floats in, const std::function<bool(const Floats&)>& ok,
                       const std::function<bool(const Floats&)>& still_fails) {
    const auto accept = [&](const Floats& trial) {
        if (!ok(trial) || complexity(trial) >= complexity(in) || !still_fails(trial)) return false;
        in = trial;
        return true;
    };
    for (bool changed = true; changed;) {
        changed = false;
        // The whole input, scaled by 2^k towards magnitude 1.
        int e;
        std::frexp(largest_magnitude(in), &e);
        for (int k : {1 - e, -e, 2 - e, 4 - e}) {
            if (k == 0 || !scaling_exact(in, k)) continue;
            Floats trial = in;
            for (float& x : trial) x = std::ldexp(x, k);
            if (accept(trial)) changed = true;
        }
        // Shared values: every occurrence of +-v at once.
        Floats values;
        for (float x : in)
            if (x != 0 && std::isfinite(x)) values.push_back(std::fabs(x));
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        for (float v : values)
            for (float c : {1.0f, 2.0f, 0.5f, 3.0f, 4.0f, std::round(v)}) {
                if (c == v || c == 0) continue;
                Floats trial = in;
                for (float& x : trial)
                    if (std::fabs(x) == v) x = std::copysign(c, x);
                if (accept(trial)) {
                    changed = true;
                    break;
                }
            }
        // One number at a time.
        for (size_t s = 0; s < in.size(); ++s) {
            for (float c : candidates(in[s], in)) {
                if (!simpler(c, in[s])) continue;
                Floats trial = in;
                trial[s] = c;
                if (!ok(trial) || !still_fails(trial)) continue;
                in = trial;
                changed = true;
                break;
            }
        }
    }
    return in;
}

// --- The engine -------------------------------------------------------------

bool FamilyCheckReport::holds() const {
    if (reference_mismatches) return false;
    for (const FamilyKernelReport& k : kernels)
        if (!k.holds()) return false;
    return true;
}

FamilyCheckReport run_family_check(const Family& f, const std::vector<FamilyKernel>& kernels,
                                   const FamilyCheckOptions& options) {
    FamilyCheckReport report;
    report.family = f.name;
    for (const FamilyKernel& k : kernels) {
        FamilyKernelReport r;
        r.name = k.name;
        r.contract = k.contract;
        r.error_e = k.error_e;
        report.kernels.push_back(r);
    }
    const rc::Gen<Generated> gen = f.gen(options.gen_kind);
    rc::Random random(options.seed);
    Budget budget(options.seconds, options.max_cases, options.progress);
    const auto all_broken = [&] {
        for (const FamilyKernelReport& r : report.kernels)
            if (!r.violations) return false;
        return !report.kernels.empty();
    };
    const auto hung = [&] {
        for (const FamilyKernelReport& r : report.kernels)
            if (r.stopped_at_hang) return true;
        return false;
    };
    while (budget.more(report.cases) && !(options.stop_at_first && all_broken()) && !hung()) {
        const Generated g = gen(random.split(), rc::kNominalSize).value();
        const Floats& in = g.in;
        ++report.cases;
        ++report.mix[g.kind];
        Truth truth;
        try {
            truth = f.truth(in.data());
        } catch (const ReferenceMismatch& e) {
            if (!report.reference_mismatches++) {
                report.mismatch = in;
                report.mismatch_message = e.what();
            }
            continue;
        }
        for (size_t i = 0; i < kernels.size(); ++i) {
            FamilyKernelReport& r = report.kernels[i];
            ++r.tried;
            const FamilyJudgement j = judge(f, kernels[i], in, truth);
            const bool known_answer = j.got.answer >= 0 && j.got.answer < int(f.answers.size());
            if (j.answer_differs && !known_answer) {
                ++r.wrong_answers;  // a failure or garbage: no band explains it
                r.measured_k = std::numeric_limits<double>::infinity();
            } else if (j.answer_differs) {
                ++r.wrong_answers;
                r.in_band += j.in_band;
                // Bisect only when this disagreement needs a wider band than
                // any seen (never past +inf: no band explains it anyway).
                if (!std::isinf(r.measured_k) &&
                    !(r.measured_k > 0 && f.in_band(in.data(), truth, j.got.answer, r.measured_k)))
                    r.measured_k = std::max(r.measured_k, measured_k(f, in, truth, j.got.answer));
            } else if (j.error.e > r.measured_e || std::isnan(j.error.e)) {
                r.measured_e = std::isnan(j.error.e) ? std::numeric_limits<double>::infinity() : j.error.e;
            }
            if (j.violates && !r.violations++) {
                r.counterexample = in;
                r.counterexample_why = j.why;
                r.first_violation_case = report.cases;
            }
            if (options.stop_at_hang && j.violates && j.why.rfind("hang", 0) == 0) {
                r.stopped_at_hang = true;
                r.hang_input = in;
            }
        }
        uint64_t broken = 0;
        for (const FamilyKernelReport& r : report.kernels) broken += r.violations;
        budget.report(f.name, report.cases, broken);
    }
    budget.finish();
    report.seconds = budget.elapsed();
    if (!options.minimize) return report;
    const auto in_domain = [&](const Floats& t) { return f.domain(t.data()).empty(); };
    for (size_t i = 0; i < kernels.size(); ++i) {
        FamilyKernelReport& r = report.kernels[i];
        if (!r.counterexample) continue;
        const auto fails = [&](const Floats& t) {
            try {
                return judge(f, kernels[i], t, f.truth(t.data())).violates;
            } catch (const ReferenceMismatch&) {
                return false;  // keep the finding about the kernel
            }
        };
        r.counterexample = simplify_floats(*r.counterexample, in_domain, fails);
        r.counterexample_why = judge(f, kernels[i], *r.counterexample, f.truth(r.counterexample->data())).why;
    }
    return report;
}

// --- Case files ----------------------------------------------------------------

namespace {

std::string format_double(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

std::string format_inputs(const Family& f, const Floats& in) {
    std::ostringstream out;
    size_t at = 0;
    size_t width = 7;
    for (const InputKey& k : f.inputs) width = std::max(width, k.key.size() + 1);
    for (const InputKey& k : f.inputs) {
        out << k.key << std::string(width - k.key.size(), ' ');
        for (int i = 0; i < k.count; ++i) {
            out << (i ? (i % 3 == 0 ? "   " : " ") : "") << format_float(in[at++]);
        }
        out << "\n";
    }
    return out.str();
}

}  // namespace

std::string format_family_case(const Family& f, const Floats& in, const Truth& truth, const std::string& origin) {
    std::ostringstream out;
    std::istringstream lines(origin);
    for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
    out << "family  " << f.name << "\n" << format_inputs(f, in);
    out << "expect  " << f.answers[size_t(truth.answer)] << "\n";
    if (f.answer_has_values[size_t(truth.answer)])
        for (size_t i = 0; i < f.values.size() && i < truth.values.size(); ++i)
            out << "expect." << f.values[i] << "  " << format_double(truth.values[i]) << "\n";
    return out.str();
}

std::string show_family_input(const Family& f, const Floats& in) {
    std::string text = "family  " + f.name + "\n" + format_inputs(f, in);
    if (!f.domain(in.data()).empty()) return text + "# outside the domain: " + f.domain(in.data()) + "\n";
    try {
        const Truth t = f.truth(in.data());
        text += "expect  " + f.answers[size_t(t.answer)] + "\n";
    } catch (const std::exception& e) {
        text += std::string("# ") + e.what() + "\n";
    }
    return text;
}

std::vector<std::string> replay_family_case(const FamilyCase& c) {
    const Family& f = *c.family;
    std::vector<std::string> problems;
    Truth truth;
    try {
        truth = f.truth(c.in.data());
    } catch (const ReferenceMismatch& e) {
        return {e.what()};
    }
    if (truth.answer != c.expect)
        problems.push_back("expect says " + f.answers[size_t(c.expect)] + " but both references say " +
                           f.answers[size_t(truth.answer)]);
    else if (f.answer_has_values[size_t(truth.answer)])
        for (size_t i = 0; i < f.values.size(); ++i) {
            const auto it = c.expect_values.find(f.values[i]);
            if (it == c.expect_values.end()) continue;
            const double want = it->second, got = truth.values[i];
            if (!(want == got || (std::isnan(want) && std::isnan(got))))
                problems.push_back("expect." + f.values[i] + " says " + format_double(want) +
                                   " but the references say " + format_double(got));
        }
    for (const FamilyKernel& k : f.kernels()) {
        const FamilyJudgement j = judge(f, k, c.in, truth);
        if (j.violates) problems.push_back("kernel " + k.name + " (" + k.contract.str() + "): " + j.why);
    }
    return problems;
}

}  // namespace isect::check
