#include "isect/check/family.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "isect/check/budget.hpp"
#include "isect/check/case_file.hpp"
#include "isect/check/family_gen.hpp"
#include "isect/check/interrupt.hpp"

namespace isect::check {

std::optional<FamilyKernel> Family::find_kernel(const std::string& kernel) const {
    const bool is_broken = kernel.rfind("broken:", 0) == 0;
    for (const FamilyKernel& k : is_broken ? broken() : kernels())
        if (k.name == kernel) return k;
    return std::nullopt;
}

const std::vector<const Family*>& families() {
    static const std::vector<const Family*> all = {
        &aabb_triangle_family(),    &ray_triangle_family(),      &ray_aabb_family(),       &segment_aabb_family(),
        &aabb_plane_family(),       &aabb_plane_overlap_family(), &aabb_aabb_family(),     &sphere_aabb_family(),
        &moving_aabb_family(),      &moving_aabb_plane_family(), &transformed_aabb_family(), &triangle_measures_family(),
        &polygon_measures_family()};
    return all;
}

const Family* find_family(const std::string& name) {
    for (const Family* f : families())
        if (f->name == name) return f;
    return nullptr;
}

namespace {
Precision g_precision = Precision::single;
}  // namespace

void set_precision(Precision p) { g_precision = p; }
Precision precision() { return g_precision; }
double unit_roundoff() { return g_precision == Precision::single ? 0x1p-24 : 0x1p-53; }
const char* unit_name() { return g_precision == Precision::single ? "2^-24" : "2^-53"; }
const char* precision_name(Precision p) { return p == Precision::single ? "float" : "double"; }
bool representable(double x) {
    return g_precision == Precision::double_ || std::isnan(x) || double(float(x)) == x;
}
double to_precision(double x) { return g_precision == Precision::single ? double(float(x)) : x; }
double next_in_precision(double x, double toward) {
    if (g_precision == Precision::single) return double(std::nextafter(float(x), float(toward)));
    return std::nextafter(x, toward);
}
bool scales_exactly(double x, int k) {
    if (!std::isfinite(x) || x == 0) return true;
    const double y = std::ldexp(x, k);
    return std::isfinite(y) && representable(y) && std::ldexp(y, -k) == x;
}
double least_normal() { return g_precision == Precision::single ? 0x1p-126 : std::numeric_limits<double>::min(); }
double greatest_finite() {
    return g_precision == Precision::single ? double(std::numeric_limits<float>::max()) : std::numeric_limits<double>::max();
}

double largest_magnitude(const Inputs& in) {
    double m = 0;
    for (double x : in)
        if (std::isfinite(x)) m = std::max(m, std::fabs(x));
    return m;
}

double band_magnitude(const Inputs& in) {
    const double m = largest_magnitude(in);
    return m == 0 ? 1 : m;
}

double band_delta(const Inputs& in, double k) { return k * unit_roundoff() * band_magnitude(in); }

double measured_k(const Family& f, const Inputs& in, const Truth& truth, int answer) {
    if (band(f, in.data(), truth.answer, answer, 0)) return 0;
    double hi = std::ldexp(1.0, 40);
    if (!band(f, in.data(), truth.answer, answer, hi)) return std::numeric_limits<double>::infinity();
    double lo = std::ldexp(1.0, -40);
    if (band(f, in.data(), truth.answer, answer, lo)) return lo;
    for (int i = 0; i < 48; ++i) {  // geometric bisection to about 3 digits
        const double mid = std::sqrt(lo * hi);
        (band(f, in.data(), truth.answer, answer, mid) ? hi : lo) = mid;
        if (hi / lo < 1.001) break;
    }
    return hi;
}

namespace {
Oracle g_oracle = Oracle::fast;
}  // namespace

void set_oracle(Oracle o) { g_oracle = o; }
Oracle oracle() { return g_oracle; }

bool band(const Family& f, const double* in, int exact_answer, int answer, double k) {
    if (k > 0 && g_oracle == Oracle::fast && f.fast_in_band) {
        const Tri t = f.fast_in_band(in, FastTruth{exact_answer, {}, {}}, answer, k);
        if (t != Tri::unknown) return t == Tri::yes;
    }
    return f.in_band(in, Truth{exact_answer, {}, {}, {}}, answer, k);
}

namespace {

/// The error of a kernel's numbers: against the exact values, or, for a
/// truth from the fast oracle, against both ends of each enclosure (a
/// number's distance from a point of [lo, hi] is greatest at an end), with
/// `undecided` where that cannot settle it.
ValueError value_judgement(const Family& f, const double* in, const Truth& truth, const Answer& got) {
    Answer checked = got;
    if (got.unprovided)  // outputs the kernel did not compute count as exact
        for (size_t i = 0; i < checked.values.size() && i < 64; ++i)
            if (got.unprovided >> i & 1) checked.values[i] = truth.values[i];
    if (truth.lo.empty()) return f.value_error(in, truth, checked);
    Truth lo = truth, hi = truth;
    lo.values = truth.lo;
    hi.values = truth.hi;
    for (size_t i = 0; i < checked.values.size() && i < 64; ++i)
        if (got.unprovided >> i & 1) checked.values[i] = truth.lo[i];
    const ValueError a = f.value_error(in, lo, checked);
    if (got.unprovided)
        for (size_t i = 0; i < checked.values.size() && i < 64; ++i)
            if (got.unprovided >> i & 1) checked.values[i] = truth.hi[i];
    ValueError b = f.value_error(in, hi, checked);
    b.undecided = b.undecided || a.undecided || a.cut_k != b.cut_k;
    if (a.e > b.e || std::isnan(a.e)) {
        b.e = a.e;
        b.output = a.output;
        b.detail = a.detail;
    }
    return b;
}

/// The judgement of an answer the kernel gave, against a truth.
FamilyJudgement judge_answer(const Family& f, const FamilyKernel& k, const Inputs& in, const Answer& got,
                             const Truth& truth) {
    FamilyJudgement j;
    j.got = got;
    if (j.got.answer < 0 || j.got.answer >= int(f.answers.size())) {
        j.violates = true;
        j.answer_differs = true;
        std::string answers;
        for (const std::string& a : f.answers) answers += (answers.empty() ? "" : ", ") + a;
        j.why = "answer " + std::to_string(j.got.returned.value_or(j.got.answer)) + " is not one of " + f.name + "'s (" +
                answers + (j.got.returned ? "; isect/plugin.h says how they are returned" : "") + ")";
        return j;
    }
    if (j.got.answer != truth.answer) {
        j.answer_differs = true;
        const double band_k = k.contract.kind == Contract::Kind::tolerant ? k.contract.k : 1.0;
        j.in_band = band(f, in.data(), truth.answer, j.got.answer, band_k);
        switch (k.contract.kind) {
            case Contract::Kind::exact: j.violates = true; break;
            case Contract::Kind::conservative: j.violates = j.got.answer != f.safe_answer; break;
            case Contract::Kind::tolerant: j.violates = !(j.in_band && k.contract.k > 0); break;
        }
        // A violation is never called "in band": under exact every
        // difference breaks, under conservative every false miss does,
        // however close the input is to flipping.
        if (j.violates)
            j.why = "answers " + f.answers[size_t(j.got.answer)] + ", exact is " + f.answers[size_t(truth.answer)] +
                    (k.contract.kind == Contract::Kind::exact ? ": an exact kernel never differs"
                     : k.contract.kind == Contract::Kind::conservative
                         ? ": a conservative kernel never answers " + f.answers[size_t(j.got.answer)] + " where the exact answer is " + f.answers[size_t(truth.answer)]
                         : " outside the band");
        return j;
    }
    if (!f.answer_has_values[size_t(truth.answer)]) return j;
    if (j.got.values.size() != f.values.size()) {
        j.violates = true;
        j.why = "returned " + std::to_string(j.got.values.size()) + " numbers, the family has " +
                std::to_string(f.values.size());
        return j;
    }
    j.error = value_judgement(f, in.data(), truth, j.got);
    if (j.error.undecided) return j;
    if (j.error.cut_k > 0) {
        // Containment is the answer of a construction: cutting is a wrong
        // answer, allowed only inside the band of a tolerant contract.
        j.cuts = true;
        j.in_band = j.error.cut_k <= (k.contract.kind == Contract::Kind::tolerant ? k.contract.k : 1.0);
        if (!(k.contract.kind == Contract::Kind::tolerant && k.contract.k > 0 && j.error.cut_k <= k.contract.k)) {
            j.violates = true;
            j.why = std::string(j.error.cut_output) + " cuts the exact image" +
                    (k.contract.kind == Contract::Kind::tolerant
                         ? " by more than the band: K = " + format_k(j.error.cut_k) + " needed"
                         : ": containment is broken (K = " + format_k(j.error.cut_k) + " would explain it)");
            return j;
        }
    }
    if (!(j.error.e <= k.error_e)) {
        j.violates = true;
        std::ostringstream why;
        why << j.error.output << " is off by " << format_k(j.error.e) << " x " << unit_name() << " S, allowed "
            << format_k(k.error_e);
        if (!j.error.detail.empty()) why << " (" << j.error.detail << ")";
        j.why = why.str();
    }
    return j;
}

/// Runs a kernel; a crash, hang or garbage reply is its answer -1 and why.
Answer run_kernel(const FamilyKernel& k, const Inputs& in, std::string& failure) {
    if (k.precision != precision())
        throw std::invalid_argument("kernel " + k.name + " takes " + precision_name(k.precision) + " inputs; this run's are " +
                                    precision_name(precision()) + "s");
    try {
        return k.fn(in.data());
    } catch (const KernelFailure& e) {
        failure = e.what();
        return Answer{-1, {}, 0};
    }
}

FamilyJudgement failed(const Answer& got, const std::string& why) {
    FamilyJudgement j;
    j.got = got;
    j.violates = true;
    j.answer_differs = true;
    j.why = why;
    return j;
}

std::optional<FamilyJudgement> judge_fast_answer(const Family& f, const FamilyKernel& k, const Inputs& in,
                                                 const Answer& got, const FastTruth& fast) {
    Truth t{fast.answer, fast.lo, fast.lo, fast.hi};
    if (f.answer_has_values[size_t(fast.answer)] && fast.lo.size() != f.values.size()) t.lo.clear();
    if (got.answer == fast.answer && f.answer_has_values[size_t(fast.answer)] && t.lo.empty()) return std::nullopt;
    FamilyJudgement j = judge_answer(f, k, in, got, t);
    if (j.violates || j.error.undecided || j.cuts) return std::nullopt;  // the references decide these
    return j;
}

}  // namespace

FamilyJudgement judge(const Family& f, const FamilyKernel& k, const Inputs& in, const Truth& truth) {
    std::string failure;
    const Answer got = run_kernel(k, in, failure);
    if (!failure.empty()) return failed(got, failure);
    return judge_answer(f, k, in, got, truth);
}

std::optional<FamilyJudgement> judge_fast(const Family& f, const FamilyKernel& k, const Inputs& in,
                                          const FastTruth& fast) {
    std::string failure;
    const Answer got = run_kernel(k, in, failure);
    if (!failure.empty()) return failed(got, failure);
    return judge_fast_answer(f, k, in, got, fast);
}

std::string scale_bucket(const Inputs& in) {
    double big = 0, small = INFINITY;
    for (double x : in)
        if (std::isfinite(x) && x != 0) {
            big = std::max(big, std::fabs(x));
            small = std::min(small, std::fabs(x));
        }
    if (big == 0) return "ordinary (2^-20..2^20)";  // zeros are as ordinary as it gets
    if (big / small > 0x1p40) return "mixed scales (spread above 2^40)";
    if (small < 0x1p-20) return "tiny (below 2^-20)";
    if (big > 0x1p20) return "huge (above 2^20)";
    return "ordinary (2^-20..2^20)";
}

namespace {

/// An output's name without its axis: "box.lo.y" -> "box.lo". The families
/// are symmetric under permutations of the axes, so the axis is not what a
/// bug is.
std::string without_axis(std::string_view name) {
    const size_t n = name.size();
    if (n > 2 && name[n - 2] == '.' && (name[n - 1] == 'x' || name[n - 1] == 'y' || name[n - 1] == 'z'))
        return std::string(name.substr(0, n - 2));
    return std::string(name);
}

}  // namespace

std::string violation_class(const Family& f, const FamilyKernel& k, const Inputs& in, const Truth& truth,
                            const FamilyJudgement& j) {
    std::string what, decided;
    if (j.got.answer < 0 || j.got.answer >= int(f.answers.size())) {
        const std::string& why = j.why;
        what = why.rfind("crash", 0) == 0 ? "crash" : why.rfind("hang", 0) == 0 ? "hang" : "garbage";
    } else if (j.answer_differs) {
        what = f.yes_no() ? (j.got.answer == 1 ? "false hit" : "false miss")
                          : "answers " + f.answers[size_t(j.got.answer)] + ", exact " + f.answers[size_t(truth.answer)];
        if (f.deciding) decided = f.deciding(in.data(), truth, j.got.answer);
    } else if (j.cuts) {
        what = "cuts " + without_axis(j.error.cut_output);
    } else {
        what = "output " + without_axis(j.error.output);
        for (size_t i = 0; i < f.values.size() && i < j.got.values.size(); ++i)
            if (f.values[i] == j.error.output && !std::isfinite(j.got.values[i]) && i < truth.values.size() &&
                std::isfinite(truth.values[i]))
                what = "non-finite " + without_axis(j.error.output);
    }
    return k.name + "|" + k.contract.str() + "|" + what + "|" + decided + "|" + scale_bucket(in);
}

// --- Simplification -----------------------------------------------------------

namespace {

int significant_bits(double x) {
    if (x == 0 || !std::isfinite(x)) return 0;
    int e;
    double m = std::frexp(std::fabs(x), &e);
    int n = 0;
    while (m != 0 && n < 60) {
        m = m * 2 - std::floor(m * 2);
        ++n;
    }
    return n;
}

/// Simpler: fewer significant bits, then smaller magnitude, then not negative.
bool simpler(double a, double b) {
    if (significant_bits(a) != significant_bits(b)) return significant_bits(a) < significant_bits(b);
    if (std::fabs(a) != std::fabs(b)) return std::fabs(a) < std::fabs(b);
    return std::signbit(b) && !std::signbit(a);
}


/// Simpler values for x: zero, its negation, integers, x with fewer
/// mantissa bits, the other inputs (simplify_floats drops those the
/// precision cannot hold: fewer bits of a float subnormal are below its grid).
std::vector<double> candidates(double x, const Inputs& others) {
    std::vector<double> c = {0.0, -x, std::round(x), std::trunc(x)};
    for (int k = -4; k <= 4; ++k) c.push_back(double(k));
    int e;
    const double m = std::frexp(x, &e);
    const int mantissa = precision() == Precision::single ? 24 : 53;
    for (int bits = 1; bits < mantissa; ++bits) c.push_back(std::ldexp(std::round(std::ldexp(m, bits)), e - bits));
    c.insert(c.end(), others.begin(), others.end());
    return c;
}

bool scaling_exact(const Inputs& in, int k) {
    for (double x : in)
        if (!scales_exactly(x, k)) return false;
    return true;
}

}  // namespace

int complexity(const Inputs& in) {
    int total = 0;
    for (double x : in) {
        if (x == 0 || !std::isfinite(x)) continue;
        int e;
        std::frexp(x, &e);
        total += 4 * significant_bits(x) + std::abs(e - 1) + (std::signbit(x) ? 1 : 0);
    }
    return total;
}

const Precondition* degeneracy(const Family& f, const double* in) {
    for (const Precondition& p : f.preconditions)
        if (p.degeneracy && !p.holds(in)) return &p;
    return nullptr;
}

bool better_witness(const Family& f, const Inputs& a, const Inputs& b) {
    const bool da = degeneracy(f, a.data()) != nullptr, db = degeneracy(f, b.data()) != nullptr;
    if (da != db) return db;
    return complexity(a) < complexity(b);
}

std::function<bool(const Inputs&)> witness_space(const Family& f, const Domain& domain, const Inputs& start) {
    const bool proper = degeneracy(f, start.data()) == nullptr;
    return [&f, domain, proper](const Inputs& t) {
        return f.domain(t.data()).empty() && domain.outside(f, t.data()).empty() &&
               (!proper || degeneracy(f, t.data()) == nullptr);
    };
}

std::optional<Inputs> transformed(const Family& f, const Inputs& in, const Symmetry& s) {
    static constexpr int kPerms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const int* p = kPerms[s.perm % 6];
    const bool translates = s.translate[0] != 0 || s.translate[1] != 0 || s.translate[2] != 0;
    bool exact = true;
    const auto scaled = [&](double x) {
        if (!std::isfinite(x) || x == 0) return x;
        if (!scales_exactly(x, s.scale)) exact = false;
        return std::ldexp(x, s.scale);
    };
    const auto moved = [&](double x, int axis) {
        const double y = scaled(x);
        const double t = s.translate[size_t(axis)];
        const double z = y + t;
        const double bb = z - y;  // TwoSum: y + t == z + err exactly
        const double err = (y - (z - bb)) + (t - bb);
        if (err != 0 || !std::isfinite(z) || !representable(z)) exact = false;
        return z;
    };
    const auto sign = [&](int axis) { return (s.mirror >> axis) & 1 ? -1.0 : 1.0; };
    Inputs out = in;
    for (const InputKey& k : f.inputs) {
        const size_t at = f.offset(k.key);
        const double* src = in.data() + at;
        double* dst = out.data() + at;
        switch (k.role) {
            case Role::offset:
            case Role::matrix:
                if (translates) return std::nullopt;
                break;
            default: break;
        }
        switch (k.role) {
            case Role::point:
            case Role::polygon:
            case Role::vector:
            case Role::normal: {
                const int points = k.count / 3;
                for (int v = 0; v < points; ++v) {
                    int from = v;
                    if (k.role == Role::polygon) {
                        from = (v + s.rotate) % points;
                        if (s.reverse) from = (points - 1 - from + points) % points;
                    }
                    for (int i = 0; i < 3; ++i) {
                        const double x = sign(i) * src[3 * from + p[i]];
                        dst[3 * v + i] = k.role == Role::normal   ? x
                                         : k.role == Role::vector ? scaled(x)
                                                                  : moved(x, i);
                    }
                }
                break;
            }
            case Role::box_lo:
            case Role::box_hi: {
                // Mirroring an axis swaps the box's faces on it: lo' = -hi.
                const std::string stem = k.key.substr(0, k.key.size() - 3);
                const double* lo = in.data() + f.offset(stem + ".lo");
                const double* hi = in.data() + f.offset(stem + ".hi");
                for (int i = 0; i < 3; ++i) {
                    const bool flip = (s.mirror >> i) & 1;
                    const double x = k.role == Role::box_lo ? (flip ? -hi[p[i]] : lo[p[i]]) : (flip ? -lo[p[i]] : hi[p[i]]);
                    dst[i] = moved(x, i);
                }
                break;
            }
            case Role::offset:
            case Role::length:
                for (int i = 0; i < k.count; ++i) dst[i] = scaled(src[i]);
                break;
            case Role::parameter: break;
            case Role::matrix:
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j) dst[3 * i + j] = sign(i) * sign(j) * src[3 * p[i] + p[j]];
                break;
        }
    }
    if (!exact) return std::nullopt;
    return out;
}

double input_feature(const Family& f, const Inputs& in) {
    if (f.feature) return f.feature(in.data());
    double m = 0;
    for (double x : in)
        if (std::isfinite(x) && x != 0 && (m == 0 || std::fabs(x) < m)) m = std::fabs(x);
    return m;
}

Inputs simplify_floats(Inputs in, const std::function<bool(const Inputs&)>& ok_in_domain,
                       const std::function<bool(const Inputs&)>& still_fails) {
    // Every trial stays in the run's precision: a candidate with fewer
    // mantissa bits of a float subnormal is a double below float's grid,
    // which a float kernel would see rounded and the references would not.
    const auto ok = [&](const Inputs& trial) {
        for (double x : trial)
            if (!representable(x)) return false;
        return ok_in_domain(trial);
    };
    // After Ctrl-C or SIGTERM, only a short grace: then every trial fails
    // and the simplest input found so far is the witness.
    const auto fails = [&](const Inputs& trial) { return within_grace() && still_fails(trial); };
    const auto accept = [&](const Inputs& trial) {
        if (!ok(trial) || complexity(trial) >= complexity(in) || !fails(trial)) return false;
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
            Inputs trial = in;
            for (double& x : trial) x = std::ldexp(x, k);
            if (accept(trial)) changed = true;
        }
        // Shared values: every occurrence of +-v at once.
        Inputs values;
        for (double x : in)
            if (x != 0 && std::isfinite(x)) values.push_back(std::fabs(x));
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        for (double v : values)
            for (double c : {1.0, 2.0, 0.5, 3.0, 4.0, std::round(v)}) {
                if (c == v || c == 0) continue;
                Inputs trial = in;
                for (double& x : trial)
                    if (std::fabs(x) == v) x = std::copysign(c, x);
                if (accept(trial)) {
                    changed = true;
                    break;
                }
            }
        // One number at a time.
        for (size_t s = 0; s < in.size(); ++s) {
            for (double c : candidates(in[s], in)) {
                if (!simpler(c, in[s])) continue;
                Inputs trial = in;
                trial[s] = c;
                if (!ok(trial) || !fails(trial)) continue;
                in = trial;
                changed = true;
                break;
            }
        }
    }
    return in;
}

// --- The engine -------------------------------------------------------------

std::string oracle_disagreement(const Family& f, const FastTruth& fast, const Truth& truth) {
    if (fast.answer != truth.answer)
        return "the fast oracle says " + f.answers[size_t(fast.answer)] + ", both references say " +
               f.answers[size_t(truth.answer)];
    if (!f.answer_has_values[size_t(truth.answer)] || fast.lo.size() != truth.values.size()) return {};
    for (size_t i = 0; i < truth.values.size(); ++i) {
        const double v = truth.values[i], lo = fast.lo[i], hi = fast.hi[i];
        const bool nan = std::isnan(v) || std::isnan(lo) || std::isnan(hi);
        if (nan ? !(std::isnan(v) && std::isnan(lo) && std::isnan(hi))
                : !(std::nextafter(lo, -INFINITY) <= v && v <= std::nextafter(hi, INFINITY)))
            return "the fast oracle encloses " + f.values[i] + " in [" + format_double(lo) + ", " + format_double(hi) +
                   "], the references say " + format_double(v);
    }
    return {};
}

bool FamilyCheckReport::holds() const {
    if (reference_mismatches) return false;
    for (const FamilyKernelReport& k : kernels)
        if (!k.holds()) return false;
    return true;
}

namespace {

int map_bin(double x) {
    if (!(x > 0) || !std::isfinite(x)) return -10000;  // below every bin of a double (2^-1074 is in bin -1080)
    return int(std::floor(std::log2(x) / 10)) * 10;
}

/// Bisects only when this disagreement needs a wider band than `known`.
double widen_k(const Family& f, const Inputs& in, const Truth& truth, int answer, double known) {
    if (std::isinf(known)) return known;
    if (known > 0 && band(f, in.data(), truth.answer, answer, known)) return known;
    return std::max(known, measured_k(f, in, truth, answer));
}

/// Minimises a class's witness while it stays a violation of that class.
void minimise_class(const Family& f, const FamilyKernel& k, FailureClass& c, const Domain& domain) {
    const auto in_domain = witness_space(f, domain, c.witness);
    const auto same_class = [&](const Inputs& t) {
        try {
            const Truth truth = f.truth(t.data());
            const FamilyJudgement j = judge(f, k, t, truth);
            return j.violates && violation_class(f, k, t, truth, j) == c.signature;
        } catch (const ReferenceMismatch&) {
            return false;  // keep the finding about the kernel
        }
    };
    c.witness = simplify_floats(c.witness, in_domain, same_class);
    c.why = judge(f, k, c.witness, f.truth(c.witness.data())).why;
    c.minimised = within_grace();  // cut short by a signal: as found, or part way
}

}  // namespace

FamilyKernelReport kernel_report_for(const FamilyKernel& k) {
    FamilyKernelReport r;
    r.name = k.name;
    r.contract = k.contract;
    r.error_e = k.error_e;
    return r;
}

const FailureClass* tally_judgement(const Family& f, const FamilyKernel& k, FamilyKernelReport& r, const Inputs& in,
                                    const Truth& truth, const FamilyJudgement& j, uint64_t case_number) {
    MapCell& cell = r.map[{map_bin(largest_magnitude(in)), map_bin(input_feature(f, in))}];
    ++r.tried;
    ++cell.cases;
    const bool known_answer = j.got.answer >= 0 && j.got.answer < int(f.answers.size());
    if (j.answer_differs) {
        ++r.wrong_answers;
        ++cell.wrong_answers;
        if (!known_answer) {  // a failure or garbage: no band explains it
            cell.measured_k = std::numeric_limits<double>::infinity();
        } else {
            if (f.yes_no()) ++(j.got.answer == 1 ? r.false_hits : r.false_misses);
            r.in_band += j.in_band;
            cell.measured_k = widen_k(f, in, truth, j.got.answer, cell.measured_k);
        }
        r.measured_k = std::max(r.measured_k, cell.measured_k);
    } else if (j.cuts) {
        ++r.wrong_answers;
        ++cell.wrong_answers;
        r.in_band += j.in_band;
        cell.measured_k = std::max(cell.measured_k, j.error.cut_k);
        r.measured_k = std::max(r.measured_k, cell.measured_k);
    }
    if (!j.answer_differs && (j.error.e > r.measured_e || std::isnan(j.error.e)))
        r.measured_e = std::isnan(j.error.e) ? std::numeric_limits<double>::infinity() : j.error.e;
    if (!j.violates) return nullptr;
    ++r.violations;
    ++cell.violations;
    const std::string signature = violation_class(f, k, in, truth, j);
    auto c = std::find_if(r.classes.begin(), r.classes.end(), [&](const FailureClass& x) { return x.signature == signature; });
    const bool fresh = c == r.classes.end();
    if (fresh) {
        FailureClass first;
        first.signature = signature;
        first.witness = in;
        first.why = j.why;
        first.first_case = case_number;
        c = r.classes.insert(r.classes.end(), first);
    }
    ++c->count;
    if (j.cuts)
        c->measured_k = std::max(c->measured_k, j.error.cut_k);
    else if (j.answer_differs && known_answer)
        c->measured_k = std::max(c->measured_k, widen_k(f, in, truth, j.got.answer, c->measured_k));
    else if (j.answer_differs)
        c->measured_k = std::numeric_limits<double>::infinity();
    if (!fresh && better_witness(f, in, c->witness)) {
        c->witness = in;
        c->why = j.why;
    }
    return &*c;
}

void sort_classes(FamilyKernelReport& r) {
    std::stable_sort(r.classes.begin(), r.classes.end(),
                     [](const FailureClass& a, const FailureClass& b) { return a.count > b.count; });
}

FamilyCheckReport run_family_check(const Family& f, const std::vector<FamilyKernel>& kernels,
                                   const FamilyCheckOptions& options) {
    FamilyCheckReport report;
    report.family = f.name;
    for (const FamilyKernel& k : kernels) report.kernels.push_back(kernel_report_for(k));
    RandomSource source(options.seed);
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
    report.oracle = options.oracle;
    set_oracle(options.oracle);
    std::map<std::string_view, uint64_t> mix_counts;  // by the family's own names: no copies
    RandomSource sampler(options.seed ^ 0x5a5a5a5a5a5a5a5aull);  // apart from the cases' choices
    while (budget.more(report.cases) && !(options.stop_at_first && all_broken()) && !hung() && !interrupted()) {
        const Generated g = generate(f, source, options.gen_kind, options.domain);
        const Inputs& in = g.in;
        ++report.cases;
        report.adapted += g.adapted;
        ++mix_counts[g.kind];
        std::optional<FastTruth> fast;
        if (options.oracle == Oracle::fast && f.fast_truth) fast = f.fast_truth(in.data());
        if (fast) ++report.fast_cases;
        // The references, once per case at most: where the fast oracle cannot
        // decide, on a sample of what it decides, and wherever a kernel's
        // judgement needs them. They must agree with each other and with it.
        std::optional<Truth> slow;
        bool disagreement = false;
        const auto references = [&]() -> const Truth* {
            if (slow || disagreement) return slow ? &*slow : nullptr;
            ++report.reference_cases;
            std::string why;
            try {
                slow = f.truth(in.data());
                if (fast) why = oracle_disagreement(f, *fast, *slow);
            } catch (const ReferenceMismatch& e) {
                why = e.what();
            }
            if (why.empty()) return &*slow;
            disagreement = true;
            slow.reset();
            if (!report.reference_mismatches++) {
                report.mismatch = in;
                report.mismatch_message = why;
            }
            return nullptr;
        };
        if (fast && sampler.below(256) == 0) {
            ++report.sampled;
            references();
        }
        if (!fast) references();
        if (disagreement) continue;
        const Truth exact = slow ? *slow : Truth{fast->answer, {}, {}, {}};
        for (size_t i = 0; i < kernels.size() && !disagreement; ++i) {
            FamilyKernelReport& r = report.kernels[i];
            std::string failure;
            const Answer got = run_kernel(kernels[i], in, failure);
            std::optional<FamilyJudgement> quick;
            if (!failure.empty()) quick = failed(got, failure);
            else if (fast && !slow) quick = judge_fast_answer(f, kernels[i], in, got, *fast);
            if (!quick) {
                const Truth* t = references();
                if (!t) break;
                quick = judge_answer(f, kernels[i], in, got, *t);
            }
            const FamilyJudgement& j = *quick;
            const FailureClass* fc = tally_judgement(f, kernels[i], r, in, slow ? *slow : exact, j, report.cases);
            if (!fc) continue;
            if (fc->count == 1 && options.on_new_class) options.on_new_class(i, *fc);
            if (options.stop_at_hang && j.why.rfind("hang", 0) == 0) {
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
    report.interrupted = interrupted();
    for (const auto& [kind, n] : mix_counts) report.mix[std::string(kind)] = n;
    for (size_t i = 0; i < kernels.size(); ++i) {
        sort_classes(report.kernels[i]);
        auto& classes = report.kernels[i].classes;
        if (!options.minimize) continue;
        for (size_t c = 0; c < classes.size() && c < options.minimize_classes; ++c) {
            // A crash, hang or garbage answer is kept as found: every trial
            // would cost a worker or a timeout.
            const std::string& why = classes[c].why;
            if (why.rfind("crash", 0) == 0 || why.rfind("hang", 0) == 0 || why.rfind("answer ", 0) == 0) continue;
            minimise_class(f, kernels[i], classes[c], options.domain);
        }
    }
    return report;
}

// --- Case files ----------------------------------------------------------------

namespace {


std::string format_inputs(const Family& f, const Inputs& in) {
    std::ostringstream out;
    size_t at = 0;
    size_t width = 8;
    for (const InputKey& k : f.inputs) width = std::max(width, k.key.size() + 2);
    for (const InputKey& k : f.inputs) {
        out << k.key << std::string(width - k.key.size(), ' ');
        for (int i = 0; i < k.count; ++i) {
            out << (i ? (i % 3 == 0 ? "   " : " ") : "") << format_number(in[at++]);
        }
        out << "\n";
    }
    return out.str();
}

}  // namespace

std::string format_family_case(const Family& f, const Inputs& in, const Truth& truth, const std::string& origin) {
    std::ostringstream out;
    std::istringstream lines(origin);
    for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
    out << "family  " << f.name << "\n";
    if (precision() == Precision::double_) out << "precision  double\n";
    out << format_inputs(f, in);
    out << "expect  " << f.answers[size_t(truth.answer)] << "\n";
    if (f.answer_has_values[size_t(truth.answer)])
        for (size_t i = 0; i < f.values.size() && i < truth.values.size(); ++i)
            out << "expect." << f.values[i] << "  " << format_double(truth.values[i]) << "\n";
    return out.str();
}

std::string format_family_case(const Family& f, const Inputs& in, const std::string& origin) {
    try {
        return format_family_case(f, in, f.truth(in.data()), origin);
    } catch (const ReferenceMismatch& e) {
        return format_family_case(f, in, Truth{}, origin + "\n" + e.what() + "; expect below is a placeholder");
    }
}

std::string show_family_input(const Family& f, const Inputs& in) {
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

std::vector<std::string> expectation_problems(const FamilyCase& c, const Truth& truth) {
    const Family& f = *c.family;
    std::vector<std::string> problems;
    if (truth.answer != c.expect) {
        problems.push_back("expect says " + f.answers[size_t(c.expect)] + " but both references say " +
                           f.answers[size_t(truth.answer)]);
        return problems;
    }
    if (!f.answer_has_values[size_t(truth.answer)]) return problems;
    // Where the family allows several right values (the entry normal at an
    // edge or corner of a box), any of them is right: the stated values,
    // put in place of the references' ones, must be judged exact by the
    // family's own judge of a kernel's numbers.
    Answer stated{truth.answer, truth.values};
    bool differs = false;
    for (size_t i = 0; i < f.values.size(); ++i)
        if (const auto it = c.expect_values.find(f.values[i]); it != c.expect_values.end() && !c.expect_tolerance.count(f.values[i])) {
            differs = differs || !(it->second == truth.values[i]);
            stated.values[i] = it->second;
        }
    bool another_right_answer = false;
    if (differs && f.value_error) {
        const ValueError err = f.value_error(c.in.data(), truth, stated);
        another_right_answer = err.e == 0 && err.cut_k == 0;
    }
    for (size_t i = 0; i < f.values.size(); ++i) {
        const auto it = c.expect_values.find(f.values[i]);
        if (it == c.expect_values.end()) continue;
        const double want = it->second, got = truth.values[i];
        if (const auto tol = c.expect_tolerance.find(f.values[i]); tol != c.expect_tolerance.end()) {
            if (!(std::fabs(want - got) <= tol->second))
                problems.push_back("expect." + f.values[i] + " says " + format_double(want) + " +- " +
                                   format_double(tol->second) + " but the references say " + format_double(got));
        } else if (!(want == got || (std::isnan(want) && std::isnan(got)) || another_right_answer)) {
            problems.push_back("expect." + f.values[i] + " says " + format_double(want) + " but the references say " +
                               format_double(got));
        }
    }
    return problems;
}

}  // namespace isect::check
