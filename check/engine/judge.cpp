#include "check/engine/judge.hpp"

#include "check/engine/relation.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>


namespace isect::check {

double measured_k(const Family& f, const Inputs& in, const Truth& truth, Oracle oracle) {
    BandMemo memo;
    return measured_k(f, in, truth, oracle, memo);
}

double measured_k(const Family& f, const Inputs& in, const Truth& truth, Oracle oracle, BandMemo& memo) {
    if (band(f, in.data(), truth.answer, 0, oracle, memo)) return 0;
    // The smallest K = 2^(j / 1024) whose band explains the answer, j an
    // integer in [-40 * 1024, 40 * 1024]: a binary search over a fixed
    // grid (steps of 0.07%), so the result is a function of the case alone
    // (what the memo knows answers some of its questions, never changes them).
    constexpr int kSteps = 1024, kEnd = 40 * kSteps;
    const auto k_of = [](int j) { return std::exp2(double(j) / kSteps); };
    const auto explains = [&](int j) { return band(f, in.data(), truth.answer, k_of(j), oracle, memo); };
    if (!explains(kEnd)) return std::numeric_limits<double>::infinity();
    if (explains(-kEnd)) return k_of(-kEnd);
    int lo = -kEnd, hi = kEnd;  // the band fails at lo, holds at hi
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        (explains(mid) ? hi : lo) = mid;
    }
    return k_of(hi);
}

bool band(const Family& f, const double* in, int exact_answer, double k, Oracle oracle) {
    if (!(k > 0)) return false;
    // Each number moves by K u times the scale of its role (on the stack:
    // the band is asked of every differing answer, and dozens of times to
    // measure K). GMP cannot hold inf: band_deltas caps each at DBL_MAX.
    double delta[64];
    if (f.size() > std::size(delta)) throw std::logic_error(f.name + ": more than 64 input numbers");
    band_deltas(f, in, k * unit_roundoff(), delta);
    if (oracle == Oracle::fast && f.band.fast)
        if (const std::optional<bool> fast = f.band.fast(in, exact_answer, delta)) return *fast;
    return f.band.exact(in, exact_answer, delta);
}

bool band(const Family& f, const double* in, int exact_answer, double k, Oracle oracle, BandMemo& memo) {
    if (!(k > 0)) return false;
    if (k >= memo.in_at) return true;
    if (k <= memo.out_at) return false;
    const bool in_band = band(f, in, exact_answer, k, oracle);
    if (in_band) memo.in_at = k;
    else memo.out_at = k;
    return in_band;
}

namespace {

/// The error of a kernel's numbers: against the exact values, or, for a
/// truth from the fast oracle, against both ends of each enclosure (a
/// number's distance from a point of [lo, hi] is greatest at an end), with
/// `undecided` where that cannot settle it.
ValueError value_judgement(const Family& f, const double* in, const Truth& truth, const Answer& got) {
    Answer checked = got;
    const uint64_t exact_here = got.unprovided;  // outputs the kernel did not compute count as exact
    if (exact_here)
        for (size_t i = 0; i < checked.values.size() && i < 64; ++i)
            if (exact_here >> i & 1) checked.values[i] = truth.values[i];
    if (truth.lo.empty()) return f.value_error(in, truth, checked);
    Truth lo = truth, hi = truth;
    lo.values = truth.lo;
    hi.values = truth.hi;
    for (size_t i = 0; i < checked.values.size() && i < 64; ++i)
        if (exact_here >> i & 1) checked.values[i] = truth.lo[i];
    const ValueError a = f.value_error(in, lo, checked);
    if (exact_here)
        for (size_t i = 0; i < checked.values.size() && i < 64; ++i)
            if (exact_here >> i & 1) checked.values[i] = truth.hi[i];
    ValueError b = f.value_error(in, hi, checked);
    b.undecided = b.undecided || a.undecided || a.cut_k != b.cut_k;
    if (a.e > b.e || std::isnan(a.e)) {
        b.e = a.e;
        b.output = a.output;
        b.detail = a.detail;
    }
    return b;
}

/// Whether the numbers judged in j.error break the kernel's bound E; if so
/// j says so.
bool numbers_break(const Family& f, const FamilyKernel& k, const Truth& truth, FamilyJudgement& j) {
    if (j.error.e <= k.error_e) return false;
    j.violates = true;
    std::ostringstream why;
    // Non-finite numbers where the exact ones are finite: all named at once.
    std::string bad;
    for (size_t i = 0; i < f.outputs.size() && i < j.got.values.size() && i < truth.values.size(); ++i)
        if (!(j.got.unprovided >> i & 1) && !std::isfinite(j.got.values[i]) && std::isfinite(truth.values[i]))
            bad += (bad.empty() ? "" : ", ") + f.outputs[i] + " = " + format_double(j.got.values[i]);
    if (!bad.empty()) {
        j.why = "non-finite numbers where the exact ones are finite: " + bad;
        return true;
    }
    why << j.error.output << " is off by " << format_k(j.error.e) << " x " << unit_name() << " S, allowed " << format_k(k.error_e);
    if (!j.error.detail.empty()) why << " (" << j.error.detail << ")";
    j.why = why.str();
    return true;
}

/// The judgement of an answer the kernel gave, against a truth.
FamilyJudgement judge_answer(const Family& f, const FamilyKernel& k, const Inputs& in, const Answer& got,
                             const Truth& truth, Oracle oracle) {
    FamilyJudgement j;
    j.got = got;
    // The band a difference is measured against: a tolerant or
    // conservative=K contract's, or K = 1 to say how near an exact or plain
    // conservative kernel's difference was.
    const double band_k = k.contract.kind == Contract::Kind::tolerant || k.contract.has_band() ? k.contract.k : 1.0;
    if (j.got.answer < 0 || j.got.answer >= int(f.answers.size())) {
        j.violates = true;
        j.answer_differs = true;
        j.failure = FailureKind::garbage;
        std::string answers;
        for (const std::string& a : f.answers) answers += (answers.empty() ? "" : ", ") + a;
        j.why = "answer " + std::to_string(j.got.returned.value_or(j.got.answer)) + " is not one of " + f.name + "'s (" +
                answers + (j.got.returned ? "; isect/plugin.h says how they are returned" : "") + ")";
        return j;
    }
    if (j.got.answer != truth.answer && !(f.also_right && f.also_right(in.data(), j.got.answer))) {
        j.answer_differs = true;
        j.in_band = band(f, in.data(), truth.answer, band_k, oracle, j.band_memo);
        switch (k.contract.kind) {
            case Contract::Kind::exact: j.violates = true; break;
            case Contract::Kind::conservative:
                j.violates = j.got.answer != f.safe_answer && !(j.in_band && k.contract.has_band());
                break;
            case Contract::Kind::tolerant: j.violates = !(j.in_band && k.contract.has_band()); break;
        }
        // A violation is never called "in band": under exact every
        // difference breaks, under conservative every false miss does,
        // however close the input is to flipping (under conservative=K,
        // every false miss outside the band).
        if (j.violates)
            j.why = "answers " + f.answers[size_t(j.got.answer)] + ", exact is " + f.answers[size_t(truth.answer)] +
                    (k.contract.kind == Contract::Kind::exact ? ": an exact kernel never differs"
                     : k.contract.kind == Contract::Kind::conservative
                         ? (k.contract.has_band() ? " outside the band: a conservative kernel answers " + f.answers[size_t(j.got.answer)] +
                                                   " only where the exact answer is within its band of flipping"
                                             : ": a conservative kernel never answers " + f.answers[size_t(j.got.answer)] +
                                                   " where the exact answer is " + f.answers[size_t(truth.answer)])
                         : " outside the band");
        // Where both answers carry the same numbers (a closest pair, a
        // closest point, a normal), a difference inside the band does not
        // excuse them: segments that cross, called apart, must still report
        // a distance near 0.
        if (j.violates || !f.answer_has_values[size_t(truth.answer)] || !f.answer_has_values[size_t(j.got.answer)]) return j;
        if (j.got.values.size() != f.outputs.size()) return j;  // judged below when the answers agree
        j.error = value_judgement(f, in.data(), truth, j.got);
        if (!j.error.undecided && numbers_break(f, k, truth, j)) j.failure = FailureKind::output;
        return j;
    }
    if (!f.answer_has_values[size_t(truth.answer)]) return j;
    if (j.got.values.size() != f.outputs.size()) {
        j.violates = true;
        j.why = "returned " + std::to_string(j.got.values.size()) + " numbers, the family has " +
                std::to_string(f.outputs.size());
        return j;
    }
    j.error = value_judgement(f, in.data(), truth, j.got);
    if (j.error.undecided) return j;
    if (j.error.cut_k > 0) {
        // Containment is the answer of a construction: cutting is a wrong
        // answer (a miss of part of the image), allowed only inside the
        // band of a tolerant=K or conservative=K contract.
        j.cuts = true;
        j.in_band = j.error.cut_k <= band_k;
        if (!(k.contract.has_band() && j.in_band)) {
            j.violates = true;
            j.why = std::string(j.error.cut_output) + " cuts the exact image" +
                    (k.contract.has_band()
                         ? " by more than the band: K = " + format_k(j.error.cut_k) + " needed"
                         : ": containment is broken (K = " + format_k(j.error.cut_k) + " would explain it)");
            return j;
        }
    }
    numbers_break(f, k, truth, j);
    return j;
}

/// Runs a kernel; a crash or a hang is its answer -1, why, and which.
Answer run_kernel(const FamilyKernel& k, const Inputs& in, std::string& failure, FailureKind& kind) {
    if (k.precision != precision())
        throw std::invalid_argument("kernel " + k.name + " takes " + precision_name(k.precision) + " inputs; this run's are " +
                                    precision_name(precision()) + "s");
    try {
        return k.fn(in.data());
    } catch (const KernelFailure& e) {
        failure = e.what();
        kind = e.kind;
        return Answer{-1, {}, 0};
    }
}

/// Whether the input is outside a built-in kernel's declared domain.
bool outside_kernel_domain(const Family& f, const FamilyKernel& k, const Inputs& in) {
    return k.domain && !k.domain->covers(f, in.data());
}

FamilyJudgement failed(const Answer& got, const std::string& why, FailureKind kind) {
    FamilyJudgement j;
    j.got = got;
    j.failure = kind;
    j.violates = true;
    j.answer_differs = true;
    j.why = why;
    return j;
}

/// The judgement of a kernel's answer on the fast oracle's truth, into j,
/// where it settles it: false where the references must (the numbers'
/// enclosures cannot decide, a cut). A violation is given (for the caller
/// to hold as a suspect) only where no exact number could change it: a
/// wrong answer, or numbers off, each judged against its whole enclosure.
/// The answer agreeing and carrying no numbers, as most do, is settled
/// without building a truth.
bool judge_fast_answer(const Family& f, const FamilyKernel& k, const Inputs& in, const Answer& got,
                       const FastTruth& fast, FamilyJudgement& j) {
    const bool has_values = f.answer_has_values[size_t(fast.answer)];
    if (got.answer == fast.answer && !has_values) {
        j.reset(got);
        return true;
    }
    const bool enclosed = !has_values || fast.lo.size() == f.outputs.size();
    if (got.answer == fast.answer && !enclosed) return false;
    Truth t{fast.answer, fast.lo, fast.lo, fast.hi};
    if (!enclosed) t.lo.clear();
    FamilyJudgement judged = judge_answer(f, k, in, got, t, Oracle::fast);
    if (judged.error.undecided || judged.cuts || (judged.violates && judged.failure)) return false;
    j = std::move(judged);
    return true;
}

/// A fast judgement's violation as the references would class it, where no
/// exact number could change that: a wrong answer (its judgement and class
/// read the answers alone), or a non-finite number where every enclosure is
/// finite and short of the largest double (whichever exact numbers they
/// hold, the class is "non-finite numbers" and the error infinite). Numbers
/// merely off are left to the references: an enclosure's ends may class
/// them otherwise than the exact numbers do (in a double run, by the ulp
/// the references round to, as large as the bound itself).
std::optional<CaseJudge::FastViolation> fast_violation_of(const Family& f, const FamilyKernel& k, const Inputs& in,
                                                          const FastTruth& fast, const FamilyJudgement& j) {
    const Truth answer_only{fast.answer, {}, {}, {}};
    if (j.answer_differs) return CaseJudge::FastViolation{j, violation_class(f, k, in, answer_only, j), false};
    if (fast.lo.size() != f.outputs.size() || j.got.values.size() != f.outputs.size()) return std::nullopt;
    bool non_finite = false;
    for (size_t i = 0; i < f.outputs.size(); ++i) {
        if (j.got.unprovided >> i & 1) continue;
        if (!(std::fabs(fast.lo[i]) < DBL_MAX && std::fabs(fast.hi[i]) < DBL_MAX)) return std::nullopt;
        non_finite = non_finite || !std::isfinite(j.got.values[i]);
    }
    if (!non_finite) return std::nullopt;
    const Truth lo{fast.answer, fast.lo, {}, {}};
    return CaseJudge::FastViolation{j, violation_class(f, k, in, lo, j), true};
}
}  // namespace

FamilyJudgement judge(const Family& f, const FamilyKernel& k, const Inputs& in, const Truth& truth, Oracle oracle) {
    if (outside_kernel_domain(f, k, in)) {
        FamilyJudgement skipped;
        skipped.outside = true;
        return skipped;
    }
    std::string failure;
    FailureKind kind = FailureKind::crash;
    const Answer got = run_kernel(k, in, failure, kind);
    if (!failure.empty()) return failed(got, failure, kind);
    return judge_answer(f, k, in, got, truth, oracle);
}


CaseJudge::CaseJudge(const Family& f, const std::vector<FamilyKernel>& kernels, Oracle oracle)
    : f_(f), kernels_(kernels), oracle_(oracle) {
    got_.reserve(kernels.size());
    settled_.reserve(kernels.size());
    judgements_.reserve(kernels.size());
}

void CaseJudge::start(const Inputs& in, bool sampled, const Outcome* const* given) {
    in_ = &in;
    fast_.reset();
    suspects_.clear();
    disagreement_.clear();
    references_judged_ = false;
    truth_.answer = 0;
    truth_.values.clear();
    truth_.lo.clear();
    truth_.hi.clear();
    if (oracle_ == Oracle::fast && f_.fast_truth) fast_ = f_.fast_truth(in.data());
    sampled_ = sampled;
    needs_references_ = !fast_ || sampled;
    const size_t n = kernels_.size();
    got_.resize(n);
    judgements_.resize(n);
    settled_.assign(n, 0);
    if (fast_violation_.size() != n) fast_violation_.resize(n);
    for (size_t i = 0; i < n; ++i) {
        fast_violation_[i].reset();
        FamilyJudgement& j = judgements_[i];
        if (outside_kernel_domain(f_, kernels_[i], in)) {
            got_[i] = Answer{};
            j.reset(got_[i]);
            j.outside = true;
            settled_[i] = 1;
            continue;
        }
        std::string failure;
        FailureKind kind = FailureKind::crash;
        if (given && given[i]) {
            got_[i] = given[i]->answer;
            if (given[i]->failure) {
                failure = given[i]->why;
                kind = *given[i]->failure;
            }
        } else {
            got_[i] = run_kernel(kernels_[i], in, failure, kind);
        }
        if (!failure.empty()) {
            j = failed(got_[i], failure, kind);
            settled_[i] = 1;  // decided as it happened, no suspect
            continue;
        }
        if (fast_ && judge_fast_answer(f_, kernels_[i], in, got_[i], *fast_, j)) {
            if (!j.violates) {
                settled_[i] = 1;
                continue;
            }
            fast_violation_[i] = fast_violation_of(f_, kernels_[i], in, *fast_, j);
        }
        // A violation counts only once the references confirm it (a
        // crash or a hang is decided as it happens).
        suspects_.push_back(i);
        needs_references_ = true;
    }
}

bool CaseJudge::fast_decides_all() const {
    if (!fast_) return false;
    for (size_t i : suspects_)
        if (!fast_violation_[i]) return false;
    return true;
}

void CaseJudge::trust_fast() {
    if (!fast_decides_all()) throw std::logic_error("trust_fast: a suspect the fast oracle did not decide");
    needs_references_ = sampled_;
}

bool CaseJudge::finish_on_first_reference() {
    if (!needs_references_ || sampled_ || !fast_ || !f_.first_reference) return false;
    Truth first = f_.first_reference(in_->data());
    if (!oracle_disagreement(f_, in_->data(), *fast_, first).empty()) return false;
    references_judged_ = true;
    disagreement_.clear();
    truth_ = std::move(first);
    judge_all();
    return true;
}

void CaseJudge::finish() {
    if (needs_references_) {
        references_judged_ = true;
        try {
            truth_ = f_.truth(in_->data());
            if (fast_) disagreement_ = oracle_disagreement(f_, in_->data(), *fast_, truth_);
        } catch (const ReferenceMismatch& e) {
            disagreement_ = e.what();
        }
        if (!disagreement_.empty()) return;
    } else {
        truth_.answer = fast_->answer;  // start() emptied its numbers
    }
    judge_all();
}

void CaseJudge::judge_all() {
    // A settled judgement is in place already (a case is judged once:
    // finish or finish_on_first_reference).
    for (size_t i = 0; i < kernels_.size(); ++i) {
        if (settled_[i]) continue;
        // Moved: only its key is read once the case is judged.
        if (fast_violation_[i] && !references_judged_) judgements_[i] = std::move(fast_violation_[i]->judgement);
        else judgements_[i] = judge_answer(f_, kernels_[i], *in_, got_[i], truth_, oracle_);
    }
}

std::string scale_bucket(const Family& f, const Inputs& in) {
    double big = 0, small = INFINITY;
    size_t at = 0;
    for (const InputKey& k : f.inputs) {
        for (int i = 0; i < k.count; ++i, ++at) {
            const double x = in[at];
            if (k.role == Role::parameter || !std::isfinite(x) || x == 0) continue;  // tmax is no scale
            big = std::max(big, std::fabs(x));
            small = std::min(small, std::fabs(x));
        }
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

std::string ClassKey::str() const { return kernel + "|" + contract + "|" + what + "|" + decided + "|" + scale; }

std::string ClassKey::describe() const {
    std::string out = what;
    if (!decided.empty()) out += " (" + decided + ")";
    if (!scale.empty()) out += ", inputs " + scale;
    return out;
}

std::optional<ClassKey> ClassKey::parse(const std::string& signature) {
    std::string parts[5];
    size_t at = 0;
    for (int i = 0; i < 5; ++i) {
        const size_t bar = i < 4 ? signature.find('|', at) : signature.size();
        if (bar == std::string::npos) return std::nullopt;
        parts[i] = signature.substr(at, bar - at);
        at = bar + 1;
    }
    ClassKey k;
    k.kernel = parts[0];
    k.contract = parts[1];
    k.what = parts[2];
    k.decided = parts[3];
    k.scale = parts[4];
    // A relation's class names the relation where a contract's names the contract.
    k.kind = failure_kind_named(k.what).value_or(Contract::parse(k.contract) ? FailureKind::output : FailureKind::relation);
    return k;
}

namespace {

/// Whether the answer carries a non-finite number where the exact one is
/// finite.
bool non_finite_numbers(const Family& f, const FamilyJudgement& j, const Truth& truth) {
    for (size_t i = 0; i < f.outputs.size() && i < j.got.values.size() && i < truth.values.size(); ++i)
        if (!(j.got.unprovided >> i & 1) && !std::isfinite(j.got.values[i]) && std::isfinite(truth.values[i])) return true;
    return false;
}

/// "-0 in dir" when the input has a negative zero in a direction, normal or
/// displacement and the kernel, given +0 there instead (the same exact
/// input), answers right: the sign of a zero decided its answer. Empty
/// otherwise.
std::string negative_zero_cause(const Family& f, const FamilyKernel& k, const Inputs& in, const Truth& truth) {
    size_t at = 0;
    for (const InputKey& key : f.inputs) {
        const size_t n = size_t(key.count);
        if (key.role == Role::direction || key.role == Role::normal || key.role == Role::vector) {
            bool any = false;
            Inputs plus = in;
            for (size_t i = at; i < at + n; ++i)
                if (in[i] == 0 && std::signbit(in[i])) {
                    plus[i] = 0.0;
                    any = true;
                }
            if (any) {
                try {
                    if (k.fn(plus.data()).answer == truth.answer) return "-0 in " + key.key + ": with +0 it answers right";
                } catch (const KernelFailure&) {
                }
            }
        }
        at += n;
    }
    return "";
}

}  // namespace

ClassKey violation_class(const Family& f, const FamilyKernel& k, const Inputs& in, const Truth& truth,
                         const FamilyJudgement& j) {
    ClassKey c;
    c.kernel = k.name;
    c.contract = k.contract.str();
    c.scale = scale_bucket(f, in);
    if (j.failure == FailureKind::output) {  // numbers off where the answer differs inside the band
        c.kind = FailureKind::output;
        c.what = "output " + without_axis(j.error.output) + " (answering " + f.answers[size_t(j.got.answer)] + ")";
    } else if (j.failure) {
        c.kind = *j.failure;
        c.what = failure_kind_name(c.kind);
    } else if (j.answer_differs) {
        c.kind = !f.yes_no() ? FailureKind::wrong_answer : j.got.answer == 1 ? FailureKind::false_hit : FailureKind::false_miss;
        c.what = f.yes_no() ? failure_kind_name(c.kind)
                            : "answers " + f.answers[size_t(j.got.answer)] + ", exact " + f.answers[size_t(truth.answer)];
        // A negative zero that decides: with +0 in its place the kernel answers right.
        c.decided = negative_zero_cause(f, k, in, truth);
        if (c.decided.empty() && f.deciding) c.decided = f.deciding(in.data(), truth, j.got.answer);
    } else if (j.cuts) {
        c.kind = FailureKind::cuts;
        c.what = "cuts " + without_axis(j.error.cut_output);
    } else if (non_finite_numbers(f, j, truth)) {
        // One cause, one class: every non-finite number of the answer
        // (t = -inf, u = v = NaN where det = 0) together.
        c.kind = FailureKind::non_finite;
        c.what = "non-finite numbers";
    } else {
        c.kind = FailureKind::output;
        c.what = "output " + without_axis(j.error.output);
    }
    return c;
}

std::string oracle_disagreement(const Family& f, const double* in, const FastTruth& fast, const Truth& truth) {
    if (fast.answer != truth.answer && !(f.also_right && f.also_right(in, fast.answer)))
        return "the fast oracle says " + f.answers[size_t(fast.answer)] + ", both references say " +
               f.answers[size_t(truth.answer)];
    if (!f.answer_has_values[size_t(truth.answer)] || fast.lo.size() != truth.values.size()) return {};
    for (size_t i = 0; i < truth.values.size(); ++i) {
        const double v = truth.values[i], lo = fast.lo[i], hi = fast.hi[i];
        const bool nan = std::isnan(v) || std::isnan(lo) || std::isnan(hi);
        if (nan ? !(std::isnan(v) && std::isnan(lo) && std::isnan(hi))
                : !(std::nextafter(lo, -INFINITY) <= v && v <= std::nextafter(hi, INFINITY)))
            return "the fast oracle encloses " + f.outputs[i] + " in [" + format_double(lo) + ", " + format_double(hi) +
                   "], the references say " + format_double(v);
    }
    return {};
}

// --- The fuzz oracle ------------------------------------------------------------

namespace {

uint64_t skipped_ = 0;  ///< suspects of a known provisional class, for the one-in-64 sample

/// The class of a disagreement among the exact ones.
ClassKey references_key(const std::string& what) {
    ClassKey key;
    key.kernel = "references";
    key.what = what;
    return key;
}

/// The class a suspected violation would have, from the fast oracle's
/// answer (the references are not asked): which kernel, what it answered
/// against what, the family's deciding test, the scale. Empty when the
/// oracle did not decide.
std::string provisional_class(const Family& f, const std::vector<FamilyKernel>& kernels, const Inputs& in,
                              const CaseJudge& judged) {
    if (!judged.fast()) return "";
    const FastTruth& fast = *judged.fast();
    std::string key;
    for (size_t i : judged.suspects()) {
        const Answer& got = judged.answer(i);
        key += kernels[i].name + "|" + std::to_string(got.answer) + "|" + std::to_string(fast.answer) + "|";
        if (got.answer != fast.answer && f.deciding && got.answer >= 0 && got.answer < int(f.answers.size()))
            key += f.deciding(in.data(), Truth{fast.answer, fast.lo, fast.lo, fast.hi}, got.answer);
        key += "|" + scale_bucket(f, in) + ";";
    }
    return key;
}

}  // namespace

std::optional<Finding> fuzz_one(const Family& f, const std::vector<FamilyKernel>& kernels, const Inputs& in,
                                bool cross_check, std::set<std::string>* seen, const std::vector<Relation>* relations) {
    if (!f.in_domain(in.data(), nullptr)) {
        // No exact answer: the kernels must only return (sanitizers watch).
        for (const FamilyKernel& k : kernels) {
            try {
                volatile int sink = k.fn(in.data()).answer;
                (void)sink;
            } catch (const KernelFailure& e) {
                ClassKey key;
                key.kernel = k.name;
                key.contract = k.contract.str();
                key.kind = e.kind;
                key.what = failure_kind_name(e.kind);
                key.scale = "outside the family's domain";
                return Finding{k.name, key, e.what(), std::nullopt, {}, size_t(&k - kernels.data()), nullptr};
            }
        }
        return std::nullopt;
    }
    // Judged as isect check judges a case (CaseJudge): the fast oracle
    // first, the references on every suspect, on every input when
    // cross_check is set, and where the oracle cannot decide.
    // One judge per family and kernel list, kept (a target judges a
    // million inputs a second; its buffers stay).
    thread_local const Family* judge_family = nullptr;
    thread_local const std::vector<FamilyKernel>* judge_kernels = nullptr;
    thread_local std::unique_ptr<CaseJudge> kept;
    if (!kept || judge_family != &f || judge_kernels != &kernels) {
        kept = std::make_unique<CaseJudge>(f, kernels, Oracle::fast);
        judge_family = &f;
        judge_kernels = &kernels;
    }
    CaseJudge& judged = *kept;
    judged.start(in, cross_check);
    if (judged.needs_references() && seen && judged.fast() && !cross_check) {
        // A campaign keeps one input per class: a suspect of a class
        // already sent to the references is not sent again, but for one in
        // 64 (a provisional class may hide two real ones).
        const std::string key = provisional_class(f, kernels, in, judged);
        if (!key.empty() && !seen->insert(key).second && ++skipped_ % 64 != 0) return std::nullopt;
    }
    judged.finish();
    if (!judged.disagreement().empty()) return Finding{"references", references_key("disagree"), judged.disagreement(), std::nullopt, {}};
    for (size_t i = 0; i < kernels.size(); ++i) {
        const FamilyJudgement& j = judged.judgements()[i];
        if (!j.violates) continue;
        Finding found{kernels[i].name, violation_class(f, kernels[i], in, judged.truth(), j),
                      "kernel " + kernels[i].name + " (" + kernels[i].contract.str() + "): " + j.why, std::nullopt, {}, i, nullptr};
        if (judged.references_judged()) {
            found.truth = judged.truth();
            found.judgements = judged.judgements();
        }
        return found;
    }
    if (relations)
        for (const Relation& rel : *relations) {
            if (judged.outside(rel.a) || !breaks(f, rel, kernels, in, judged)) continue;
            const std::optional<RelationBreak> b = judge_relation(f, rel, kernels, in);
            if (!b) continue;
            return Finding{b->key.kernel, b->key, "kernel " + b->key.kernel + " breaks the relation " + rel.name() + ": " + b->why,
                           b->truth, {}, std::nullopt, &rel};
        }
    return std::nullopt;
}

}  // namespace isect::check
