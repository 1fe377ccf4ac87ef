// Judging: the exact truth of a case (the fast oracle first, the two
// references where it cannot decide or where a judgement needs them), each
// kernel's answer and numbers against it and its contract's band, and the
// failure class of a violation. One judge (CaseJudge) for check, fuzz,
// replay and the properties.
#pragma once

#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "check/model/family.hpp"

namespace isect::check {

/// How the truth is reached: the fast oracles first (the default), or the
/// references alone (isect check --oracle slow, to measure what the fast
/// path buys); the bands likewise, fast stages or rationals. The verdicts
/// are the same either way. Each judge is told which; nothing is process-wide.
enum class Oracle { fast, slow };

/// The smallest K whose band explains a wrong answer, on a fixed grid of K =
/// 2^(j/1024) from 2^-40 to 2^40 (a binary search over j): 0 when the input
/// decides nothing, +inf when no K does.
double measured_k(const Family& f, const Inputs& in, const Truth& truth, Oracle oracle = Oracle::fast);

/// What the band of one input is known to say: in band at every K >= in_at,
/// out of it at every K <= out_at (a band widens with K). A wrong answer's
/// band is asked at the contract's K, at its validity-map cell's widest K
/// and at its class's, and bisected for its own: each question answered by
/// an earlier one is not asked again.
struct BandMemo {
    double in_at = std::numeric_limits<double>::infinity();
    double out_at = 0;
};
double measured_k(const Family& f, const Inputs& in, const Truth& truth, Oracle oracle, BandMemo& memo);

/// A failure class: as far as isect can tell, one bug. The kernel and its
/// contract, what went wrong (the kind, and for an answer or an output
/// which: "answers back, exact front", "output t", axis-free), the family's
/// deciding test, the input's scale bucket.
struct ClassKey {
    std::string kernel, contract;
    FailureKind kind = FailureKind::garbage;
    std::string what, decided, scale;
    /// As case files keep it after "signature: ", and fuzz campaigns
    /// compare it: "kernel|contract|what|decided|scale".
    std::string str() const;
    /// For a person: "false hit (det), inputs 2^-10..2^10".
    std::string describe() const;
    /// The key str() wrote (its kind from `what` where that names one).
    static std::optional<ClassKey> parse(const std::string& signature);
    bool operator==(const ClassKey& o) const {
        return kernel == o.kernel && contract == o.contract && kind == o.kind && what == o.what &&
               decided == o.decided && scale == o.scale;
    }
    bool operator!=(const ClassKey& o) const { return !(*this == o); }
};

/// A kernel's result on one input, judged.
struct FamilyJudgement {
    Answer got;
    /// Set when the kernel did not answer: it crashed or hung (a
    /// KernelFailure), or answered none of the family's answers.
    std::optional<FailureKind> failure;
    bool answer_differs = false;
    bool in_band = false;   ///< the differing answer is within the declared (or K=1) band
    BandMemo band_memo;     ///< what asking the band for in_band learnt
    ValueError error;       ///< when the answers agree and carry values
    bool cuts = false;      ///< a construction cuts what it must contain (error.cut_k says how far)
    bool violates = false;
    std::string why;        ///< one line when violates
    /// The input is outside the kernel's own declared domain: not judged
    /// (FamilyKernel::domain).
    bool outside = false;

    /// Makes this the judgement of `answer` before anything is judged of
    /// it (as a new one, keeping its strings' room: a judge reuses one per
    /// kernel for every case).
    void reset(const Answer& answer) {
        got = answer;
        failure.reset();
        answer_differs = in_band = cuts = violates = outside = false;
        band_memo = BandMemo{};
        error.e = error.cut_k = 0;
        error.output = error.cut_output = {};
        error.detail.clear();
        error.undecided = false;
        why.clear();
    }
};

FamilyJudgement judge(const Family& f, const FamilyKernel& k, const Inputs& in, const Truth& truth,
                      Oracle oracle = Oracle::fast);




/// One case judged, by the one pipeline every command uses (check, fuzz,
/// replay): the fast exact oracle first; the two references where it
/// cannot decide, on a sampled case, wherever a kernel's judgement needs
/// them (every suspected violation, a number its enclosure cannot settle),
/// and on every case under Oracle::slow; the references compared with each
/// other and with the oracle, answers and enclosures. Two steps, so that a
/// fuzz campaign can look at the suspects before paying for the references.
class CaseJudge {
public:
    /// A judge for many cases of f (a run reuses one: its buffers stay).
    CaseJudge(const Family& f, const std::vector<FamilyKernel>& kernels, Oracle oracle);
    /// One case: the judge, and start(in, sampled).
    CaseJudge(const Family& f, const std::vector<FamilyKernel>& kernels, const Inputs& in, Oracle oracle, bool sampled)
        : CaseJudge(f, kernels, oracle) {
        start(in, sampled);
    }
    /// It keeps references to the kernels and the input: no temporaries.
    CaseJudge(const Family&, std::vector<FamilyKernel>&&, Oracle) = delete;
    CaseJudge(const Family&, std::vector<FamilyKernel>&&, const Inputs&, Oracle, bool) = delete;
    CaseJudge(const Family&, const std::vector<FamilyKernel>&, Inputs&&, Oracle, bool) = delete;
    /// Runs every kernel once on in (kept by reference until the next
    /// start) and judges what the fast oracle can. With `given`, kernel i's
    /// outcome is *given[i] where that is not null (a batch already ran
    /// it), else it is called.
    void start(const Inputs& in, bool sampled, const Outcome* const* given = nullptr);
    void start(Inputs&&, bool, const Outcome* const* = nullptr) = delete;
    /// Whether finish() will consult the references.
    bool needs_references() const { return needs_references_; }
    /// The kernels the fast judgement could not clear (suspects), by index.
    const std::vector<size_t>& suspects() const { return suspects_; }
    /// The fast oracle's truth, where it decided.
    const std::optional<FastTruth>& fast() const { return fast_; }
    /// A kernel's answer, as it gave it.
    const Answer& answer(size_t kernel) const { return got_[kernel]; }
    /// Whether the case is outside a kernel's own declared domain (it was
    /// not called).
    bool outside(size_t kernel) const { return settled_[kernel] && judgements_[kernel].outside; }
    /// A suspect's violation as the fast oracle decides it, without the
    /// references: a wrong answer outside the band (the oracle's answer is
    /// exact, the band decided exactly), or numbers off that break the
    /// bound at both ends of every enclosure, in the same class (`numbers`:
    /// its error e is the larger end's, at least the exact one's).
    struct FastViolation {
        FamilyJudgement judgement;
        ClassKey key;
        bool numbers = false;
    };
    /// Kernel i's, when it is a suspect the fast oracle decided; null for a
    /// kernel judged otherwise (a crash, a hang, an enclosure that cannot
    /// decide, no fast truth).
    const FastViolation* fast_violation(size_t kernel) const {
        return fast_violation_[kernel] ? &*fast_violation_[kernel] : nullptr;
    }
    /// Whether every suspect has a fast_violation, so that trust_fast can
    /// judge the case without the references.
    bool fast_decides_all() const;
    /// Judges the case on the fast oracle's truth alone: finish() consults
    /// no references (unless the case is sampled for the cross-check). For
    /// a run that already holds a confirmed witness of each suspect's class:
    /// another member costs what a case that holds costs. Requires
    /// fast_decides_all().
    void trust_fast();
    /// Consults the references where needed and judges the rest.
    void finish();
    /// Judges the case on the family's first reference alone
    /// (Family::first_reference) where both would be consulted, checked
    /// against the fast oracle's answer and enclosures: for a later member
    /// of a class the two confirmed, whose numbers the enclosures cannot
    /// class. False, judging nothing, where it cannot (no first reference,
    /// no fast truth, a sampled case, or the first reference disagreeing
    /// with the oracle): then finish() judges it.
    bool finish_on_first_reference();

    /// After finish(): the exact ones disagreed (the references with each
    /// other, or with the fast oracle): no kernel is judged on the case.
    const std::string& disagreement() const { return disagreement_; }
    bool references_judged() const { return references_judged_; }
    /// The truth the judgements stand on: the references' where they
    /// judged, else the fast oracle's answer.
    const Truth& truth() const { return truth_; }
    const std::vector<FamilyJudgement>& judgements() const { return judgements_; }

private:
    void judge_all();  ///< every kernel's judgement on truth_
    const Family& f_;
    const std::vector<FamilyKernel>& kernels_;
    const Inputs* in_ = nullptr;
    Oracle oracle_;
    std::optional<FastTruth> fast_;
    std::vector<Answer> got_;
    /// Per kernel: its judgement is in judgements_ already, decided without
    /// the references (outside its domain, a failure, an answer the fast
    /// oracle clears); else it is a suspect, judged by judge_all. Kept
    /// between cases, as judgements_ is: a case allocates nothing.
    std::vector<unsigned char> settled_;
    std::vector<std::optional<FastViolation>> fast_violation_;
    std::vector<size_t> suspects_;
    bool sampled_ = false, needs_references_ = false, references_judged_ = false;
    std::string disagreement_;
    Truth truth_;
    std::vector<FamilyJudgement> judgements_;
};


/// Whether the input is in the band of K: moving its numbers by K u times
/// the scales of their roles could change the exact answer (exact_answer),
/// so any answer is allowed there. The fast band where it decides, the
/// rational one where it does not (the same verdict either way).
bool band(const Family& f, const double* in, int exact_answer, double k, Oracle oracle = Oracle::fast);
bool band(const Family& f, const double* in, int exact_answer, double k, Oracle oracle, BandMemo& memo);

/// The scale bucket of an input, from its largest magnitude M and its
/// smallest nonzero magnitude m: "mixed scales" when M / m > 2^40, else
/// "tiny" when m < 2^-20, "huge" when M > 2^20, else "ordinary". Coarse on
/// purpose: a bug is one class at a scale; the validity map has the detail.
std::string scale_bucket(const Family& f, const Inputs& in);

/// The failure class of a violation: what went wrong (false hit, false
/// miss, "answers X, exact Y", "output NAME", "non-finite NAME", "cuts
/// NAME", crash, hang, garbage; NAME without its axis), the family's
/// deciding test where it has one, and the scale bucket. Violations of one
/// class are one bug, as far as isect can tell.
ClassKey violation_class(const Family& f, const FamilyKernel& k, const Inputs& in, const Truth& truth,
                         const FamilyJudgement& j);

/// Where a fast oracle's truth disagrees with the references': a different
/// answer, or a number of theirs outside its enclosure (by more than the one
/// ulp their double carries). An answer the family holds right as well
/// (Family::also_right) agrees. Empty when they agree.
std::string oracle_disagreement(const Family& f, const double* in, const FastTruth& fast, const Truth& truth);

/// What a fuzzer or checker found.
struct Finding {
    std::string kernel;     ///< a kernel's name, or "references"
    ClassKey key;           ///< its failure class (violation_class): for de-duplication
    std::string message;    ///< one line for a person
    /// The references' truth of the input, where they judged it (a kernel's
    /// violation): carried to the case file, never judged again.
    std::optional<Truth> truth;
    /// Every kernel's judgement of the input on that truth (with truth):
    /// a campaign counts the finding from them, without judging it again.
    std::vector<FamilyJudgement> judgements;
    /// Whose finding it is: the kernel it breaks (its index in the kernels
    /// judged), or the relation (one of those judged); neither for the
    /// references' disagreement.
    std::optional<size_t> kernel_index = std::nullopt;
    const struct Relation* relation = nullptr;
};

/// The fuzz oracle: one input judged by CaseJudge (the references on every
/// suspect, on every input when cross_check is set, and wherever the fast
/// oracle cannot decide). Returns the first broken contract, or a
/// disagreement among the exact ones. Outside f's domain the kernels only
/// run (they must not crash). With `seen`, a campaign that keeps one input
/// per class: a suspect whose provisional class (from the fast oracle,
/// without the references) is in it already is not judged again, but for
/// one in 64. With `relations`, an input on which every contract holds is
/// judged for them too (the first broken one is the finding).
std::optional<Finding> fuzz_one(const Family& f, const std::vector<FamilyKernel>& kernels, const Inputs& in,
                                bool cross_check, std::set<std::string>* seen = nullptr,
                                const std::vector<struct Relation>* relations = nullptr);

}  // namespace isect::check
