#include "isect/check/engine/run.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>

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
/// measured_k lands on a fixed grid and the band widens with K, so a
/// skipped case could not have raised the maximum: the widest K of a
/// report is the same however its cases were split among workers.
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
    c.witness = minimise_witness(f, domain, c.found, same_class);
    c.why = c.found_why;
    if (const auto j = judged(c.witness)) c.why = j->second.why;
    c.minimised = within_grace();  // cut short by a signal: as found, or part way
}

/// Whether a member found at case n is the better witness of class c: the
/// better input (better_witness), or as good and found earlier. A strict
/// order on (input, case), so the best member is the same whoever looks.
bool better_member(const Family& f, const Inputs& in, uint64_t n, const FailureClass& c) {
    if (better_witness(f, in, c.found)) return true;
    return !better_witness(f, c.found, in) && n < c.found_case;
}

void merge_class(const Family& f, FailureClass& into, const FailureClass& from) {
    into.count += from.count;
    into.measured_k = std::max(into.measured_k, from.measured_k);
    into.first_case = std::min(into.first_case, from.first_case);
    if (better_member(f, from.found, from.found_case, into)) {
        into.found = from.found;
        into.found_case = from.found_case;
        into.found_why = from.found_why;
        into.witness = from.witness;
        into.why = from.why;
        into.minimised = from.minimised;
        into.case_path = from.case_path;
    }
}

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
    for (const FailureClass& c : from.classes) {
        auto at = std::find_if(into.classes.begin(), into.classes.end(), [&](const FailureClass& x) { return x.key == c.key; });
        if (at == into.classes.end()) into.classes.push_back(c);
        else merge_class(f, *at, c);
    }
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

/// The progress every worker adds to once a block, and the first worker
/// prints.
struct Progress {
    std::atomic<uint64_t> cases{0}, violations{0};
};

/// The outcomes of the kernels that take many inputs at once (a plugin's),
/// for the judge to use instead of calling them case by case. A block goes
/// in chunks: when the judge reaches chunk c, its outcomes are collected
/// and chunk c + 1 is submitted, so the plugin's worker computes the next
/// chunk while the judge works on this one.
class Batches {
public:
    static constexpr size_t kChunk = 2048;
    explicit Batches(const std::vector<FamilyKernel>& ks)
        : ks_(ks), lanes_(ks.size()), given_(ks.size()) {}
    ~Batches() {
        try {
            drain();
        } catch (...) {  // a worker that cannot start again: nothing was pending that matters
        }
    }

    /// A new block: its first chunk submitted to every batch kernel.
    void start(const std::vector<StreamCase>& block) {
        drain();
        flat_.clear();
        n_ = block.size();
        for (size_t i = 0; i < ks_.size(); ++i) {
            Lane& l = lanes_[i];
            l.written = 0;
            l.pending = false;
            if (!ks_[i].batch || n_ == 0) continue;
            if (flat_.empty())
                for (const StreamCase& c : block) flat_.insert(flat_.end(), c.generated.in.begin(), c.generated.in.end());
            l.chunk = std::min(kChunk, ks_[i].batch->capacity());
            if (l.outcomes.size() < n_) l.outcomes.resize(n_);  // kept from block to block
            submit(i, 0);
        }
    }
    /// Case b's outcomes, kernel by kernel (null: call it).
    const Outcome* const* given(size_t b) {
        for (size_t i = 0; i < ks_.size(); ++i) {
            Lane& l = lanes_[i];
            while (l.pending && l.written <= b) {
                const size_t from = l.written, n = std::min(l.chunk, n_ - from);
                const size_t got = ks_[i].batch->collect(l.outcomes.data() + from);
                l.pending = false;
                l.written = from + got;
                if (got == n && l.written < n_) submit(i, l.written);  // after a hang, no more
            }
            given_[i] = b < l.written ? &l.outcomes[b] : nullptr;
        }
        return given_.data();
    }
    /// Collects what is still pending (a block judged only in part).
    void drain() {
        for (size_t i = 0; i < lanes_.size(); ++i)
            if (lanes_[i].pending) {
                std::vector<Outcome> ignored(lanes_[i].chunk);
                ks_[i].batch->collect(ignored.data());
                lanes_[i].pending = false;
            }
    }

private:
    struct Lane {
        size_t chunk = 0, written = 0;  ///< cases per chunk; cases with outcomes
        bool pending = false;
        std::vector<Outcome> outcomes;
    };
    void submit(size_t i, size_t from) {
        Lane& l = lanes_[i];
        const size_t width = flat_.size() / n_;
        ks_[i].batch->submit(flat_.data() + from * width, std::min(l.chunk, n_ - from));
        l.pending = true;
    }
    const std::vector<FamilyKernel>& ks_;
    std::vector<Lane> lanes_;
    std::vector<const Outcome*> given_;
    std::vector<double> flat_;
    size_t n_ = 0;
};

/// Everything one worker needs: its kernels, its judge, its report.
struct Worker {
    const std::vector<FamilyKernel>* kernels = nullptr;
    FamilyCheckReport report;
    std::map<std::string_view, uint64_t> mix;  // by the family's own names: no copies
};




/// Minimises the largest classes of every kernel, each class a task for
/// the next free worker (with that worker's kernels).
void minimise_classes(const Family& f, const std::vector<FamilyKernel>& kernels, const FamilyCheckOptions& options,
                      FamilyCheckReport& report) {
    std::vector<std::pair<size_t, size_t>> tasks;  // kernel, class
    for (size_t i = 0; i < report.kernels.size(); ++i)
        for (size_t c = 0; c < report.kernels[i].classes.size() && c < options.minimize_classes; ++c) {
            // A crash, hang or garbage answer is kept as found: every trial
            // would cost a worker or a timeout.
            const FailureKind kind = report.kernels[i].classes[c].key.kind;
            if (kind != FailureKind::crash && kind != FailureKind::hang && kind != FailureKind::garbage)
                tasks.emplace_back(i, c);
        }
    std::atomic<size_t> next{0};
    run_workers(std::min(std::max<size_t>(options.jobs, 1), tasks.size()), [&](size_t w) {
        const std::vector<FamilyKernel>& ks =
            w > 0 && w <= options.worker_kernels.size() ? options.worker_kernels[w - 1] : kernels;
        for (size_t t; (t = next.fetch_add(1)) < tasks.size();) {
            const auto [i, c] = tasks[t];
            minimise_class(f, ks[i], report.kernels[i].classes[c], options.stream.domain);
        }
    });
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
        first.first_case = first.found_case = case_number;
        first.found = first.witness = in;
        first.found_why = first.why = j.why;
        c = r.classes.insert(r.classes.end(), first);
    }
    ++c->count;
    c->first_case = std::min(c->first_case, case_number);
    if (j.cuts)
        c->measured_k = std::max(c->measured_k, j.error.cut_k);
    else if (j.answer_differs && known_answer)
        c->measured_k = std::max(c->measured_k, widen_k(f, in, truth, j.got.answer, c->measured_k, oracle));
    else if (j.answer_differs)
        c->measured_k = std::numeric_limits<double>::infinity();
    if (!fresh && better_member(f, in, case_number, *c)) {
        c->found = c->witness = in;
        c->found_case = case_number;
        c->found_why = c->why = j.why;
    }
    return &*c;
}

void sort_classes(FamilyKernelReport& r) {
    std::sort(r.classes.begin(), r.classes.end(), [](const FailureClass& a, const FailureClass& b) {
        if (a.count != b.count) return a.count > b.count;
        if (a.first_case != b.first_case) return a.first_case < b.first_case;
        return a.key.str() < b.key.str();
    });
}

void settle_classes(FamilyKernelReport& r, size_t minimised) {
    sort_classes(r);
    for (size_t c = minimised; c < r.classes.size(); ++c) {
        FailureClass& fc = r.classes[c];
        fc.witness = fc.found;
        fc.why = fc.found_why;
        fc.minimised = false;
    }
}

void merge_reports(const Family& f, FamilyCheckReport& into, const FamilyCheckReport& from) {
    if (into.kernels.empty() && into.cases == 0) {
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
    into.fast_cases += from.fast_cases;
    into.sampled += from.sampled;
    into.reference_cases += from.reference_cases;
    into.interrupted = into.interrupted || from.interrupted;
    into.adapted += from.adapted;
}

FamilyCheckReport run_family_check(const Family& f, const std::vector<FamilyKernel>& kernels,
                                   const FamilyCheckOptions& options) {
    const size_t jobs = std::max<size_t>(options.jobs, 1);
    CaseStream stream(f, options.stream, jobs);
    std::vector<Worker> workers(jobs);
    for (size_t w = 0; w < jobs; ++w) {
        workers[w].kernels = w > 0 && w <= options.worker_kernels.size() ? &options.worker_kernels[w - 1] : &kernels;
        workers[w].report.family = f.name;
        workers[w].report.oracle = options.oracle;
        for (const FamilyKernel& k : *workers[w].kernels) workers[w].report.kernels.push_back(kernel_report_for(k));
    }
    // Shared by the workers: which kernels broke (--stop-at-first), the
    // progress line, and the callback, one worker at a time.
    std::vector<std::atomic<bool>> broken(kernels.size());
    Progress progress;
    std::mutex callback;
    Budget line(options.stream.seconds, options.stream.max_cases, options.progress);
    const auto all_broken = [&] {
        for (const std::atomic<bool>& b : broken)
            if (!b.load(std::memory_order_relaxed)) return false;
        return !broken.empty();
    };
    run_workers(jobs, [&](size_t w) {
        Worker& me = workers[w];
        FamilyCheckReport& report = me.report;
        const std::vector<FamilyKernel>& ks = *me.kernels;
        CaseJudge judged(f, ks, options.oracle);
        std::vector<StreamCase> block;
        Batches batches(ks);
        try {
            while (stream.next(block)) {
                batches.start(block);
                uint64_t judged_here = 0, violations_here = 0;
                for (size_t b = 0; b < block.size(); ++b) {
                    const StreamCase& sc = block[b];
                    if (!stream.more(b)) break;
                    const Generated& g = sc.generated;
                    const Inputs& in = g.in;
                    ++report.cases;
                    ++judged_here;
                    report.adapted += g.adapted;
                    ++me.mix[g.kind];
                    const bool sampled = options.oracle == Oracle::fast && f.fast_truth && sc.sampled;
                    judged.start(in, sampled, batches.given(b));
                    judged.finish();
                    report.fast_cases += judged.fast().has_value();
                    report.sampled += sampled && judged.fast().has_value();
                    report.reference_cases += judged.references_judged();
                    if (!judged.disagreement().empty()) {
                        if (!report.reference_mismatches++ || sc.number < report.mismatch_case) {
                            report.mismatch = in;
                            report.mismatch_case = sc.number;
                            report.mismatch_message = judged.disagreement();
                        }
                        continue;
                    }
                    for (size_t i = 0; i < ks.size(); ++i) {
                        FamilyKernelReport& r = report.kernels[i];
                        const FamilyJudgement& j = judged.judgements()[i];
                        const FailureClass* fc =
                            tally_judgement(f, ks[i], r, in, judged.truth(), j, sc.number, options.oracle);
                        if (!fc) continue;
                        ++violations_here;
                        if (!broken[i].load(std::memory_order_relaxed)) broken[i].store(true, std::memory_order_relaxed);
                        if (fc->count == 1 && options.on_new_class) {
                            const std::lock_guard<std::mutex> lock(callback);
                            options.on_new_class(i, *fc);
                        }
                        if (options.stop_at_hang && j.failure == FailureKind::hang) {
                            r.stopped_at_hang = true;
                            r.hang_input = in;
                            stream.stop();
                        }
                    }
                    if (options.stop_at_first && all_broken()) stream.stop();
                }
                progress.cases.fetch_add(judged_here, std::memory_order_relaxed);
                progress.violations.fetch_add(violations_here, std::memory_order_relaxed);
                if (w == 0) line.report(f.name, progress.cases.load(), progress.violations.load());
            }
        } catch (...) {
            stream.stop();  // the others end too; run_workers rethrows
            throw;
        }
    });
    line.finish();

    FamilyCheckReport report;
    for (Worker& w : workers) {
        for (const auto& [kind, n] : w.mix) w.report.mix[std::string(kind)] += n;
        merge_reports(f, report, w.report);
    }
    report.seconds = stream.elapsed();
    report.interrupted = interrupted();
    for (FamilyKernelReport& k : report.kernels) sort_classes(k);
    if (options.minimize) minimise_classes(f, kernels, options, report);
    return report;
}

}  // namespace isect::check
