#include "check/engine/symmetry.hpp"

#include <cmath>

#include "isect/exact.hpp"

namespace isect::check {

bool keeps_handedness(const Symmetry& s) {
    static constexpr bool kOdd[6] = {false, true, true, false, false, true};  // kPerms below
    const int mirrors = ((s.mirror >> 0) & 1) + ((s.mirror >> 1) & 1) + ((s.mirror >> 2) & 1);
    return (mirrors + (kOdd[s.perm % 6] ? 1 : 0) + (s.reverse ? 1 : 0)) % 2 == 0;
}

std::optional<Inputs> transformed(const Family& f, const Inputs& in, const Symmetry& s) {
    static constexpr int kPerms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const int* p = kPerms[s.perm % 6];
    const bool translates = s.translate[0] != 0 || s.translate[1] != 0 || s.translate[2] != 0;
    bool exact = true;
    const auto scaled = [&](double x) {
        if (!std::isfinite(x) || x == 0) return x;
        if (!scales_exactly(x, s.scale)) exact = false;
        return std::ldexp(x, s.scale);
    };
    const auto moved = [&](double x, int axis) {
        const double y = scaled(x);
        const double t = s.translate[size_t(axis)];
        double z, err;
        exact::two_sum(y, t, z, err);  // y + t == z + err exactly
        if (err != 0 || !std::isfinite(z) || !representable(z)) exact = false;
        return z;
    };
    const auto sign = [&](int axis) { return (s.mirror >> axis) & 1 ? -1.0 : 1.0; };
    Inputs out = in;
    for (const InputKey& k : f.inputs) {
        const size_t at = f.offset(k.key);
        const double* src = in.data() + at;
        double* dst = out.data() + at;
        switch (k.role) {
            case Role::offset:
            case Role::matrix:
                if (translates) return std::nullopt;
                break;
            default: break;
        }
        switch (k.role) {
            case Role::point:
            case Role::polygon:
            case Role::vector:
            case Role::direction:
            case Role::normal: {
                const int points = k.count / 3;
                for (int v = 0; v < points; ++v) {
                    int from = v;
                    if (k.role == Role::polygon) {
                        from = (v + s.rotate) % points;
                        if (s.reverse) from = (points - 1 - from + points) % points;
                    }
                    for (int i = 0; i < 3; ++i) {
                        const double x = sign(i) * src[3 * from + p[i]];
                        dst[3 * v + i] = k.role == Role::normal   ? x
                                         : k.role == Role::vector || k.role == Role::direction ? scaled(x)
                                                                  : moved(x, i);
                    }
                }
                break;
            }
            case Role::box_lo:
            case Role::box_hi: {
                // Mirroring an axis swaps the box's faces on it: lo' = -hi.
                const std::string stem = k.key.substr(0, k.key.size() - 3);
                const double* lo = in.data() + f.offset(stem + ".lo");
                const double* hi = in.data() + f.offset(stem + ".hi");
                for (int i = 0; i < 3; ++i) {
                    const bool flip = (s.mirror >> i) & 1;
                    const double x = k.role == Role::box_lo ? (flip ? -hi[p[i]] : lo[p[i]]) : (flip ? -lo[p[i]] : hi[p[i]]);
                    dst[i] = moved(x, i);
                }
                break;
            }
            case Role::offset:
            case Role::length:
                for (int i = 0; i < k.count; ++i) dst[i] = scaled(src[i]);
                break;
            case Role::parameter: break;
            case Role::matrix:
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j) dst[3 * i + j] = sign(i) * sign(j) * src[3 * p[i] + p[j]];
                break;
        }
    }
    if (!exact) return std::nullopt;
    return out;
}


}  // namespace isect::check
