#include "isect/check/family_gen.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace isect::check::gen {

using rc::gen::inRange;

float grid(int n) { return float(*inRange(-n, n + 1)); }

Vec3f grid_point(int n) { return {grid(n), grid(n), grid(n)}; }

float uniform(int e) { return std::ldexp(float(*inRange<int32_t>(-(1 << 24), (1 << 24) + 1)), e - 24); }

Aabb box_between(const Vec3f& p, const Vec3f& q) {
    Aabb b;
    for (int i = 0; i < 3; ++i) {
        b.lo[i] = std::min(p[i], q[i]);
        b.hi[i] = std::max(p[i], q[i]);
    }
    return b;
}

Aabb grid_box(int n) {
    const Vec3f p = grid_point(n);
    Vec3f q = grid_point(n);
    switch (*inRange(0, 8)) {
        case 0: q = p; break;                          // a point box
        case 1: q[size_t(*inRange(0, 3))] = p[0]; break;  // often flat
        default: break;
    }
    return box_between(p, q);
}

void put(Floats& out, const Vec3f& v) { out.insert(out.end(), v.begin(), v.end()); }
void put(Floats& out, const Aabb& b) {
    put(out, b.lo);
    put(out, b.hi);
}
void put(Floats& out, const Triangle& t) {
    for (const Vec3f& v : t.v) put(out, v);
}

namespace {

const std::vector<std::string> kTransforms = {"magnitude", "subnormal", "ulp", "zero_sign"};

Floats transform(const std::string& kind, Floats in) {
    if (kind == "magnitude") {
        const int k = *inRange(-60, 61);
        for (float& x : in) x = std::ldexp(x, k);
    } else if (kind == "subnormal") {
        if (*rc::gen::arbitrary<bool>()) {
            const int k = *inRange(-150, -120);
            for (float& x : in) x = std::ldexp(x, k);
        } else {
            for (float& x : in)
                if (*inRange(0, 4) == 0) x = *rc::gen::element(0.0f, -0.0f);
        }
    } else if (kind == "ulp") {
        const int n = *inRange(1, 4);
        for (int i = 0; i < n; ++i) {
            float& x = in[size_t(*inRange<size_t>(0, in.size()))];
            const int steps = *rc::gen::element(-2, -1, 1, 2);
            for (int s = 0; s < std::abs(steps); ++s)
                x = std::nextafter(x, steps > 0 ? INFINITY : -INFINITY);
        }
    } else if (kind == "zero_sign") {
        for (float& x : in)
            if (x == 0) x = *rc::gen::element(0.0f, -0.0f);
    }
    return in;
}

}  // namespace

std::vector<std::string> mix_kinds(const Mixes& mixes) {
    std::vector<std::string> kinds;
    for (const auto& m : mixes) kinds.push_back(m.first);
    kinds.insert(kinds.end(), kTransforms.begin(), kTransforms.end());
    return kinds;
}

rc::Gen<Generated> family_mix(const Family& f, const Mixes& mixes, const std::string& kind) {
    const auto base = [mixes](const std::string& k) -> Floats {
        if (k.empty()) return mixes[size_t(*inRange<size_t>(0, mixes.size()))].second();
        for (const auto& m : mixes)
            if (m.first == k) return m.second();
        throw std::invalid_argument("no generator kind " + k);
    };
    const auto kinds = mix_kinds(mixes);
    if (!kind.empty() && std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
        throw std::invalid_argument(f.name + " has no generator kind '" + kind + "'");
    const Family* fam = &f;
    return rc::gen::exec([=]() -> Generated {
        // Each kind equally often: the family's mixes as made, or a shared
        // transform of any of them.
        std::string k = kind;
        if (k.empty()) k = kinds[size_t(*inRange<size_t>(0, kinds.size()))];
        if (std::find(kTransforms.begin(), kTransforms.end(), k) == kTransforms.end()) return {k, base(k), fam};
        const Floats made = base("");
        Floats out = transform(k, made);
        return {k, fam->domain(out.data()).empty() ? out : made, fam};
    });
}

void use_mixes(Family& f, const Family& (*self)(), Mixes (*mixes)()) {
    f.gen_kinds = mix_kinds(mixes());
    f.gen = [self, mixes](const std::string& kind) { return family_mix(self(), mixes(), kind); };
}

}  // namespace isect::check::gen
