// Where a generator takes its choices from. Every construction in isect
// (check/families/FAMILY.cpp) draws its integers from a Source, so one construction
// serves three drivers:
//   RandomSource  a fast PRNG, for `isect check` (millions of cases a minute);
//   ByteSource    a fuzzer's bytes, so libFuzzer's mutations steer the same
//                 constructions (fuzz/fuzz_family.cpp);
//   RapidCheck    in the properties (properties/property.hpp), whose
//                 shrinking then works on the choices.
// Choice 0 is always the simplest: bytes that run out and shrinking both go
// there, so a construction should put its plainest option first.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace isect::check {

class Source {
public:
    virtual ~Source() = default;

    /// A choice in [0, n); n >= 1. A RandomSource's is drawn here, inline:
    /// a generated case makes a few dozen choices, and a virtual call each
    /// was a tenth of what a case cost. Every other source's is choose().
    uint64_t below(uint64_t n) {
        if (!xoshiro_) return choose(n);
        if (n <= 1) return 0;
        // Lemire's multiply-shift: unbiased enough for test generation (the
        // bias is below 2^-32 for n < 2^32).
        return uint64_t((static_cast<unsigned __int128>(xoshiro_next(xoshiro_)) * n) >> 64);
    }

    /// An integer in [lo, hi), hi > lo (as RapidCheck's inRange).
    template <class T = int> T range(T lo, T hi) {
        static_assert(std::is_integral_v<T>);
        return T(lo + T(below(uint64_t(hi - lo))));
    }
    /// false or true, false first.
    bool coin() { return below(2) == 1; }
    /// One of the given values, the first being the simplest.
    template <class T, class... Ts> T pick(T first, Ts... rest) {
        const T all[] = {first, T(rest)...};
        return all[below(sizeof...(Ts) + 1)];
    }

protected:
    /// A choice in [0, n), n >= 1, of a source that is no RandomSource.
    virtual uint64_t choose(uint64_t n) = 0;
    /// xoshiro256** (Blackman and Vigna): advances the four words of state
    /// and returns the next output.
    static uint64_t xoshiro_next(uint64_t* s) {
        const uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 45);
        return result;
    }
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    /// A RandomSource's state; null for every other source.
    uint64_t* xoshiro_ = nullptr;
};

/// splitmix64 (Steele, Lea and Flood): advances `state` and returns its
/// next output; nearby states give unrelated outputs.
inline uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/// xoshiro256** (Blackman and Vigna), seeded through splitmix64: fast, and
/// the same sequence on every platform for a given seed. Drawn by
/// Source::below.
class RandomSource final : public Source {
public:
    explicit RandomSource(uint64_t seed) {
        for (uint64_t& s : s_) s = splitmix64(seed);
        xoshiro_ = s_;
    }
    RandomSource(const RandomSource& o) : Source(o) {
        std::copy(o.s_, o.s_ + 4, s_);
        xoshiro_ = s_;
    }
    RandomSource& operator=(const RandomSource& o) {
        std::copy(o.s_, o.s_ + 4, s_);
        xoshiro_ = s_;
        return *this;
    }
    uint64_t next() { return xoshiro_next(s_); }

private:
    uint64_t choose(uint64_t n) override { return below(n); }
    uint64_t s_[4] = {};
};

/// Choices read from bytes: as many little-endian bytes as n needs, modulo
/// n; zero once the bytes run out.
class ByteSource final : public Source {
public:
    ByteSource(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    size_t used() const { return at_; }

private:
    uint64_t choose(uint64_t n) override {
        if (n <= 1) return 0;
        uint64_t v = 0;
        int shift = 0;
        for (uint64_t span = n - 1; span > 0 && shift < 64; span >>= 8, shift += 8)
            v |= uint64_t(at_ < size_ ? data_[at_++] : 0) << shift;
        return v % n;
    }
    const uint8_t* data_;
    size_t size_;
    size_t at_ = 0;
};

}  // namespace isect::check
