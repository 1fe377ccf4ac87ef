#include "check/engine/relation.hpp"

#include <algorithm>
#include <cmath>

#include "check/engine/witness.hpp"

namespace isect::check {

std::string Relation::name() const {
    switch (kind) {
        case Kind::agree: return "agree";
    }
    return "agree";
}

std::string Relation::subject(const std::vector<FamilyKernel>& kernels) const {
    return "A = " + kernels[a].name + ", B = " + kernels[b].name;
}

RelationReport relation_report_for(const Relation& rel, const std::vector<FamilyKernel>& kernels) {
    RelationReport r;
    r.relation = rel.name();
    r.subject = rel.subject(kernels);
    r.sides = {{"A", 0}, {"B", 0}, {"neither", 0}, {"both", 0}};
    return r;
}

namespace {

std::string answer_name(const Family& f, int a) {
    return a >= 0 && a < int(f.answers.size()) ? f.answers[size_t(a)] : "no answer (crash or hang)";
}

/// Whether two answers' numbers differ by more than tol u max(|x|, |y|);
/// names the output that differs most.
bool numbers_differ(const Family& f, const Answer& x, const Answer& y, double tol, std::string& output) {
    double worst = 0;
    for (size_t i = 0; i < x.values.size() && i < y.values.size() && i < f.outputs.size(); ++i) {
        const double a = x.values[i], b = y.values[i];
        if (a == b || (std::isnan(a) && std::isnan(b))) continue;
        const double scale = std::max({std::fabs(a), std::fabs(b), least_normal()});
        const double units = std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b)
                                 ? INFINITY
                                 : std::fabs(a - b) / scale / unit_roundoff();
        if (units > tol && units > worst) {
            worst = units;
            output = f.outputs[i];
        }
    }
    return worst > 0;
}

/// Whether A's and B's answers break `agree`: another answer, or numbers
/// further apart than the tolerance (output names the one furthest).
bool disagree(const Family& f, const Answer& a, const Answer& b, double tolerance, std::string& output) {
    if (a.answer != b.answer) return true;
    const bool carries = a.answer >= 0 && a.answer < int(f.answers.size()) && f.answer_has_values[size_t(a.answer)];
    return carries && numbers_differ(f, a, b, tolerance, output);
}

}  // namespace

bool breaks(const Family& f, const Relation& rel, const CaseJudge& judged) {
    std::string output;
    return disagree(f, judged.answer(rel.a), judged.answer(rel.b), rel.tolerance, output);
}

std::optional<RelationBreak> judge_relation(const Family& f, const Relation& rel,
                                            const std::vector<FamilyKernel>& kernels, const Inputs& in) {
    const std::vector<FamilyKernel> both{kernels[rel.a], kernels[rel.b]};
    CaseJudge judged(f, both, in, Oracle::slow, false);
    judged.finish();
    if (!judged.disagreement().empty()) return std::nullopt;
    const std::vector<FamilyJudgement>& j = judged.judgements();
    if (j[0].outside || j[1].outside) return std::nullopt;
    const Answer &a = judged.answer(0), &b = judged.answer(1);
    std::string output;
    if (!disagree(f, a, b, rel.tolerance, output)) return std::nullopt;
    const Truth& truth = judged.truth();
    RelationBreak out;
    if (a.answer != b.answer) {
        out.side = a.answer == truth.answer ? "A" : b.answer == truth.answer ? "B" : "neither";
        out.key.what = "A " + answer_name(f, a.answer) + ", B " + answer_name(f, b.answer) + ", exact " +
                       answer_name(f, truth.answer);
        out.why = "A answers " + answer_name(f, a.answer) + ", B " + answer_name(f, b.answer) + "; the references " +
                  answer_name(f, truth.answer);
    } else {
        // The numbers: each side's error against the exact ones, in units
        // of u S (the family's scales); the smaller is the one the
        // references side with, both when each is within 1.
        const double ea = j[0].error.e, eb = j[1].error.e;
        out.side = ea <= 1 && eb <= 1 ? "both" : ea < eb ? "A" : eb < ea ? "B" : "neither";
        out.key.what = "numbers: " + output + ", " +
                       (out.side == "both"      ? std::string("each within 1 u S")
                        : out.side == "neither" ? std::string("neither nearer")
                                                : out.side + " nearer");
        out.why = "both answer " + answer_name(f, a.answer) + "; their numbers are off the exact ones by " + format_k(ea) +
                  " (A) and " + format_k(eb) + " (B) u S";
    }
    out.key.kernel = rel.subject(kernels);
    out.key.contract = rel.name();
    out.key.kind = FailureKind::relation;
    if (f.deciding) out.key.decided = f.deciding(in.data(), truth, truth.answer);
    out.key.scale = scale_bucket(f, in);
    out.truth = truth;
    return out;
}

const FailureClass* tally_relation(const Family& f, const Relation& rel, const std::vector<FamilyKernel>& kernels,
                                   RelationReport& r, const Inputs& in, const CaseJudge& judged, uint64_t case_number) {
    if (judged.outside(rel.a) || judged.outside(rel.b)) return nullptr;
    ++r.tried;
    if (!breaks(f, rel, judged)) return nullptr;
    const std::optional<RelationBreak> b = judge_relation(f, rel, kernels, in);
    if (!b) return nullptr;
    ++r.violations;
    ++r.sides[b->side];
    return &count_in_class(f, r.classes, b->key, in, case_number, b->why);
}

void merge_relation(const Family& f, RelationReport& into, const RelationReport& from) {
    into.tried += from.tried;
    into.violations += from.violations;
    for (const auto& [side, n] : from.sides) into.sides[side] += n;
    join_classes(f, into.classes, from.classes);
}

}  // namespace isect::check
