// aabb_triangle for the fuzzers: the byte layout, the float-aware mutator,
// the exact deciding axis, and the oracle every fuzz target runs.
//
// Byte layout (77 bytes; shorter input is padded with zeros):
//   byte 0   flags, applied after the slots:
//            bit 0  axis-parallel edge: v1 takes v0's coordinates but one
//                   (axis = (byte1 >> 4) % 3)
//            bit 1  repeated vertex: v2 = v1
//            bit 2  sliver: v2 = v0 + 2 (v1 - v0), rounded to float
//            bit 3  scale everything by 2^k, k = int8(byte 1) clamped to
//                   [-60, 60], when that is exact
//   byte 1   the scale exponent (and the axis of bit 0)
//   then 15 slots, box.lo xyz, box.hi xyz, tri a xyz, b xyz, c xyz; each a
//   control byte c and four data bytes d0..d3. c % 8 picks the value:
//     0  raw: d0..d3 are the float's bits, little-endian (NaN, inf possible)
//     1  grid: int8(d0) * 2^(int8(d1) % 8)
//     2  copy: the value of slot d0 % 15 if it comes earlier, else 0
//     3  neighbour: slot d0 % 15 (earlier, else 0) moved int8(d1) % 5 ulps
//     4  snap: a triangle coordinate takes box.lo or box.hi of its axis (d0 & 1);
//        box.hi takes box.lo (a flat box); box.lo is a grid value as in 1
//     5  zero, negative when d0 & 1
//     6  special: a table of subnormal, tiny, huge and round values (d0),
//        negated when d1 & 1
//     7  mantissa and exponent: int24(d0..d2) * 2^(int8(d3) % 61 - 23)
//   A box whose lo > hi on an axis has the two swapped.
#include <cmath>
#include <cstring>
#include <optional>
#include <random>

#include "isect/check/aabb_triangle.hpp"
#include "isect/ref/aabb_triangle.hpp"

namespace isect::check {

namespace {

constexpr int kSlots = 15;
constexpr size_t kHeader = 2;

float* slot_ptr(AabbTriangleInput& in, int s) {
    if (s < 3) return &in.box.lo[s];
    if (s < 6) return &in.box.hi[s - 3];
    return &in.tri.v[(s - 6) / 3][(s - 6) % 3];
}

int slot_axis(int s) { return s < 6 ? s % 3 : (s - 6) % 3; }

float from_bits(const uint8_t* d) {
    uint32_t u = uint32_t(d[0]) | uint32_t(d[1]) << 8 | uint32_t(d[2]) << 16 | uint32_t(d[3]) << 24;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

void to_bits(float f, uint8_t* d) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    for (int i = 0; i < 4; ++i) d[i] = uint8_t(u >> (8 * i));
}

float nudge(float x, int steps) {
    for (int i = 0; i < std::abs(steps); ++i) x = std::nextafter(x, steps > 0 ? INFINITY : -INFINITY);
    return x;
}

float grid(const uint8_t* d) { return std::ldexp(float(int8_t(d[0])), int8_t(d[1]) % 8); }

const float kSpecial[] = {0x1p-149f, 0x1p-140f, 0x1.fffffcp-127f, 0x1p-126f, 0x1p-60f, 0x1p-24f, 0.5f, 1.0f,
                          3.0f,      0x1p24f,   0x1.000002p24f,   0x1p60f,   0x1p100f, 0x1.fffffep127f};

}  // namespace

AabbTriangleInput decode_aabb_triangle(const uint8_t* data, size_t size) {
    uint8_t b[kAabbTriangleFuzzBytes] = {};
    std::memcpy(b, data, std::min(size, kAabbTriangleFuzzBytes));
    AabbTriangleInput in;
    in.kind = "fuzz";
    for (int s = 0; s < kSlots; ++s) {
        const uint8_t c = b[kHeader + 5 * s];
        const uint8_t* d = &b[kHeader + 5 * s + 1];
        const int src = d[0] % kSlots;
        const float earlier = src < s ? *slot_ptr(in, src) : 0.0f;
        float v = 0;
        switch (c % 8) {
            case 0: v = from_bits(d); break;
            case 1: v = grid(d); break;
            case 2: v = earlier; break;
            case 3: v = nudge(earlier, int8_t(d[1]) % 5); break;
            case 4:
                if (s >= 6) v = (d[0] & 1) ? in.box.hi[slot_axis(s)] : in.box.lo[slot_axis(s)];
                else if (s >= 3) v = in.box.lo[s - 3];
                else v = grid(d);
                break;
            case 5: v = (d[0] & 1) ? -0.0f : 0.0f; break;
            case 6: v = kSpecial[d[0] % std::size(kSpecial)] * ((d[1] & 1) ? -1.0f : 1.0f); break;
            case 7: {
                const int32_t m = int32_t(uint32_t(d[0]) << 8 | uint32_t(d[1]) << 16 | uint32_t(d[2]) << 24) >> 8;
                v = std::ldexp(float(m), int8_t(d[3]) % 61 - 23);
                break;
            }
        }
        *slot_ptr(in, s) = v;
    }
    auto& t = in.tri.v;
    if (b[0] & 1) {
        const int keep = (b[1] >> 4) % 3;
        for (int i = 0; i < 3; ++i)
            if (i != keep) t[1][i] = t[0][i];
    }
    if (b[0] & 2) t[2] = t[1];
    if (b[0] & 4)
        for (int i = 0; i < 3; ++i) t[2][i] = t[0][i] + 2.0f * (t[1][i] - t[0][i]);
    if (b[0] & 8) {
        const int k = std::clamp(int(int8_t(b[1])), -60, 60);
        if (scaling_is_exact(in, k)) in = scale_pow2(in, k);
    }
    for (int i = 0; i < 3; ++i)
        if (in.box.lo[i] > in.box.hi[i]) std::swap(in.box.lo[i], in.box.hi[i]);
    return in;
}

std::vector<uint8_t> encode_aabb_triangle(const AabbTriangleInput& in) {
    std::vector<uint8_t> out(kAabbTriangleFuzzBytes, 0);
    AabbTriangleInput copy = in;
    for (int s = 0; s < kSlots; ++s) to_bits(*slot_ptr(copy, s), &out[kHeader + 5 * s + 1]);
    return out;
}

size_t mutate_aabb_triangle(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
    if (max_size < kAabbTriangleFuzzBytes) return 0;
    if (size < kAabbTriangleFuzzBytes) std::memset(data + size, 0, kAabbTriangleFuzzBytes - size);
    std::minstd_rand rng(seed);
    const auto pick = [&](int n) { return int(rng() % unsigned(n)); };
    AabbTriangleInput in = decode_aabb_triangle(data, kAabbTriangleFuzzBytes);
    const int s = pick(kSlots);
    uint8_t* c = &data[kHeader + 5 * s];
    const float x = *slot_ptr(in, s);
    float y = x;
    switch (pick(10)) {
        case 0: y = nudge(x, pick(9) - 4); break;                          // ulp steps
        case 1: y = std::round(x); break;                                  // snap to an integer
        case 2: {                                                          // fewer mantissa bits
            const int k = pick(21) - 10;
            y = std::ldexp(std::round(std::ldexp(x, -k)), k);
            break;
        }
        case 3: y = -x; break;                                             // sign flip
        case 4: y = std::ldexp(x, pick(17) - 8); break;                    // power-of-two scale
        case 5: y = *slot_ptr(in, pick(kSlots)); break;                    // copy a coordinate
        case 6:                                                            // a new construction
            *c = uint8_t(rng());
            for (int i = 1; i < 5; ++i) c[i] = uint8_t(rng());
            return kAabbTriangleFuzzBytes;
        case 7:                                                            // flags and scale
            data[0] ^= uint8_t(1u << pick(4));
            if (pick(2)) data[1] = uint8_t(pick(121) - 60);
            return kAabbTriangleFuzzBytes;
        case 8:
        case 9: {  // a vertex onto the line of the other two (v = 2 p - q, rounded): collinear or a sliver
            const int k = pick(3);
            const auto& p = in.tri.v[(k + 1) % 3];
            const auto& q = in.tri.v[(k + 2) % 3];
            for (int i = 0; i < 3; ++i) {
                uint8_t* slot = &data[kHeader + 5 * (6 + 3 * k + i)];
                slot[0] = 0;
                to_bits(2.0f * p[i] - q[i], slot + 1);
            }
            return kAabbTriangleFuzzBytes;
        }
    }
    *c = 0;  // raw
    to_bits(y, c + 1);
    return kAabbTriangleFuzzBytes;
}

namespace {

/// a + b rounded down (dir < 0) or up (dir > 0): TwoSum gives the exact
/// error of the rounded sum, whose sign says which way it rounded.
double add_directed(double a, double b, int dir) {
    const double s = a + b;
    const double bb = s - a;
    const double err = (a - (s - bb)) + (b - bb);  // a + b == s + err exactly
    if (dir < 0 && err < 0) return std::nextafter(s, -INFINITY);
    if (dir > 0 && err > 0) return std::nextafter(s, INFINITY);
    return s;
}

// A false miss is in the band iff the box shrunk by delta misses, a false
// hit iff the box grown by delta hits. Rounding is directed so the box tested
// contains the shrunk box (if it misses, so does the shrunk one), or lies in
// the grown box (if it hits, so does the grown one); delta rounds down.
}  // namespace

bool aabb_triangle_fast_proves_in_band(const AabbTriangleInput& in, bool exact, double k) {
    const double x = std::ldexp(double(largest_magnitude(in.box, in.tri)), -24);
    double delta = k * x;
    if (std::fma(k, x, -delta) < 0) delta = std::nextafter(delta, 0.0);
    if (!(delta > 0) || !std::isfinite(delta)) return false;
    std::array<double, 3> lo, hi;
    for (int i = 0; i < 3; ++i) {
        lo[i] = exact ? add_directed(in.box.lo[i], delta, -1) : add_directed(in.box.lo[i], -delta, +1);
        hi[i] = exact ? add_directed(in.box.hi[i], -delta, +1) : add_directed(in.box.hi[i], delta, -1);
        if (!std::isfinite(lo[i]) || !std::isfinite(hi[i])) return false;
    }
    return ref::aabb_triangle_cgal_fast(lo, hi, in.tri) != exact;
}

namespace {

/// Whether a disagreement with the fast oracle could break the contract:
/// false only when the fast band check proves it allowed.
bool maybe_violates(const AabbTriangleKernel& k, const AabbTriangleInput& in, bool fast, bool answer) {
    if (answer == fast) return false;
    switch (k.contract.kind) {
        case Contract::Kind::exact: return true;
        case Contract::Kind::conservative: return !answer;
        case Contract::Kind::tolerant: return !aabb_triangle_fast_proves_in_band(in, fast, k.contract.k);
    }
    return true;
}

}  // namespace

std::optional<Finding> fuzz_aabb_triangle(const std::vector<const AabbTriangleKernel*>& kernels,
                                          const AabbTriangleInput& in, bool cross_check) {
    if (!aabb_triangle_in_domain(in.box, in.tri)) {
        // No exact answer: the kernels must only return (sanitizers watch).
        volatile bool sink = false;
        for (const AabbTriangleKernel* k : kernels) sink = sink ^ k->fn(in.box, in.tri);
        return std::nullopt;
    }
    // Hot path: the fast exact oracle, and the band decided on double boxes.
    // The rational references run only where a contract may be broken, and
    // on the sampled inputs.
    const bool fast = ref::aabb_triangle_cgal_fast(in.box, in.tri);
    bool suspicious = cross_check;
    for (const AabbTriangleKernel* k : kernels)
        suspicious = suspicious || maybe_violates(*k, in, fast, k->fn(in.box, in.tri));
    if (!suspicious) return std::nullopt;

    bool exact;
    try {
        exact = aabb_triangle_truth(in.box, in.tri);
    } catch (const ReferenceMismatch& e) {
        const bool clip = ref::aabb_triangle_clip(ref::exact(in.box), ref::exact(in.tri));
        return Finding{"references", "references|disagree", e.what(), clip};
    }
    if (exact != fast)
        return Finding{"references", "references|cgal_fast",
                       std::string("the fast CGAL oracle says ") + (fast ? "overlap" : "disjoint") +
                           ", both rational references say " + (exact ? "overlap" : "disjoint"),
                       exact};
    for (const AabbTriangleKernel* k : kernels) {
        if (!violates(*k, in, exact)) continue;
        const bool false_hit = !exact;
        const std::string decided = false_hit ? aabb_triangle_deciding_axis(in.box, in.tri)
                                              : (aabb_triangle_band(in.box, in.tri, exact) == 0 ? "touching" : "interior");
        return Finding{k->name, k->name + "|" + k->contract.str() + "|" + (false_hit ? "false hit|" : "false miss|") + decided,
                       "kernel " + k->name + " (" + k->contract.str() + ") answers " + (false_hit ? "overlap" : "disjoint") +
                           (false_hit ? "; separated exactly by " + decided : "; the sets meet (" + decided + ")"),
                       exact};
    }
    return std::nullopt;
}

}  // namespace isect::check
