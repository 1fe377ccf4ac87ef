#include "check/model/generate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace isect::check {

namespace {

/// An integer in [-n, n], uniform, 0 first, then 1, -1, 2, -2...
int64_t signed_int(Source& s, int64_t n) {
    const int64_t v = int64_t(s.below(uint64_t(2 * n + 1)));
    return v % 2 ? (v + 1) / 2 : -(v / 2);
}

enum class TransformKind { magnitude, subnormal, ulp, zero_sign, full_mantissa };

struct Transform {
    const char* kind;
    TransformKind what;
    int weight;
};
/// The shared transforms. full_mantissa runs in double runs only: the
/// constructions build floats, and this one gives some of their numbers the
/// 29 low bits a double has and a float has not.
constexpr Transform kTransforms[] = {{"magnitude", TransformKind::magnitude, 1},
                                     {"subnormal", TransformKind::subnormal, 1},
                                     {"ulp", TransformKind::ulp, 1},
                                     {"zero_sign", TransformKind::zero_sign, 1},
                                     {"full_mantissa", TransformKind::full_mantissa, 1}};

bool transform_runs(const Transform& t, Precision p = precision()) {
    return p == Precision::double_ || t.what != TransformKind::full_mantissa;
}

const Transform* transform_named(std::string_view kind) {
    for (const Transform& t : kTransforms)
        if (kind == t.kind) return &t;
    return nullptr;
}

/// An exponent in [-60, 60], or half the time from the ends, where products
/// of three inputs leave the precision's range: |k| in 40..60 for float, in
/// 300..1000 for double.
int magnitude_exponent(Source& s) {
    if (!s.coin()) return int(signed_int(s, 60));
    const int k = precision() == Precision::single ? s.range(40, 61) : s.range(300, 1001);
    return s.coin() ? -k : k;
}

/// The parameters' numbers (tmax), bit i for input number i: scaling the
/// geometry by 2^k leaves them as they are (o + t d scales with o and d at
/// every t). Read from the keys once per use, not once per number.
uint64_t parameters(const Family& f) {
    uint64_t mask = 0;
    size_t at = 0;
    for (const InputKey& k : f.inputs) {
        if (k.role == Role::parameter)
            for (int i = 0; i < k.count && at + size_t(i) < 64; ++i) mask |= uint64_t(1) << (at + size_t(i));
        at += size_t(k.count);
    }
    return mask;
}

bool parameter_at(uint64_t parameters, size_t i) { return i < 64 && (parameters >> i & 1); }

bool scaling_exact(uint64_t params, const Inputs& in, size_t from, size_t to, int k) {
    for (size_t i = from; i < to; ++i)
        if (!parameter_at(params, i) && !scales_exactly(in[i], k)) return false;
    return true;
}

/// x 2^k, as ldexp gives it: a product with 2^k where that is a normal
/// double (the product is then ldexp's own rounding of the exact value),
/// which costs a fraction of ldexp; ldexp elsewhere.
double times_two_to(double x, int k) {
    if (k < -1022 || k > 1023) return std::ldexp(x, k);
    const uint64_t bits = uint64_t(k + 1023) << 52;
    double two_k;
    std::memcpy(&two_k, &bits, sizeof two_k);
    return x * two_k;
}

/// Scales numbers [from, to) but parameters by 2^k, rounding to the
/// precision (into its subnormals, to zero or to inf) as its own ldexp
/// would: a float's x 2^k is exact in double, then rounded once.
void scale(uint64_t params, Inputs& in, size_t from, size_t to, int k) {
    const Precision p = precision();
    for (size_t i = from; i < to; ++i)
        if (std::isfinite(in[i]) && !parameter_at(params, i)) in[i] = to_precision(times_two_to(in[i], k), p);
}

/// Applies a transform to `in`, in place.
void transform(const Family& f, TransformKind kind, Inputs& in, Source& s) {
    const uint64_t params = parameters(f);
    if (kind == TransformKind::magnitude) {
        const int k = magnitude_exponent(s);
        if (f.inputs.size() > 1 && s.range(0, 3) == 0) {  // one group at a magnitude of its own
            const size_t g = s.range<size_t>(0, f.inputs.size());
            const size_t from = f.offset(f.inputs[g].key), to = from + size_t(f.inputs[g].count);
            const int kg = magnitude_exponent(s);
            scale(params, in, 0, from, k);
            scale(params, in, from, to, kg);
            scale(params, in, to, in.size(), k);
        } else {
            scale(params, in, 0, in.size(), k);
        }
    } else if (kind == TransformKind::subnormal) {
        if (s.coin()) {
            const bool single = precision() == Precision::single;
            scale(params, in, 0, in.size(), single ? s.range(-150, -120) : s.range(-1075, -1020));
        } else {
            for (double& x : in)
                if (s.range(0, 4) == 0) x = s.pick(0.0, -0.0);
        }
    } else if (kind == TransformKind::ulp) {
        const int n = s.range(1, 4);
        for (int i = 0; i < n; ++i) {
            double& x = in[s.range<size_t>(0, in.size())];
            const int steps = s.pick(1, -1, 2, -2);
            for (int k = 0; k < std::abs(steps); ++k) x = next_in_precision(x, steps > 0 ? INFINITY : -INFINITY);
        }
    } else if (kind == TransformKind::zero_sign) {
        for (double& x : in)
            if (x == 0) x = s.pick(0.0, -0.0);
    } else if (kind == TransformKind::full_mantissa) {
        // Random low bits on one number in four (or on every one): the
        // construction's relations (touching, coplanar) then hold only to
        // within an ulp of a float, which is far from a double's ulp.
        const bool all = s.coin();
        for (double& x : in) {
            if (!std::isfinite(x) || x == 0 || (!all && s.range(0, 4) != 0)) continue;
            int e;
            const double m = std::frexp(x, &e);
            const double low = std::ldexp(double(s.below(uint64_t(1) << 29)), -53);  // below a float's last bit
            const double y = std::ldexp(std::fabs(m) + low, e);
            if (std::isfinite(y)) x = std::copysign(y, x);
        }
    }
}

const Mix& pick_mix(const Family& f, Source& s) {
    int total = 0;
    for (const Mix& m : f.mixes) total += m.weight;
    int at = s.range(0, total);
    for (const Mix& m : f.mixes)
        if ((at -= m.weight) < 0) return m;
    return f.mixes.back();
}

/// Transform t applied to an input of one of f's mixes, picked by weight;
/// the untransformed input where the result leaves f's domain.
/// Sets *in_domain when the result is known to be in f's domain (the
/// transformed input was asked; the untransformed one was not).
Generated transformed(const Family& f, const Transform& t, Source& s, bool* in_domain) {
    Generated g{t.kind, pick_mix(f, s).make(s), &f};
    // The input as made, kept where a thread keeps it (a copy per case was
    // an allocation per case).
    thread_local Inputs made;
    made.assign(g.in.begin(), g.in.end());
    transform(f, t.what, g.in, s);
    *in_domain = f.in_domain(g.in.data(), nullptr);
    if (!*in_domain) g.in.swap(made);
    return g;
}

/// One input of a given kind ("" picks one by weight); *in_domain says
/// whether it is known to be in f's domain (a construction's is not). The
/// pick is by place, not by name: it is made for every case.
Generated make(const Family& f, Source& s, const std::string& kind, bool* in_domain) {
    *in_domain = false;
    if (kind.empty()) {
        const Precision p = precision();  // asked once, not per transform
        int total = 0;
        for (const Mix& m : f.mixes) total += m.weight;
        for (const Transform& t : kTransforms)
            if (transform_runs(t, p)) total += t.weight;
        int at = s.range(0, total);
        for (const Mix& m : f.mixes)
            if ((at -= m.weight) < 0) return {m.kind, m.make(s), &f};
        for (const Transform& t : kTransforms)
            if (transform_runs(t, p) && (at -= t.weight) < 0) return transformed(f, t, s, in_domain);
        throw std::logic_error("make: a weight beyond the total");
    }
    for (const Mix& m : f.mixes)
        if (m.kind == kind) return {m.kind, m.make(s), &f};
    if (const Transform* t = transform_named(kind)) return transformed(f, *t, s, in_domain);
    throw std::invalid_argument(f.name + " has no generator kind '" + kind + "'");
}

}  // namespace

std::vector<std::string> gen_kinds(const Family& f) {
    std::vector<std::string> kinds;
    for (const Mix& m : f.mixes) kinds.push_back(m.kind);
    for (const Transform& t : kTransforms)
        if (transform_runs(t)) kinds.push_back(t.kind);
    return kinds;
}

namespace {

/// Adapts an input to the required preconditions f has; true when one
/// changed it.
bool meet_preconditions(const Family& f, Inputs& in, Source& s, const Domain& domain) {
    bool changed = false;
    for (const std::string& name : domain.required)
        for (const Precondition& p : f.preconditions)
            if (p.name == name && !p.holds(in.data())) {
                p.adapt(in.data(), s, domain);
                changed = true;
            }
    return changed;
}

}  // namespace

bool fit_domain(const Family& f, Inputs& in, Source& s, const Domain& domain, bool* adapted) {
    if (!domain.narrows()) return f.in_domain(in.data(), nullptr);
    if (domain.everything()) {
        if (!f.in_domain(in.data(), nullptr)) return false;
        const bool changed = meet_preconditions(f, in, s, domain);
        if (adapted) *adapted = changed;
        // Unchanged, it met every required precondition already: asking
        // again would double what --require costs.
        return !changed || domain.judges(f, in.data());
    }
    const uint64_t params = parameters(f);
    double lo = INFINITY, hi = 0;  // over the numbers the domain bounds (not tmax)
    for (size_t i = 0; i < in.size(); ++i)
        if (std::isfinite(in[i]) && in[i] != 0 && !parameter_at(params, i)) {
            lo = std::min(lo, std::fabs(in[i]));
            hi = std::max(hi, std::fabs(in[i]));
        }
    if (hi > 0) {
        // Exponents k with lo 2^k >= domain.lo and hi 2^k <= domain.hi, from
        // differences of logarithms (a quotient of doubles overflows: 2^250
        // over a subnormal), clamped to where any scaling is already inexact.
        const auto exponent = [](double e) { return int(std::clamp(e, -5000.0, 5000.0)); };
        const double log_lo = domain.lo > 0 ? std::log2(domain.lo) : -5000.0;
        const int k_min = exponent(std::ceil(log_lo - std::log2(lo)));
        const int k_max = exponent(std::floor(std::log2(domain.hi) - std::log2(hi)));
        if (k_min <= k_max) {
            int k = std::clamp(0, k_min, k_max);
            if (s.coin()) k = k_min + s.range(0, k_max - k_min + 1);
            if (scaling_exact(params, in, 0, in.size(), k)) scale(params, in, 0, in.size(), k);
        } else {
            // Too wide a spread: the largest at the top of the domain, what
            // falls below it becomes zero.
            const int k = k_max;
            if (scaling_exact(params, in, 0, in.size(), k)) scale(params, in, 0, in.size(), k);
        }
        for (size_t i = 0; i < in.size(); ++i) {
            double& x = in[i];
            if (!std::isfinite(x) || x == 0 || parameter_at(params, i)) continue;
            if (std::fabs(x) < domain.lo) {
                x = std::copysign(0.0, x);
            } else if (std::fabs(x) > domain.hi) {
                // The largest number of the precision within the domain.
                double top = domain.hi;
                if (!representable(top)) top = to_precision(top) > top ? next_in_precision(to_precision(top), 0) : to_precision(top);
                x = std::copysign(top, x);
            }
        }
    }
    if (!domain.required.empty() && f.in_domain(in.data(), nullptr)) {
        const bool changed = meet_preconditions(f, in, s, domain);
        if (adapted) *adapted = changed;
    }
    return domain.judges(f, in.data());
}

Generated generate(const Family& f, Source& s, const std::string& kind, const Domain& domain) {
    for (int attempt = 0; attempt < 64; ++attempt) {
        bool in_domain = false;
        Generated g = make(f, s, kind, &in_domain);
        // Nothing to fit, and known in f's domain: asking again would cost
        // what the transform's own question did.
        if (in_domain && !domain.narrows()) return g;
        if (fit_domain(f, g.in, s, domain, &g.adapted)) return g;
    }
    throw std::runtime_error(f.name + ": no generated input of kind '" + kind + "' fits the domain " + domain.str());
}

Inputs out_of_domain(const Family& f, Source& s) {
    for (;;) {
        Inputs in = generate(f, s).in;
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
            in[at] = s.pick(INFINITY, -INFINITY, std::numeric_limits<double>::quiet_NaN());
        }
        if (!f.in_domain(in.data(), nullptr)) return in;
    }
}

namespace gen {

float grid(Source& s, int n) { return float(signed_int(s, n)); }

float ray_reach(Source& s) {
    return s.pick(INFINITY, INFINITY, std::numeric_limits<float>::max(), 1e30f, 0x1p100f, 1.0f, 2.0f, 0.5f, 4.0f, 0.0f);
}

Vec3f grid_point(Source& s, int n) {
    const float x = grid(s, n), y = grid(s, n);
    return {x, y, grid(s, n)};
}

float uniform(Source& s, int e) {
    const double m = double(signed_int(s, int64_t(1) << 24));  // |m| <= 2^24: exact
    // m 2^k is exact in double, and rounding it to float once gives float's
    // ldexp's number, for a fraction of its cost.
    return float(times_two_to(m, e - 24));
}

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

namespace {
/// Inputs whose room a thread can use again; at most a block's worth.
thread_local std::vector<Inputs> spares;
constexpr size_t kRoom = 32;  // every family's input at once: one allocation, not one per growth
}  // namespace

Inputs fresh() {
    Inputs in;
    if (!spares.empty()) {
        in.swap(spares.back());
        spares.pop_back();
        in.clear();
    } else {
        in.reserve(kRoom);
    }
    return in;
}

void recycle(Inputs&& in) {
    if (in.capacity() >= kRoom && spares.size() < 16384) spares.push_back(std::move(in));
}

void put(Inputs& out, const Vec3f& v) {
    if (out.capacity() == 0) out = fresh();
    for (float x : v) out.push_back(x);
}
void put(Inputs& out, const Aabb& b) {
    put(out, b.lo);
    put(out, b.hi);
}
void put(Inputs& out, const Triangle& t) {
    for (const Vec3f& v : t.v) put(out, v);
}

}  // namespace gen

}  // namespace isect::check
