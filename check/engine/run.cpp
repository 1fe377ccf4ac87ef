#include "check/engine/run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "check/engine/relation.hpp"
#include "check/engine/symmetry.hpp"
#include "check/engine/witness.hpp"

namespace isect::check {

bool FamilyCheckReport::holds() const {
    if (reference_mismatches) return false;
    for (const FamilyKernelReport& k : kernels)
        if (!k.holds()) return false;
    for (const RelationReport& r : relations)
        if (!r.holds()) return false;
    return true;
}

namespace {

/// The feature the validity map bins an input by (Family::feature, or the
/// smallest nonzero magnitude).
double input_feature(const Family& f, const Inputs& in) {
    if (f.feature) return f.feature(in.data());
    double m = 0;
    for (double x : in)
        if (std::isfinite(x) && x != 0 && (m == 0 || std::fabs(x) < m)) m = std::fabs(x);
    return m;
}

int map_bin(double x) {
    if (!(x > 0) || !std::isfinite(x)) return -10000;  // below every bin of a double (2^-1074 is in bin -1080)
    // floor(log2 x / 10) 10, as log2 rounds it: from the exponent, which
    // costs a tenth of log2, but in the binade below a multiple of 10,
    // where log2 of a number an ulp short of 2^10k rounds up to 10k.
    const int e = std::ilogb(x);
    if ((e + 1) % 10 == 0) return int(std::floor(std::log2(x) / 10)) * 10;
    return (e >= 0 ? e / 10 : -((-e + 9) / 10)) * 10;
}

/// Bisects only when this disagreement needs a wider band than `known`.
/// measured_k lands on a fixed grid and the band widens with K, so a
/// skipped case could not have raised the maximum: the widest K of a
/// report is the same however its cases were split among workers.
double widen_k(const Family& f, const Inputs& in, const Truth& truth, double known, Oracle oracle, BandMemo& memo) {
    if (std::isinf(known)) return known;
    if (known > 0 && band(f, in.data(), truth.answer, known, oracle, memo)) return known;
    return std::max(known, measured_k(f, in, truth, oracle, memo));
}

void merge_class(const Family& f, FailureClass& into, const FailureClass& from) {
    into.count += from.count;
    into.measured_k = std::max(into.measured_k, from.measured_k);
    into.first_case = std::min(into.first_case, from.first_case);
    if (better_member(f, from.found, from.found_case, into.found, into.found_case)) {
        into.found = from.found;
        into.found_case = from.found_case;
        into.found_why = from.found_why;
        into.found_neighbours = from.found_neighbours;
        into.in_file = from.in_file;
        into.witness = from.witness;
        into.why = from.why;
        into.truth = from.truth;
        into.minimised = from.minimised;
        into.case_path = from.case_path;
        into.band_k = from.band_k;
        into.witnessed_k = from.witnessed_k;
        into.perturbed = from.perturbed;
    }
}

}  // namespace

void join_classes(const Family& f, std::vector<FailureClass>& into, const std::vector<FailureClass>& from) {
    for (const FailureClass& c : from) {
        auto at = std::find_if(into.begin(), into.end(), [&](const FailureClass& x) { return x.key == c.key; });
        if (at == into.end()) into.push_back(c);
        else merge_class(f, *at, c);
    }
}

namespace {

void merge_kernel(const Family& f, FamilyKernelReport& into, const FamilyKernelReport& from) {
    into.outside_domain += from.outside_domain;
    into.tried += from.tried;
    into.wrong_answers += from.wrong_answers;
    into.false_hits += from.false_hits;
    into.false_misses += from.false_misses;
    into.in_band += from.in_band;
    into.violations += from.violations;
    into.measured_k = std::max(into.measured_k, from.measured_k);
    into.measured_e = std::max(into.measured_e, from.measured_e);
    join_classes(f, into.classes, from.classes);
    for (const auto& [key, cell] : from.map) {
        MapCell& m = into.map[key];
        m.cases += cell.cases;
        m.wrong_answers += cell.wrong_answers;
        m.violations += cell.violations;
        m.measured_k = std::max(m.measured_k, cell.measured_k);
    }
    if (from.stopped_at_hang && !into.stopped_at_hang) {
        into.stopped_at_hang = true;
        into.hang_input = from.hang_input;
        into.hang_case = from.hang_case;
    }
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

std::pair<int, int> map_cell(const Family& f, const Inputs& in) {
    return {map_bin(input_magnitude(f, in.data())), map_bin(input_feature(f, in))};
}

const FailureClass* tally_judgement(const Family& f, const FamilyKernel& k, FamilyKernelReport& r, const Inputs& in,
                                    const Truth& truth, const FamilyJudgement& j, uint64_t case_number, Oracle oracle,
                                    const ClassKey* key, const std::pair<int, int>* place) {
    if (j.outside) {
        ++r.outside_domain;
        return nullptr;
    }
    MapCell& cell = r.map[place ? *place : map_cell(f, in)];
    BandMemo memo = j.band_memo;
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
            cell.measured_k = widen_k(f, in, truth, cell.measured_k, oracle, memo);
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
    FailureClass* c = &count_in_class(f, r.classes, key ? *key : violation_class(f, k, in, truth, j), in, case_number, j.why);
    if (j.cuts)
        c->measured_k = std::max(c->measured_k, j.error.cut_k);
    else if (j.answer_differs && known_answer)
        c->measured_k = std::max(c->measured_k, widen_k(f, in, truth, c->measured_k, oracle, memo));
    else if (j.answer_differs)
        c->measured_k = std::numeric_limits<double>::infinity();
    return c;
}

FailureClass& count_in_class(const Family& f, std::vector<FailureClass>& classes, const ClassKey& key, const Inputs& in,
                             uint64_t case_number, const std::string& why) {
    auto c = std::find_if(classes.begin(), classes.end(), [&](const FailureClass& x) { return x.key == key; });
    if (c == classes.end()) {
        FailureClass first;
        first.key = key;
        first.first_case = first.found_case = case_number;
        first.found = first.witness = in;
        first.found_why = first.why = why;
        c = classes.insert(classes.end(), first);
    } else if (better_member(f, in, case_number, c->found, c->found_case)) {
        c->found = c->witness = in;
        c->found_case = case_number;
        c->found_why = c->why = why;
    }
    ++c->count;
    c->first_case = std::min(c->first_case, case_number);
    return *c;
}

void sort_classes(std::vector<FailureClass>& classes) {
    std::sort(classes.begin(), classes.end(), [](const FailureClass& a, const FailureClass& b) {
        if (a.count != b.count) return a.count > b.count;
        if (a.first_case != b.first_case) return a.first_case < b.first_case;
        return a.key.str() < b.key.str();
    });
}

void settle_classes(std::vector<FailureClass>& classes, size_t minimised) {
    sort_classes(classes);
    for (size_t c = minimised; c < classes.size(); ++c) {
        FailureClass& fc = classes[c];
        fc.witness = fc.found;
        fc.why = fc.found_why;
        fc.minimised = false;
    }
}

void merge_reports(const Family& f, FamilyCheckReport& into, const FamilyCheckReport& from) {
    if (into.kernels.empty() && into.relations.empty() && into.cases == 0) {
        into = from;
        return;
    }
    into.cases += from.cases;
    into.seconds = std::max(into.seconds, from.seconds);
    for (const auto& [kind, n] : from.mix) into.mix[kind] += n;
    if (from.reference_mismatches && (!into.reference_mismatches || from.mismatch_case < into.mismatch_case)) {
        into.mismatch = from.mismatch;
        into.mismatch_case = from.mismatch_case;
        into.mismatch_message = from.mismatch_message;
    }
    into.reference_mismatches += from.reference_mismatches;
    for (size_t i = 0; i < into.kernels.size() && i < from.kernels.size(); ++i) merge_kernel(f, into.kernels[i], from.kernels[i]);
    for (size_t i = 0; i < into.relations.size() && i < from.relations.size(); ++i)
        merge_relation(f, into.relations[i], from.relations[i]);
    into.fast_cases += from.fast_cases;
    into.sampled += from.sampled;
    into.reference_cases += from.reference_cases;
    into.interrupted = into.interrupted || from.interrupted;
    into.adapted += from.adapted;
}

}  // namespace isect::check
