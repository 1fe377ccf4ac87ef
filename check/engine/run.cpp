#include "isect/check/engine/run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "isect/check/engine/budget.hpp"
#include "isect/check/model/generate.hpp"
#include "isect/check/engine/symmetry.hpp"
#include "isect/check/engine/witness.hpp"
#include "isect/check/io/interrupt.hpp"

namespace isect::check {

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
double widen_k(const Family& f, const Inputs& in, const Truth& truth, int answer, double known, Oracle oracle) {
    if (std::isinf(known)) return known;
    if (known > 0 && band(f, in.data(), truth.answer, answer, known, oracle)) return known;
    return std::max(known, measured_k(f, in, truth, answer, oracle));
}

/// Minimises a class's witness while it stays a violation of that class,
/// each trial judged by the one judge with the references (a trial on which
/// they disagree is not the kernel's finding).
void minimise_class(const Family& f, const FamilyKernel& k, FailureClass& c, const Domain& domain) {
    const std::vector<FamilyKernel> one{k};
    const auto judged = [&](const Inputs& t) -> std::optional<std::pair<Truth, FamilyJudgement>> {
        CaseJudge judge(f, one, t, Oracle::slow, false);
        judge.finish();
        if (!judge.disagreement().empty()) return std::nullopt;
        return std::make_pair(judge.truth(), judge.judgements()[0]);
    };
    const auto same_class = [&](const Inputs& t) {
        const auto j = judged(t);
        return j && j->second.violates && violation_class(f, k, t, j->first, j->second) == c.key;
    };
    c.witness = minimise_witness(f, domain, c.witness, same_class);
    if (const auto j = judged(c.witness)) c.why = j->second.why;
    c.minimised = within_grace();  // cut short by a signal: as found, or part way
}

}  // namespace

FamilyKernelReport kernel_report_for(const FamilyKernel& k) {
    FamilyKernelReport r;
    r.name = k.name;
    r.contract = k.contract;
    r.error_e = k.error_e;
    if (k.domain) r.domain = k.domain->str_with_requirements();
    return r;
}

const FailureClass* tally_judgement(const Family& f, const FamilyKernel& k, FamilyKernelReport& r, const Inputs& in,
                                    const Truth& truth, const FamilyJudgement& j, uint64_t case_number, Oracle oracle) {
    if (j.outside) {
        ++r.outside_domain;
        return nullptr;
    }
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
            cell.measured_k = widen_k(f, in, truth, j.got.answer, cell.measured_k, oracle);
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
    const ClassKey key = violation_class(f, k, in, truth, j);
    auto c = std::find_if(r.classes.begin(), r.classes.end(), [&](const FailureClass& x) { return x.key == key; });
    const bool fresh = c == r.classes.end();
    if (fresh) {
        FailureClass first;
        first.key = key;
        first.witness = in;
        first.why = j.why;
        first.first_case = case_number;
        c = r.classes.insert(r.classes.end(), first);
    }
    ++c->count;
    if (j.cuts)
        c->measured_k = std::max(c->measured_k, j.error.cut_k);
    else if (j.answer_differs && known_answer)
        c->measured_k = std::max(c->measured_k, widen_k(f, in, truth, j.got.answer, c->measured_k, oracle));
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
    std::map<std::string_view, uint64_t> mix_counts;  // by the family's own names: no copies
    RandomSource sampler(options.seed ^ 0x5a5a5a5a5a5a5a5aull);  // apart from the cases' choices
    CaseJudge judged(f, kernels, options.oracle);
    while (budget.more(report.cases) && !(options.stop_at_first && all_broken()) && !hung() && !interrupted()) {
        const Generated g = generate(f, source, options.gen_kind, options.domain);
        const Inputs& in = g.in;
        ++report.cases;
        report.adapted += g.adapted;
        ++mix_counts[g.kind];
        const bool sampled = options.oracle == Oracle::fast && f.fast_truth && sampler.below(256) == 0;
        judged.start(in, sampled);
        judged.finish();
        report.fast_cases += judged.fast().has_value();
        report.sampled += sampled && judged.fast().has_value();
        report.reference_cases += judged.references_judged();
        if (!judged.disagreement().empty()) {
            if (!report.reference_mismatches++) {
                report.mismatch = in;
                report.mismatch_message = judged.disagreement();
            }
            continue;
        }
        for (size_t i = 0; i < kernels.size(); ++i) {
            FamilyKernelReport& r = report.kernels[i];
            const FamilyJudgement& j = judged.judgements()[i];
            const FailureClass* fc = tally_judgement(f, kernels[i], r, in, judged.truth(), j, report.cases, options.oracle);
            if (!fc) continue;
            if (fc->count == 1 && options.on_new_class) options.on_new_class(i, *fc);
            if (options.stop_at_hang && j.failure == FailureKind::hang) {
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
            const FailureKind kind = classes[c].key.kind;
            if (kind == FailureKind::crash || kind == FailureKind::hang || kind == FailureKind::garbage) continue;
            minimise_class(f, kernels[i], classes[c], options.domain);
        }
    }
    return report;
}

}  // namespace isect::check
