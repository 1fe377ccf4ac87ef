// The box of a box under an affine map: seed 001's setToTransformedBox,
// Arvo's method ("Transforming axis-aligned bounding boxes", Graphics Gems,
// 1990), returning a float box that always contains the exact image.
//
// The map: p'_i = m[i][0] p_0 + m[i][1] p_1 + m[i][2] p_2 + t_i (column
// vectors; seed 001 multiplies row vectors, so its m_ij is m[j][i] here).
//
// Algorithm: the image of a box is a parallelepiped whose tightest box has,
// per output axis i, lo'_i = t_i + sum_j min(m_ij lo_j, m_ij hi_j) and hi'_i
// likewise with max: each term takes the corner coordinate that the sign of
// m_ij picks, so the eight corners never need transforming.
//
// Contract: containment, always: the float box contains the exact image
// (every point of it). And tightness: each face is within 3 x 2^-24 S_i of
// the exact tight box, S_i = |t_i| + sum_j |m_ij| max(|lo_j|, |hi_j|) +
// 2^-125 (the last term is one float ulp in the subnormal range). Why:
// the products are exact in double, the four-term sum rounds three times,
// within gamma(3) S_i; the kernel moves each face outward by that bound and
// rounds outward to float: one float ulp, at most 2^-23 |face| (just above a
// power of two) or 2^-149. Together under 3 x 2^-24 S_i.
// Seed 001's
// float arithmetic rounds to nearest and so loses containment by an ulp at
// a time (broken:seed_float_nearest).
//
// Domain: finite floats, lo <= hi. A face beyond float range comes back as
// -inf or +inf, which still contains the image. NaN in, NaN out.
#pragma once

#include <cmath>
#include <limits>

#include "isect/primitives.hpp"

namespace isect {

/// A 3x4 affine map, p' = m p + t.
struct Affine {
    std::array<Vec3f, 3> m;
    Vec3f t;
};

namespace detail {
/// x rounded to a float no greater (down) or no smaller (up) than x.
inline float round_out(double x, bool down) {
    float f = float(x);
    if (down && double(f) > x) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
    if (!down && double(f) < x) f = std::nextafter(f, std::numeric_limits<float>::infinity());
    return f;
}
}  // namespace detail

/// The smallest float box found by Arvo's method that contains the image of
/// `box` under `a`, within 3 x 2^-24 S_i of the exact tight box per face.
inline Aabb transformed_aabb(const Aabb& box, const Affine& a) {
    Aabb out;
    for (int i = 0; i < 3; ++i) {
        double lo = a.t[i], hi = a.t[i], scale = std::fabs(double(a.t[i]));
        for (int j = 0; j < 3; ++j) {
            const double p = double(a.m[i][j]) * box.lo[j], q = double(a.m[i][j]) * box.hi[j];
            lo += p < q ? p : q;
            hi += p < q ? q : p;
            scale += std::fabs(double(a.m[i][j])) * std::fmax(std::fabs(double(box.lo[j])), std::fabs(double(box.hi[j])));
        }
        // gamma(3) S bounds the three roundings of each sum; gamma(5) covers
        // the roundings of S itself.
        const double err = gamma(5) * scale;
        out.lo[i] = detail::round_out(lo - err, true);
        out.hi[i] = detail::round_out(hi + err, false);
    }
    return out;
}

}  // namespace isect
