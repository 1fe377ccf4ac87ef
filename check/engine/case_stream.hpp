// The cases of a run, and the workers that judge them. Case n (1-based) of
// a seed is always the same input: it is generated from a source of its
// own (case_source), never from what came before it. So the cases a run
// judges depend on the seed and the case budget only, not on how many
// workers share them or in which order they finish; a shard I/N judges the
// cases n with (n - 1) mod N = I, so N shards judge every case of the
// budget once. Workers claim blocks of consecutive cases of their shard:
// a block is the unit of work and of a plugin's batch, nothing more.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "check/model/family.hpp"
#include "check/model/source.hpp"

namespace isect::check {

/// Which part of the case stream a run judges: cases n with
/// (n - 1) mod count = index. The whole stream is 0/1.
struct Shard {
    uint64_t index = 0, count = 1;
    bool whole() const { return count == 1; }
    /// "I/N".
    std::string str() const { return std::to_string(index) + "/" + std::to_string(count); }
    /// Reads "I/N" with 0 <= I < N; nullopt with a reason otherwise.
    static std::optional<Shard> parse(const std::string& text, std::string& why);
};

/// The source of case n of a seed's stream.
RandomSource case_source(uint64_t seed, uint64_t n);

/// Whether case n of a seed's stream is one the references judge too (1 in
/// 256), whoever judges it.
bool case_sampled(uint64_t seed, uint64_t n);

/// What a stream is: which cases, and for how long.
struct StreamOptions {
    uint64_t seed = 0;
    double seconds = 10;     ///< the time budget, when max_cases is 0
    uint64_t max_cases = 0;  ///< cases 1..max_cases of the whole stream (this shard's part of them); 0: by time
    Shard shard;
    std::string gen_kind;    ///< one mix only; empty: all
    Domain domain;           ///< the magnitudes and preconditions generated
};

/// One case of a stream, generated.
struct StreamCase {
    uint64_t number = 0;  ///< 1-based, in the whole stream
    Generated generated;
    bool sampled = false;
};

/// The cases of one family's run, shared by its workers: each claims a
/// block with next() and judges its cases while more() says so.
class CaseStream {
public:
    CaseStream(const Family& f, const StreamOptions& options, size_t workers);

    /// The next unclaimed block of this shard's cases, generated into
    /// `block` (thread-safe); false when the budget is spent or stop() was
    /// called.
    bool next(std::vector<StreamCase>& block);
    /// Whether another case may be judged: not stopped, no signal, and
    /// time left (the clock read before every 32nd case of a block, i the
    /// case's place in it). Cheap enough to ask before every case.
    bool more(size_t i = 0) const;
    /// Ends the run early (stop at the first finding, a hang): every
    /// worker stops before its next case.
    void stop() { stopped_.store(true, std::memory_order_relaxed); }
    bool stopped() const { return stopped_.load(std::memory_order_relaxed); }
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
    const StreamOptions& options() const { return options_; }

private:
    using Clock = std::chrono::steady_clock;
    const Family& f_;
    StreamOptions options_;
    uint64_t shard_cases_ = 0;  ///< this shard's cases under a case budget; 0 by time
    uint64_t block_ = 8192;     ///< cases per block
    std::atomic<uint64_t> next_block_{0};
    std::atomic<bool> stopped_{false};
    Clock::time_point start_ = Clock::now(), deadline_;
};

}  // namespace isect::check
