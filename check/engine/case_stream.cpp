#include "check/engine/case_stream.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <sched.h>
#include <thread>

#include "check/io/interrupt.hpp"
#include "check/model/generate.hpp"

namespace isect::check {

namespace {

/// splitmix64's output for z: nearby inputs, unrelated outputs.
uint64_t mix(uint64_t z) { return splitmix64(z); }

bool parse_whole(const std::string& s, uint64_t& out) {
    if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::stoull(s);
    return true;
}

}  // namespace

std::optional<Shard> Shard::parse(const std::string& text, std::string& why) {
    const size_t slash = text.find('/');
    Shard s;
    if (slash == std::string::npos || !parse_whole(text.substr(0, slash), s.index) ||
        !parse_whole(text.substr(slash + 1), s.count)) {
        why = "'" + text + "' is not I/N (the shard I of N, counted from 0: 0/4, 1/4, 2/4, 3/4)";
        return std::nullopt;
    }
    if (s.count == 0 || s.index >= s.count) {
        why = "'" + text + "': I must be below N (shards 0/" + std::to_string(s.count) + " to " +
              std::to_string(s.count ? s.count - 1 : 0) + "/" + std::to_string(s.count) + ")";
        return std::nullopt;
    }
    return s;
}

RandomSource case_source(uint64_t seed, uint64_t n) { return RandomSource(mix(seed ^ mix(n))); }

bool case_sampled(uint64_t seed, uint64_t n) { return (mix(mix(seed) ^ ~n) & 255) == 0; }

CaseStream::CaseStream(const Family& f, const StreamOptions& options, size_t workers) : f_(f), options_(options) {
    const Shard& s = options_.shard;
    if (options_.max_cases) {
        shard_cases_ = options_.max_cases > s.index ? (options_.max_cases - s.index + s.count - 1) / s.count : 0;
        // Blocks small enough that every worker gets several (a short run
        // ends together), large enough that a plugin's batch pays.
        block_ = std::clamp<uint64_t>(shard_cases_ / (4 * std::max<size_t>(workers, 1)), 16, 8192);
    }
    deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options_.seconds));
}

bool CaseStream::next(std::vector<StreamCase>& block) {
    for (StreamCase& c : block) gen::recycle(std::move(c.generated.in));  // their room serves the next block's
    block.clear();
    if (!more()) return false;
    const uint64_t b = next_block_.fetch_add(1, std::memory_order_relaxed);
    uint64_t first = b * block_, last = first + block_;  // this shard's cases [first, last), 0-based
    if (shard_cases_) {
        if (first >= shard_cases_) return false;
        last = std::min(last, shard_cases_);
    }
    const Shard& s = options_.shard;
    block.resize(last - first);
    for (uint64_t i = first; i < last; ++i) {
        StreamCase& c = block[i - first];
        c.number = s.index + 1 + i * s.count;
        RandomSource source = case_source(options_.seed, c.number);
        c.generated = generate(f_, source, options_.gen_kind, options_.domain);
        c.sampled = case_sampled(options_.seed, c.number);
    }
    return true;
}

bool CaseStream::more(size_t i) const {
    if (stopped() || interrupted()) return false;
    return options_.max_cases || i % 32 != 0 || Clock::now() < deadline_;
}

}  // namespace isect::check
