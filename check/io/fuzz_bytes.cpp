// The fuzz layout and mutator of every family (fuzz_bytes.hpp).
#include "check/io/fuzz_bytes.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

#include "check/io/case_file.hpp"
#include "check/model/generate.hpp"

namespace isect::check {

namespace {

constexpr size_t kHeader = 2;
constexpr uint8_t kConstruction = 0x80, kScale = 0x01;

bool single() { return precision() == Precision::single; }



/// The data bytes of a slot: a float's 4, or a double's 8.
size_t data_bytes() { return single() ? 4 : 8; }
size_t slot_bytes() { return 1 + data_bytes(); }

/// The number whose bits d holds, little-endian, in the precision.
double from_bits(const uint8_t* d) {
    uint64_t u = 0;
    for (size_t i = 0; i < data_bytes(); ++i) u |= uint64_t(d[i]) << (8 * i);
    if (single()) {
        const uint32_t w = uint32_t(u);
        float f;
        std::memcpy(&f, &w, 4);
        return f;
    }
    double x;
    std::memcpy(&x, &u, 8);
    return x;
}

void to_bits(double x, uint8_t* d) {
    uint64_t u = 0;
    if (single()) {
        const float f = float(x);
        uint32_t w;
        std::memcpy(&w, &f, 4);
        u = w;
    } else {
        std::memcpy(&u, &x, 8);
    }
    for (size_t i = 0; i < data_bytes(); ++i) d[i] = uint8_t(u >> (8 * i));
}

double nudge(double x, int steps) {
    for (int i = 0; i < std::abs(steps); ++i) x = next_in_precision(x, steps > 0 ? INFINITY : -INFINITY);
    return x;
}

double grid(const uint8_t* d) { return std::ldexp(double(int8_t(d[0])), int8_t(d[1]) % 8); }

const float kSpecial[] = {0x1p-149f, 0x1p-140f, 0x1.fffffcp-127f, 0x1p-126f, 0x1p-60f, 0x1p-24f, 0.5f, 1.0f,
                          3.0f,      0x1p24f,   0x1.000002p24f,   0x1p60f,   0x1p100f, 0x1.fffffep127f};
const double kSpecialDouble[] = {0x1p-1074, 0x1p-1060, 0x1.ffffffffffffep-1023, 0x1p-1022, 0x1p-500, 0x1p-53,
                                 0.5,       1.0,       3.0,                     0x1p53,    0x1.0000000000001p53,
                                 0x1p-24,   0x1p24,    0x1p500,                 0x1.fffffffffffffp1023};

/// Mantissa and exponent: a float's int24 * 2^(int8 % 61 - 23), or a
/// double's int48 * 2^(int16 % 1001 - 47).
double mantissa_exponent(const uint8_t* d) {
    if (single()) {
        const int32_t m = int32_t(uint32_t(d[0]) << 8 | uint32_t(d[1]) << 16 | uint32_t(d[2]) << 24) >> 8;
        return std::ldexp(float(m), int8_t(d[3]) % 61 - 23);
    }
    uint64_t u = 0;
    for (int i = 0; i < 6; ++i) u |= uint64_t(d[i]) << (8 * (i + 2));
    const int64_t m = int64_t(u) >> 16;
    const int e = int16_t(uint16_t(d[6] | d[7] << 8)) % 1001 - 47;
    return std::ldexp(double(m), e);
}

/// The offsets of the lo and hi of every box (keys X.lo and X.hi).
std::vector<std::pair<size_t, size_t>> find_boxes(const Family& f) {
    std::vector<std::pair<size_t, size_t>> out;
    for (const InputKey& k : f.inputs) {
        const size_t n = k.key.size();
        if (n < 3 || k.key.compare(n - 3, 3, ".lo") != 0) continue;
        const std::string hi = k.key.substr(0, n - 3) + ".hi";
        for (const InputKey& h : f.inputs)
            if (h.key == hi) out.push_back({f.offset(k.key), f.offset(hi)});
    }
    return out;
}

/// The family's boxes, found once per thread (a fuzz target decodes a
/// million inputs a second).
const std::vector<std::pair<size_t, size_t>>& boxes(const Family& f) {
    thread_local std::map<const Family*, std::vector<std::pair<size_t, size_t>>> found;
    auto at = found.find(&f);
    if (at == found.end()) at = found.emplace(&f, find_boxes(f)).first;
    return at->second;
}

/// gen_kinds(f), found once per thread and precision.
const std::vector<std::string>& kinds_of(const Family& f) {
    thread_local std::map<std::pair<const Family*, Precision>, std::vector<std::string>> found;
    const auto key = std::make_pair(&f, precision());
    auto at = found.find(key);
    if (at == found.end()) at = found.emplace(key, gen_kinds(f)).first;
    return at->second;
}

Inputs decode_slots(const Family& f, const uint8_t* b) {
    const size_t n = f.size();
    Inputs in(n, 0.0);
    for (size_t s = 0; s < n; ++s) {
        const uint8_t c = b[kHeader + slot_bytes() * s];
        const uint8_t* d = &b[kHeader + slot_bytes() * s + 1];
        const size_t src = d[0] % n;
        const double earlier = src < s ? in[src] : 0.0;
        double v = 0;
        switch (c % 8) {
            case 0: v = from_bits(d); break;
            case 1: v = grid(d); break;
            case 2: v = earlier; break;
            case 3: v = nudge(earlier, int8_t(d[1]) % 5); break;
            case 4: {
                // The same axis as this slot, in a group of threes: step back.
                size_t at = src;
                while (at >= s && at >= 3) at -= 3;
                v = at < s && at % 3 == s % 3 ? in[at] : grid(d);
                break;
            }
            case 5: v = (d[0] & 1) ? -0.0 : 0.0; break;
            case 6:
                v = (single() ? double(kSpecial[d[0] % std::size(kSpecial)])
                              : kSpecialDouble[d[0] % std::size(kSpecialDouble)]) *
                    ((d[1] & 1) ? -1.0 : 1.0);
                break;
            case 7: v = mantissa_exponent(d); break;
        }
        in[s] = v;
    }
    if (b[0] & kScale) {
        // 2^k, k = int8 clamped to [-60, 60] (float), or int8 * 8 (double).
        const int k = single() ? std::clamp(int(int8_t(b[1])), -60, 60) : int(int8_t(b[1])) * 8;
        bool exact = true;
        for (double x : in) exact = exact && scales_exactly(x, k);
        if (exact)
            for (double& x : in) x = std::ldexp(x, k);
    }
    return in;
}

}  // namespace

size_t fuzz_bytes(const Family& f) { return kHeader + slot_bytes() * f.size(); }

std::optional<Inputs> case_in_bytes(const Family& f, const uint8_t* data, size_t size) {
    // A case file's text starts with a comment or its first key; binary
    // input that happens to start so fails to parse at its first line.
    if (size < 8 || (data[0] != '#' && data[0] != 'f')) return std::nullopt;
    const ReadResult r = parse_case(std::string(reinterpret_cast<const char*>(data), size), "(fuzz input)");
    const FamilyCase* c = std::get_if<FamilyCase>(&r);
    if (!c || c->family->name != f.name || c->precision != precision()) return std::nullopt;  // by name: the target's family may be declared
    return c->in;
}

Inputs decode_fuzz(const Family& f, const uint8_t* data, size_t size, const Domain& domain) {
    Inputs in;
    if (auto c = case_in_bytes(f, data, size)) {
        in = std::move(*c);
    } else if (size > 0 && (data[0] & kConstruction)) {
        const std::vector<std::string>& kinds = kinds_of(f);
        const std::string& kind = kinds[(size > 1 ? data[1] : 0) % kinds.size()];
        ByteSource s(data + std::min(size, kHeader), size - std::min(size, kHeader));
        in = generate(f, s, kind).in;
    } else {
        // The bytes padded with zeros to the layout's length (on the stack:
        // a target decodes a million inputs a second).
        uint8_t b[kHeader + 9 * 64] = {};
        const size_t n = fuzz_bytes(f);
        if (n > sizeof b) throw std::logic_error(f.name + ": more inputs than the fuzz decoder's 64 slots");
        if (size > 0) std::memcpy(b, data, std::min(size, n));  // data may be null at 0
        in = decode_slots(f, b);
    }
    for (const auto& [lo, hi] : boxes(f))
        for (size_t i = 0; i < 3; ++i)
            if (in[lo + i] > in[hi + i]) std::swap(in[lo + i], in[hi + i]);
    if (domain.narrows()) {
        ByteSource s(data, size);  // the choices of fit_domain
        fit_domain(f, in, s, domain);
    }
    return in;
}

std::vector<uint8_t> encode_fuzz(const Family& f, const Inputs& in) {
    std::vector<uint8_t> out(fuzz_bytes(f), 0);
    for (size_t s = 0; s < f.size(); ++s) to_bits(in[s], &out[kHeader + slot_bytes() * s + 1]);
    return out;
}

size_t mutate_fuzz(const Family& f, uint8_t* data, size_t size, size_t max_size, unsigned seed) {
    const size_t bytes = fuzz_bytes(f), n = f.size();
    if (max_size < bytes) return 0;
    std::minstd_rand rng(seed);
    const auto pick = [&](size_t k) { return size_t(rng() % k); };
    if (case_in_bytes(f, data, size)) {
        // A seed case's text: its input as raw slots, then mutated below.
        const std::vector<uint8_t> raw = encode_fuzz(f, decode_fuzz(f, data, size));
        std::memcpy(data, raw.data(), bytes);
        size = bytes;
    } else if (size > 0 && (data[0] & kConstruction) && pick(4) != 0) {
        // A construction: mostly rewrite it as raw slots and go on below.
        const std::vector<uint8_t> raw = encode_fuzz(f, decode_fuzz(f, data, size));
        std::memcpy(data, raw.data(), bytes);
        size = bytes;
    } else if (size > 0 && (data[0] & kConstruction)) {
        return 0;  // libFuzzer's own byte mutations steer the construction
    }
    if (size < bytes) std::memset(data + size, 0, bytes - size);
    const Inputs in = decode_fuzz(f, data, bytes);
    const size_t s = pick(n);
    uint8_t* c = &data[kHeader + slot_bytes() * s];
    const double x = in[s];
    double y = x;
    switch (pick(11)) {
        case 0: y = nudge(x, int(pick(9)) - 4); break;                    // ulp steps
        case 1: y = std::round(x); break;                                 // snap to an integer
        case 2: {                                                         // fewer mantissa bits
            const int k = int(pick(21)) - 10;
            y = std::ldexp(std::round(std::ldexp(x, -k)), k);
            break;
        }
        case 3: y = -x; break;                                            // sign flip
        case 4: y = std::ldexp(x, int(pick(17)) - 8); break;              // power-of-two scale
        case 5: y = in[pick(n)]; break;                                   // copy a value
        case 6:                                                           // a new slot construction
            for (size_t i = 0; i < slot_bytes(); ++i) c[i] = uint8_t(rng());
            return bytes;
        case 7:                                                           // the scale flag and exponent
            data[0] ^= kScale;
            if (pick(2)) data[1] = uint8_t(int(pick(121)) - 60);
            return bytes;
        case 8: {                                                         // a new family construction
            data[0] = kConstruction;
            for (size_t i = 1; i < bytes; ++i) data[i] = uint8_t(rng());
            return bytes;
        }
        case 9:
        case 10: {  // a point onto the line of two others (v = 2 p - q, rounded): collinear or a sliver
            std::vector<size_t> groups;  // keys of three or more points
            for (const InputKey& k : f.inputs)
                if (k.count >= 9 && k.count % 3 == 0) groups.push_back(f.offset(k.key));
            if (groups.empty()) break;
            const size_t g = groups[pick(groups.size())];
            size_t points = 0;
            for (const InputKey& k : f.inputs)
                if (f.offset(k.key) == g) points = size_t(k.count) / 3;
            const size_t k = pick(points), p = (k + 1) % points, q = (k + 2) % points;
            for (size_t i = 0; i < 3; ++i) {
                uint8_t* slot = &data[kHeader + slot_bytes() * (g + 3 * k + i)];
                slot[0] = 0;
                // to_bits rounds it to the precision, as the kernel's own arithmetic would.
                to_bits(2.0 * in[g + 3 * p + i] - in[g + 3 * q + i], slot + 1);
            }
            return bytes;
        }
    }
    *c = 0;  // raw
    to_bits(y, c + 1);
    return bytes;
}

}  // namespace isect::check
