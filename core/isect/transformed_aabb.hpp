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
// 2^-125 (the last term is one float ulp in the subnormal range). In fact
// each face is the tightest float: the products are exact in double, and
// each face is their sum with t_i, which Shewchuk's Grow-Expansion (TwoSum
// after TwoSum) holds exactly as a nonoverlapping expansion. The kernel takes
// the float f nearest the expansion's faithful double value, decides the
// sign of the exact face minus f exactly (the sign of a nonoverlapping
// expansion is that of its largest component), and steps f one float
// outward if it falls on the wrong side. A plain double sum would not do:
// it can cancel to 0 where the exact face is a subnormal. So each face is off by
// less than one float ulp, 2^-23 |face| or 2^-149, under 3 x 2^-24 S_i, and
// never on the wrong side: no face lies at -inf when the exact one is
// -FLT_MAX, nor at +inf when it is just below FLT_MAX (the fuzzer found
// both in a first version that widened each face by a rounding bound).
// Seed 001's
// float arithmetic rounds to nearest and so loses containment by an ulp at
// a time (broken:seed_float_nearest).
//
// Domain: finite floats, lo <= hi. A face beyond float range comes back as
// -inf or +inf, which still contains the image. NaN in, NaN out.
#pragma once

#include <cmath>
#include <limits>

#include "isect/exact.hpp"
#include "isect/primitives.hpp"

namespace isect {

/// A 3x4 affine map, p' = m p + t.
struct Affine {
    std::array<Vec3f, 3> m;
    Vec3f t;
};

namespace detail {

/// The largest float <= (down) or smallest float >= (up) the exact sum of
/// four doubles.
inline float round_out(const double (&x)[4], bool down) {
    exact::Expansion sum;
    for (double v : x) sum += v;
    const double approx = sum.estimate();  // summed upwards: faithful for a nonoverlapping expansion
    const float max = std::numeric_limits<float>::max();
    float f = float(approx > max ? max : approx < -max ? -max : approx);
    sum += -double(f);  // the exact face minus f
    const int side = sum.sign();
    const float inf = std::numeric_limits<float>::infinity();
    if (down && side < 0) f = std::nextafter(f, -inf);
    if (!down && side > 0) f = std::nextafter(f, inf);
    return f;
}

}  // namespace detail

/// The tightest float box that contains the image of `box` under `a`
/// (Arvo's faces, rounded outward exactly): within one float ulp, under
/// 3 x 2^-24 S_i, of the exact tight box per face.
inline Aabb transformed_aabb(const Aabb& box, const Affine& a) {
    Aabb out;
    for (int i = 0; i < 3; ++i) {
        double lo[4] = {a.t[i]}, hi[4] = {a.t[i]};
        for (int j = 0; j < 3; ++j) {
            const double p = double(a.m[i][j]) * box.lo[j], q = double(a.m[i][j]) * box.hi[j];  // exact
            lo[j + 1] = p < q ? p : q;
            hi[j + 1] = p < q ? q : p;
        }
        out.lo[i] = detail::round_out(lo, true);
        out.hi[i] = detail::round_out(hi, false);
    }
    return out;
}

}  // namespace isect
