// The workers of a check run: a scheduler that hands several families'
// blocks of cases, and then their failure classes to minimise, to one set
// of workers (run_family_checks), each judging into a report of its own;
// and the batches through which a plugin's worker process computes a
// block's answers while the judge works. run.cpp merges what they count.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <sched.h>
#include <thread>
#include <unistd.h>

#include "check/engine/findings.hpp"
#include "check/engine/relation.hpp"
#include "check/engine/run.hpp"
#include "check/engine/witness.hpp"
#include "check/io/interrupt.hpp"

namespace isect::check {

namespace {

/// A family's progress: the cases and violations its workers count (each
/// once a block), and the line on stderr that shows them when asked: one
/// line rewritten in place on a terminal, a line every five seconds into a
/// log. Its clock starts when it is made, with the family's stream.
class ProgressLine {
public:
    explicit ProgressLine(bool shown) : shown_(shown), tty_(isatty(fileno(stderr)) != 0) {}
    void add(uint64_t cases, uint64_t violations) {
        cases_.fetch_add(cases, std::memory_order_relaxed);
        violations_.fetch_add(violations, std::memory_order_relaxed);
    }
    /// The line, when it is due (one caller at a time).
    void show(const std::string& family) {
        if (!shown_ || Clock::now() - last_ < std::chrono::seconds(tty_ ? 1 : 5)) return;
        last_ = Clock::now();
        std::fprintf(stderr, "%s[check %s] %5.1f s  %llu cases  %llu violations%s", tty_ ? "\r" : "", family.c_str(),
                     std::chrono::duration<double>(last_ - start_).count(), (unsigned long long)cases_.load(),
                     (unsigned long long)violations_.load(), tty_ ? "" : "\n");
        std::fflush(stderr);
    }
    /// Ends the line on a terminal.
    void finish() const {
        if (shown_ && tty_) std::fprintf(stderr, "\n");
    }

private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point start_ = Clock::now(), last_ = start_;
    std::atomic<uint64_t> cases_{0}, violations_{0};
    bool shown_, tty_;
};

/// The outcomes of the kernels that take many inputs at once (a plugin's),
/// for the judge to use instead of calling them case by case. A block goes
/// in chunks: when the judge reaches chunk c, its outcomes are collected
/// and chunk c + 1 is submitted, so the plugin's worker computes the next
/// chunk while the judge works on this one. The first chunk of a block,
/// which the judge waits for, is small, and each after it twice the one
/// before, up to kChunk: each is computed in less time than the judge
/// takes over the one before.
class Batches {
public:
    static constexpr size_t kFirstChunk = 256, kChunk = 2048;
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
            l.chunk = std::min(kFirstChunk, ks_[i].batch->capacity());
            if (l.outcomes.size() < n_) l.outcomes.resize(n_);  // kept from block to block
            submit(i, 0);
        }
    }
    /// Case b's outcomes, kernel by kernel (null: call it).
    const Outcome* const* given(size_t b) {
        for (size_t i = 0; i < ks_.size(); ++i) {
            Lane& l = lanes_[i];
            while (l.pending && l.written <= b) {
                const size_t from = l.written, n = l.sent;
                const size_t got = ks_[i].batch->collect(l.outcomes.data() + from);
                l.pending = false;
                l.written = from + got;
                // After a hang, no more; after a signal, nothing is asked anew.
                if (got == n && l.written < n_ && !interrupted()) submit(i, l.written);
            }
            given_[i] = b < l.written ? &l.outcomes[b] : nullptr;
        }
        return given_.data();
    }
    /// Whether some batch kernel has answered case b, waiting for a pending
    /// chunk that holds it but asking for nothing new: after a signal, the
    /// cases already answered (a hang in hand above all) are still judged.
    bool answered(size_t b) {
        bool any = false;
        for (size_t i = 0; i < ks_.size(); ++i) {
            Lane& l = lanes_[i];
            if (l.pending && l.written <= b) {
                const size_t from = l.written;
                l.written = from + ks_[i].batch->collect(l.outcomes.data() + from);
                l.pending = false;
            }
            any = any || b < l.written;
        }
        return any;
    }
    /// Collects what is still pending (a block judged only in part).
    void drain() {
        for (size_t i = 0; i < lanes_.size(); ++i)
            if (lanes_[i].pending) {
                std::vector<Outcome> ignored(lanes_[i].sent);
                ks_[i].batch->collect(ignored.data());
                lanes_[i].pending = false;
            }
    }

private:
    struct Lane {
        size_t chunk = 0, sent = 0, written = 0;  ///< the next chunk's size; the pending one's; cases with outcomes
        bool pending = false;
        std::vector<Outcome> outcomes;
    };
    void submit(size_t i, size_t from) {
        Lane& l = lanes_[i];
        const size_t width = flat_.size() / n_;
        l.sent = std::min(l.chunk, n_ - from);
        ks_[i].batch->submit(flat_.data() + from * width, l.sent);
        l.chunk = std::min({2 * l.chunk, kChunk, ks_[i].batch->capacity()});
        l.pending = true;
    }
    const std::vector<FamilyKernel>& ks_;
    std::vector<Lane> lanes_;
    std::vector<const Outcome*> given_;
    std::vector<double> flat_;
    size_t n_ = 0;
};

/// Cases per generator kind. A kind is a name the family keeps (its
/// mix's, or a shared transform's literal), so it is found by where it is
/// kept: a pointer compared per case, not a name in a map.
struct KindCounts {
    std::vector<std::pair<std::string_view, uint64_t>> counts;
    void add(std::string_view kind) {
        for (auto& [k, n] : counts)
            if (k.data() == kind.data() && k.size() == kind.size()) {
                ++n;
                return;
            }
        counts.emplace_back(kind, 1);
    }
};

/// One worker's report of a family, and its count of generator kinds.
struct Worker {
    FamilyCheckReport report;
    KindCounts mix;
};

/// A class of one family's report to minimise, a task for any worker: of
/// its kernel `claim`'s contract, or of its relation `claim`.
struct Task {
    size_t family = 0, claim = 0, cls = 0;
    bool relation = false;
};

/// What a worker does next: judge a block of a family, minimise a class,
/// or stop (nothing is left).
struct Work {
    enum Kind { judge, minimise, none } kind = none;
    size_t family = 0;
    Task task;
};

/// One family of a run of several, as the workers share it.
struct FamilyState {
    const FamilyRun* run = nullptr;
    std::unique_ptr<CaseStream> stream;  ///< made when a worker first reaches the family: its clock starts then
    std::unique_ptr<ProgressLine> progress;  ///< made with the stream
    std::vector<Worker> workers;         ///< each worker's report of it
    std::unique_ptr<std::atomic<bool>[]> broken;  ///< which kernels broke (--stop-at-first)
    size_t busy = 0;            ///< its blocks in workers' hands
    bool exhausted = false;     ///< no block left to claim
    bool finished = false;      ///< settled, minimised, handed to on_done
    bool skipped = false;       ///< never started (a signal or an error came first)
    size_t tasks_left = 0;
    FamilyCheckReport report;

    const std::vector<FamilyKernel>& kernels_of(size_t w) const {
        const auto& extra = run->options.worker_kernels;
        return w > 0 && w <= extra.size() ? extra[w - 1] : run->kernels;
    }
    /// Kernel k broke its contract or a relation it is judged for.
    void mark_broken(size_t k) {
        if (!broken[k].load(std::memory_order_relaxed)) broken[k].store(true, std::memory_order_relaxed);
    }
    bool all_broken() const {
        for (size_t i = 0; i < run->kernels.size(); ++i)
            if (!broken[i].load(std::memory_order_relaxed)) return false;
        return !run->kernels.empty();
    }
};

/// Hands out the work of several families to one set of workers: the
/// classes waiting to be minimised first, then the blocks of the first
/// family that has any left. A worker that finds a family's stream spent
/// goes on to the next family while the others finish their blocks; the
/// last of them settles the family (merges the workers' reports) and queues
/// its classes, which any worker then minimises.
class Scheduler {
public:
    Scheduler(const std::vector<FamilyRun>& runs, size_t jobs,
              const std::function<void(size_t, FamilyCheckReport&)>& on_done)
        : jobs_(jobs), states_(runs.size()), on_done_(on_done) {
        for (size_t i = 0; i < runs.size(); ++i) {
            FamilyState& st = states_[i];
            st.run = &runs[i];
            st.broken.reset(new std::atomic<bool>[runs[i].kernels.size()]());
            st.workers.resize(jobs);
            for (size_t w = 0; w < jobs; ++w) {
                Worker& me = st.workers[w];
                me.report.family = runs[i].family->name;
                me.report.oracle = runs[i].options.oracle;
                if (runs[i].options.contracts)
                    for (const FamilyKernel& k : st.kernels_of(w)) me.report.kernels.push_back(kernel_report_for(k));
                for (const Relation& rel : runs[i].options.relations)
                    me.report.relations.push_back(relation_report_for(rel, st.kernels_of(w)));
            }
        }
    }

    FamilyState& state(size_t i) { return states_[i]; }

    /// The next work for a worker; waits while others may still make some.
    Work next(std::vector<StreamCase>& block) {
        std::unique_lock<std::mutex> lock(m_);
        for (;;) {
            if (failed_) return {};
            if (!tasks_.empty()) {
                const Task t = tasks_.front();
                tasks_.pop_front();
                return {Work::minimise, t.family, t};
            }
            bool progressed = false, open = false;
            for (size_t i = 0; i < states_.size() && !progressed; ++i) {
                FamilyState& st = states_[i];
                if (st.finished) continue;
                open = true;
                if (st.exhausted) continue;
                if (!st.stream) {
                    if (interrupted()) {  // a family not begun is not reported
                        st.exhausted = st.finished = st.skipped = true;
                        progressed = true;
                        continue;
                    }
                    const FamilyCheckOptions& o = st.run->options;
                    st.stream = std::make_unique<CaseStream>(*st.run->family, o.stream, jobs_);
                    st.progress = std::make_unique<ProgressLine>(o.progress);
                }
                ++st.busy;
                lock.unlock();
                const bool got = st.stream->next(block);
                lock.lock();
                if (got) return {Work::judge, i, {}};
                --st.busy;
                st.exhausted = true;
                if (st.busy == 0) settle(i);
                progressed = true;  // tasks may wait now: look again from the top
            }
            if (progressed) continue;
            if (!open) return {};
            cv_.wait(lock);
        }
    }

    /// A worker judged a block of family i.
    void block_done(size_t i) {
        const std::lock_guard<std::mutex> lock(m_);
        FamilyState& st = states_[i];
        st.progress->show(st.run->family->name);
        if (--st.busy == 0 && st.exhausted) settle(i);
    }

    /// A worker minimised a class of family i.
    void task_done(size_t i) {
        const std::lock_guard<std::mutex> lock(m_);
        if (--states_[i].tasks_left == 0) finish(i);
    }

    /// A worker failed: every stream stops, every worker ends.
    void fail() {
        const std::lock_guard<std::mutex> lock(m_);
        failed_ = true;
        for (FamilyState& st : states_)
            if (st.stream) st.stream->stop();
        cv_.notify_all();
    }

private:
    /// Every block of family i is judged: the workers' reports merged, its
    /// classes sorted and the largest queued for minimising. Under the lock.
    void settle(size_t i) {
        FamilyState& st = states_[i];
        const FamilyCheckOptions& o = st.run->options;
        st.progress->finish();
        for (Worker& w : st.workers) {
            for (const auto& [kind, n] : w.mix.counts) w.report.mix[std::string(kind)] += n;
            merge_reports(*st.run->family, st.report, w.report);
        }
        st.report.seconds = st.stream->elapsed();
        st.report.interrupted = interrupted();
        for (size_t k = 0; k < st.report.kernels.size(); ++k) {
            sort_classes(st.report.kernels[k].classes);
            const auto& classes = st.report.kernels[k].classes;
            for (size_t c = 0; o.minimize && c < classes.size() && c < o.minimize_classes; ++c) {
                if (!minimised_kind(classes[c].key.kind)) continue;
                tasks_.push_back({i, k, c, false});
                ++st.tasks_left;
            }
        }
        for (size_t r = 0; r < st.report.relations.size(); ++r) {
            sort_classes(st.report.relations[r].classes);
            const size_t n = st.report.relations[r].classes.size();
            for (size_t c = 0; o.minimize && c < n && c < o.minimize_classes; ++c) {
                tasks_.push_back({i, r, c, true});
                ++st.tasks_left;
            }
        }
        if (st.tasks_left == 0) finish(i);
        cv_.notify_all();
    }

    /// Family i is done: handed to on_done. Under the lock.
    void finish(size_t i) {
        FamilyState& st = states_[i];
        st.finished = true;
        if (on_done_) on_done_(i, st.report);
        cv_.notify_all();
    }

    size_t jobs_;
    std::vector<FamilyState> states_;
    std::deque<Task> tasks_;
    std::function<void(size_t, FamilyCheckReport&)> on_done_;
    std::mutex m_;
    std::condition_variable cv_;
    bool failed_ = false;
};

/// Whether a kernel's report already holds a class of this key.
bool knows_class(const FamilyKernelReport& r, const ClassKey& key) {
    return std::any_of(r.classes.begin(), r.classes.end(), [&](const FailureClass& c) { return c.key == key; });
}

/// Whether the case's suspects may be judged on the fast oracle's truth
/// alone (and then does so): every suspect a violation the oracle decided
/// as the references would (CaseJudge::FastViolation), of a class whose
/// first member the references confirmed in this report. Counts, classes,
/// witnesses and K are then what the references would give; only their
/// cost is not paid again. Not for a sampled case (the cross-check), nor
/// where the contracts are not judged.
bool trust_known_classes(const FamilyCheckReport& report, CaseJudge& judged) {
    if (!judged.needs_references() || report.kernels.empty() || !judged.fast_decides_all()) return false;
    for (size_t i : judged.suspects())
        if (!knows_class(report.kernels[i], judged.fast_violation(i)->key)) return false;
    judged.trust_fast();
    return !judged.needs_references();
}

/// Whether the case was judged on the family's first reference alone
/// (CaseJudge::finish_on_first_reference), every violation it found being of
/// a class the report holds (their classes in keys): what costs the most in
/// a kernel whose numbers are off on many cases is the second reference.
/// False where it cannot be, or found a violation of a new class: then both
/// references judge it.
bool on_first_reference(const Family& f, const std::vector<FamilyKernel>& ks, const FamilyCheckReport& report,
                        const Inputs& in, CaseJudge& judged, std::vector<ClassKey>& keys) {
    if (report.kernels.empty() || judged.suspects().empty() || !judged.finish_on_first_reference()) return false;
    for (size_t i = 0; i < ks.size(); ++i) {
        const FamilyJudgement& j = judged.judgements()[i];
        if (!j.violates) continue;
        keys[i] = violation_class(f, ks[i], in, judged.truth(), j);
        if (!knows_class(report.kernels[i], keys[i])) return false;
    }
    return true;
}

/// Judges one block of a family into worker w's report of it.
void judge_block(FamilyState& st, size_t w, const std::vector<StreamCase>& block, CaseJudge& judged, Batches& batches,
                 std::mutex& callback) {
    const Family& f = *st.run->family;
    const FamilyCheckOptions& options = st.run->options;
    Worker& me = st.workers[w];
    FamilyCheckReport& report = me.report;
    const std::vector<FamilyKernel>& ks = st.kernels_of(w);
    CaseStream& stream = *st.stream;
    std::vector<ClassKey> keys(ks.size());
    batches.start(block);
    uint64_t judged_here = 0, violations_here = 0;
    for (size_t b = 0; b < block.size(); ++b) {
        const StreamCase& sc = block[b];
        // Stopped: a case a batch kernel has answered is still judged (a
        // hang pinned as the signal came is kept), none is asked anew.
        if (!stream.more(b) && !(interrupted() && batches.answered(b))) break;
        const Generated& g = sc.generated;
        const Inputs& in = g.in;
        ++report.cases;
        ++judged_here;
        report.adapted += g.adapted;
        me.mix.add(g.kind);
        const bool sampled = options.oracle == Oracle::fast && f.fast_truth && sc.sampled;
        judged.start(in, sampled, batches.given(b));
        // Counted before a confirmed class spares them (which depends on
        // what this worker saw first): the same for any number of workers.
        report.reference_cases += judged.needs_references();
        // A violation the fast oracle decided, of a class the references
        // confirmed here already: they would change nothing but the time (a
        // kernel wrong on every fifth case paid them on each).
        const bool trusted = trust_known_classes(report, judged);
        const bool first_only = !trusted && on_first_reference(f, ks, report, in, judged, keys);
        if (!first_only) judged.finish();
        report.fast_cases += judged.fast().has_value();
        report.sampled += sampled && judged.fast().has_value();
        if (!judged.disagreement().empty()) {
            if (!report.reference_mismatches++ || sc.number < report.mismatch_case) {
                report.mismatch = in;
                report.mismatch_case = sc.number;
                report.mismatch_message = judged.disagreement();
            }
            continue;
        }
        const std::pair<int, int> cell = report.kernels.empty() ? std::pair<int, int>{} : map_cell(f, in);
        for (size_t i = 0; i < report.kernels.size(); ++i) {
            FamilyKernelReport& r = report.kernels[i];
            const FamilyJudgement& j = judged.judgements()[i];
            const FailureClass* fc = tally_judgement(f, ks[i], r, in, judged.truth(), j, sc.number, options.oracle,
                                                     trusted && judged.fast_violation(i) ? &judged.fast_violation(i)->key
                                                     : first_only && j.violates          ? &keys[i]
                                                                                         : nullptr,
                                                     &cell);
            if (!fc) continue;
            ++violations_here;
            st.mark_broken(i);
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
        for (size_t i = 0; i < report.relations.size(); ++i) {
            const FailureClass* fc =
                tally_relation(f, options.relations[i], ks, report.relations[i], in, judged, sc.number);
            if (!fc) continue;
            ++violations_here;
            // A kernel that breaks a relation it is judged for is broken
            // too, for --stop-at-first (a strict edge test holds its
            // contract and leaks).
            const Relation& rel = options.relations[i];
            st.mark_broken(rel.a);
            if (rel.kind == RelationKind::agree) st.mark_broken(rel.b);
            if (fc->count == 1 && options.on_new_relation_class) {
                const std::lock_guard<std::mutex> lock(callback);
                options.on_new_relation_class(i, *fc);
            }
        }
        if (options.stop_at_first && st.all_broken()) stream.stop();
    }
    st.progress->add(judged_here, violations_here);
}

}  // namespace

std::vector<std::optional<FamilyCheckReport>> run_family_checks(
    const std::vector<FamilyRun>& runs, size_t jobs, const std::function<void(size_t, FamilyCheckReport&)>& on_done) {
    jobs = std::max<size_t>(jobs, 1);
    Scheduler scheduler(runs, jobs, on_done);
    std::mutex callback;  // on_new_class, one worker at a time
    run_workers(jobs, [&](size_t w) {
        // This worker's judge and batches, for the family it is on.
        size_t on = SIZE_MAX;
        std::unique_ptr<Batches> batches;
        std::unique_ptr<CaseJudge> judged;
        std::vector<StreamCase> block;
        try {
            for (Work work; (work = scheduler.next(block)).kind != Work::none;) {
                FamilyState& st = scheduler.state(work.family);
                if (work.kind == Work::minimise) {
                    batches.reset();  // nothing of another family's pending in this worker's plugin process
                    on = SIZE_MAX;
                    const Task& t = work.task;
                    const Family& f = *st.run->family;
                    const Domain& domain = st.run->options.stream.domain;
                    if (t.relation)
                        minimise_relation_class(f, st.run->options.relations[t.claim], st.kernels_of(w),
                                                st.report.relations[t.claim].classes[t.cls], domain);
                    else
                        minimise_class(f, st.kernels_of(w)[t.claim], st.report.kernels[t.claim].classes[t.cls], domain);
                    scheduler.task_done(work.family);
                    continue;
                }
                if (on != work.family) {
                    batches.reset();
                    judged = std::make_unique<CaseJudge>(*st.run->family, st.kernels_of(w), st.run->options.oracle);
                    batches = std::make_unique<Batches>(st.kernels_of(w));
                    on = work.family;
                }
                judge_block(st, w, block, *judged, *batches, callback);
                scheduler.block_done(work.family);
            }
        } catch (const std::exception& e) {
            scheduler.fail();
            throw std::runtime_error(on == SIZE_MAX ? e.what() : runs[on].family->name + ": " + e.what());
        } catch (...) {
            scheduler.fail();
            throw;
        }
    });
    std::vector<std::optional<FamilyCheckReport>> out;
    for (size_t i = 0; i < runs.size(); ++i) {
        FamilyState& st = scheduler.state(i);
        if (st.skipped) out.emplace_back();
        else out.emplace_back(std::move(st.report));
    }
    return out;
}

FamilyCheckReport run_family_check(const Family& f, const std::vector<FamilyKernel>& kernels,
                                   const FamilyCheckOptions& options) {
    const std::vector<FamilyRun> one{{&f, kernels, options}};
    auto reports = run_family_checks(one, options.jobs);
    return reports[0] ? std::move(*reports[0]) : FamilyCheckReport{};
}

size_t available_cores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        const int n = CPU_COUNT(&set);
        if (n > 0) return size_t(n);
    }
    return std::max(1u, std::thread::hardware_concurrency());
}

void run_workers(size_t jobs, const std::function<void(size_t worker)>& fn) {
    jobs = std::max<size_t>(jobs, 1);
    std::exception_ptr first;
    std::mutex m;
    const Precision precision_here = precision();
    const auto guarded = [&](size_t w) {
        set_precision(precision_here);
        try {
            fn(w);
        } catch (...) {
            const std::lock_guard<std::mutex> lock(m);
            if (!first) first = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(jobs - 1);
    for (size_t w = 1; w < jobs; ++w) threads.emplace_back(guarded, w);
    guarded(0);
    for (std::thread& t : threads) t.join();
    if (first) std::rethrow_exception(first);
}

}  // namespace isect::check
