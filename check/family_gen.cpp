#include "isect/check/family_gen.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace isect::check {

namespace {

/// An integer in [-n, n], uniform, 0 first, then 1, -1, 2, -2...
int64_t signed_int(Source& s, int64_t n) {
    const int64_t v = int64_t(s.below(uint64_t(2 * n + 1)));
    return v % 2 ? (v + 1) / 2 : -(v / 2);
}

struct Transform {
    const char* kind;
    int weight;
};
constexpr Transform kTransforms[] = {{"magnitude", 1}, {"subnormal", 1}, {"ulp", 1}, {"zero_sign", 1}};

bool is_transform(std::string_view kind) {
    for (const Transform& t : kTransforms)
        if (kind == t.kind) return true;
    return false;
}

/// An exponent in [-60, 60], half the time from the ends (|k| >= 40), where
/// products of three inputs leave float's range.
int magnitude_exponent(Source& s) {
    if (!s.coin()) return int(signed_int(s, 60));
    const int k = s.range(40, 61);
    return s.coin() ? -k : k;
}

bool scaling_exact(const Floats& in, size_t from, size_t to, int k) {
    for (size_t i = from; i < to; ++i) {
        const float x = in[i];
        if (!std::isfinite(x) || x == 0) continue;
        const float y = std::ldexp(x, k);
        if (!std::isfinite(y) || std::ldexp(y, -k) != x) return false;
    }
    return true;
}

void scale(Floats& in, size_t from, size_t to, int k) {
    for (size_t i = from; i < to; ++i)
        if (std::isfinite(in[i])) in[i] = std::ldexp(in[i], k);
}

Floats transform(const Family& f, std::string_view kind, Floats in, Source& s) {
    if (kind == "magnitude") {
        const int k = magnitude_exponent(s);
        if (f.inputs.size() > 1 && s.range(0, 3) == 0) {  // one group at a magnitude of its own
            const size_t g = s.range<size_t>(0, f.inputs.size());
            const size_t from = f.offset(f.inputs[g].key), to = from + size_t(f.inputs[g].count);
            const int kg = magnitude_exponent(s);
            scale(in, 0, from, k);
            scale(in, from, to, kg);
            scale(in, to, in.size(), k);
        } else {
            scale(in, 0, in.size(), k);
        }
    } else if (kind == "subnormal") {
        if (s.coin()) {
            scale(in, 0, in.size(), s.range(-150, -120));
        } else {
            for (float& x : in)
                if (s.range(0, 4) == 0) x = s.pick(0.0f, -0.0f);
        }
    } else if (kind == "ulp") {
        const int n = s.range(1, 4);
        for (int i = 0; i < n; ++i) {
            float& x = in[s.range<size_t>(0, in.size())];
            const int steps = s.pick(1, -1, 2, -2);
            for (int k = 0; k < std::abs(steps); ++k) x = std::nextafter(x, steps > 0 ? INFINITY : -INFINITY);
        }
    } else if (kind == "zero_sign") {
        for (float& x : in)
            if (x == 0) x = s.pick(0.0f, -0.0f);
    }
    return in;
}

const Mix& pick_mix(const Family& f, Source& s) {
    int total = 0;
    for (const Mix& m : f.mixes) total += m.weight;
    int at = s.range(0, total);
    for (const Mix& m : f.mixes)
        if ((at -= m.weight) < 0) return m;
    return f.mixes.back();
}

/// One input of a given kind ("" picks one by weight), in f's domain.
Generated make(const Family& f, Source& s, const std::string& kind) {
    std::string_view k = kind;
    if (k.empty()) {
        int total = 0;
        for (const Mix& m : f.mixes) total += m.weight;
        for (const Transform& t : kTransforms) total += t.weight;
        int at = s.range(0, total);
        for (const Mix& m : f.mixes)
            if (k.empty() && (at -= m.weight) < 0) k = m.kind;
        for (const Transform& t : kTransforms)
            if (k.empty() && (at -= t.weight) < 0) k = t.kind;
    }
    if (!is_transform(k)) {
        for (const Mix& m : f.mixes)
            if (m.kind == k) return {m.kind, m.make(s), &f};
        throw std::invalid_argument(f.name + " has no generator kind '" + std::string(k) + "'");
    }
    for (const Transform& t : kTransforms)
        if (k == t.kind) k = t.kind;  // the static name, whatever kind pointed into
    const Floats made = pick_mix(f, s).make(s);
    Floats out = transform(f, k, made, s);
    return {k, f.domain(out.data()).empty() ? std::move(out) : made, &f};
}

}  // namespace

std::vector<std::string> gen_kinds(const Family& f) {
    std::vector<std::string> kinds;
    for (const Mix& m : f.mixes) kinds.push_back(m.kind);
    for (const Transform& t : kTransforms) kinds.push_back(t.kind);
    return kinds;
}

bool fit_domain(const Family& f, Floats& in, Source& s, const Domain& domain) {
    if (domain.everything()) return f.domain(in.data()).empty();
    double lo = INFINITY, hi = 0;
    for (float x : in)
        if (std::isfinite(x) && x != 0) {
            lo = std::min(lo, double(std::fabs(x)));
            hi = std::max(hi, double(std::fabs(x)));
        }
    if (hi > 0) {
        // Exponents k with lo 2^k >= domain.lo and hi 2^k <= domain.hi.
        const int k_min = int(std::ceil(std::log2(domain.lo / lo))), k_max = int(std::floor(std::log2(domain.hi / hi)));
        if (k_min <= k_max) {
            int k = std::clamp(0, k_min, k_max);
            if (s.coin()) k = k_min + s.range(0, k_max - k_min + 1);
            if (scaling_exact(in, 0, in.size(), k)) scale(in, 0, in.size(), k);
        } else {
            // Too wide a spread: the largest at the top of the domain, what
            // falls below it becomes zero.
            const int k = int(std::floor(std::log2(domain.hi / hi)));
            if (scaling_exact(in, 0, in.size(), k)) scale(in, 0, in.size(), k);
        }
        for (float& x : in) {
            if (!std::isfinite(x) || x == 0) continue;
            if (std::fabs(double(x)) < domain.lo) x = std::copysign(0.0f, x);
            else if (std::fabs(double(x)) > domain.hi) x = std::copysign(float(domain.hi), x);
        }
    }
    return f.domain(in.data()).empty() && domain.outside(f, in.data()).empty();
}

Generated generate(const Family& f, Source& s, const std::string& kind, const Domain& domain) {
    for (int attempt = 0; attempt < 64; ++attempt) {
        Generated g = make(f, s, kind);
        if (fit_domain(f, g.in, s, domain)) return g;
    }
    throw std::runtime_error(f.name + ": no generated input of kind '" + kind + "' fits the domain " + domain.str());
}

Floats out_of_domain(const Family& f, Source& s) {
    for (;;) {
        Floats in = generate(f, s).in;
        const size_t at = s.range<size_t>(0, in.size());
        const std::string& key = [&]() -> const std::string& {
            size_t n = 0;
            for (const InputKey& k : f.inputs)
                if ((n += size_t(k.count)) > at) return k.key;
            return f.inputs.back().key;
        }();
        const size_t dot = key.rfind(".lo");
        if (s.range(0, 4) == 0 && dot != std::string::npos && dot + 3 == key.size()) {
            // lo above hi on one axis
            const size_t lo = f.offset(key) + at % 3, hi = f.offset(key.substr(0, dot) + ".hi") + at % 3;
            in[lo] = std::nextafter(std::max(in[lo], in[hi]), INFINITY);
        } else {
            in[at] = s.pick(INFINITY, -INFINITY, std::numeric_limits<float>::quiet_NaN());
        }
        if (!f.domain(in.data()).empty()) return in;
    }
}

namespace gen {

float grid(Source& s, int n) { return float(signed_int(s, n)); }

Vec3f grid_point(Source& s, int n) {
    const float x = grid(s, n), y = grid(s, n);
    return {x, y, grid(s, n)};
}

float uniform(Source& s, int e) { return std::ldexp(float(signed_int(s, int64_t(1) << 24)), e - 24); }

Vec3f uniform_point(Source& s, int e) {
    const float x = uniform(s, e), y = uniform(s, e);
    return {x, y, uniform(s, e)};
}

Aabb box_between(const Vec3f& p, const Vec3f& q) {
    Aabb b;
    for (int i = 0; i < 3; ++i) {
        b.lo[i] = std::min(p[i], q[i]);
        b.hi[i] = std::max(p[i], q[i]);
    }
    return b;
}

Aabb grid_box(Source& s, int n) {
    const Vec3f p = grid_point(s, n);
    Vec3f q = grid_point(s, n);
    switch (s.range(0, 8)) {
        case 1: q = p; break;                          // a point box
        case 2: q[s.range<size_t>(0, 3)] = p[0]; break;  // often flat
        default: break;
    }
    return box_between(p, q);
}

Aabb uniform_box(Source& s, int e) {
    const Vec3f p = uniform_point(s, e);
    return box_between(p, uniform_point(s, e));
}

void put(Floats& out, const Vec3f& v) { out.insert(out.end(), v.begin(), v.end()); }
void put(Floats& out, const Aabb& b) {
    put(out, b.lo);
    put(out, b.hi);
}
void put(Floats& out, const Triangle& t) {
    for (const Vec3f& v : t.v) put(out, v);
}

}  // namespace gen

}  // namespace isect::check
