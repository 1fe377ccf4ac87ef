// Oriented box vs oriented box: do they share a point? A box is a centre c,
// three axis vectors a_0, a_1, a_2 and three half-extents h_i >= 0, the set
// { c + sum_i s_i h_i a_i : |s_i| <= 1 }: a parallelepiped, and a rectangular
// box when the axes are orthonormal. Float axes are never exactly
// orthonormal (a rotation rounded to float is off by about 2^-24), and the
// exact answer is the one for the parallelepiped they span.
//
// obb_obb_gottschalk: Gottschalk, Lin and Manocha, "OBBTree: A Hierarchical
// Structure for Rapid Interference Detection" (SIGGRAPH 1996), as RAPID and
// most engines carry it. B's axes are expressed in A's frame (R_ij = a_i .
// b_j) and so is the centres' offset (t_i = a_i . (c_b - c_a)); the fifteen
// candidate separating axes are A's three, B's three and the nine products
// a_i x b_j, each tested as |t . L| > r_a + r_b with the radii from |R|. The
// derivation assumes orthonormal axes (R's rows and columns then express
// projections exactly). Where an edge of A is parallel to an edge of B,
// a_i x b_j is the zero vector and the test reads 0 > 0, but with rounding R
// is not exactly the cross product's zero and the radii of a near-zero axis
// can come out smaller than |t . L|: a separating axis that is not one. The
// published code adds an epsilon (1e-6) to every |R_ij| for this; the
// kernel keeps it. In double on float input.
//
// Contract conservative=16. The epsilon only widens radii, so its wrong
// answers are false hits, and they are not bounded by any K: on a face axis
// it widens a radius by 3e-6 of the half-extents (K = 4.3 measured at a
// face contact, corpus/obb_obb/epsilon_widens_a_face_gap.case), but on the
// edge-edge axis a_i x b_j of two edges at an angle theta it widens the gap
// by 4e-6 of the half-extents over sin(theta): boxes 1.5e-3 apart across
// edges 3e-3 radians from parallel are called overlapping (K = 559,
// corpus/obb_obb/epsilon_hides_an_edge_edge_gap.case). Its false misses
// come from float axes that are not exactly orthonormal, which the derivation
// assumes: A's own radius on a_i is h_i, not sum_k h_k |a_i . a_k|. Under the
// precondition orthonormal_axes (every a_i . a_j within 32 u of 0 or 1) the
// sliver missed on a face axis of A is at most 32 u (h_0 + h_1 + h_2) wide,
// inside the band from K = 13.4 (M is at least 1/sqrt(3), an axis'
// largest component); the other axes' slivers are not derived. Measured:
// widest false-miss K 0.36 over 7 million generated cases, none beyond
// K 0.5 in six 45 s fuzz runs. K = 16 is the bound, not the measurement.
//
// Domain: finite values, h_i >= 0. NaN gives an answer, not a promise.
#pragma once

#include <cmath>

#include "isect/fp.hpp"

namespace isect {

/// An oriented box: centre, axes (rows), half-extents.
template <class T> struct BasicObb {
    std::array<T, 3> c;
    std::array<std::array<T, 3>, 3> axes;
    std::array<T, 3> h;
};
using Obb = BasicObb<float>;

namespace detail {

/// Gottschalk's fifteen-axis test in double with `epsilon` added to every
/// |R_ij| (1e-6 as published; 0 is the test without it).
template <class T> inline bool obb_sat(const BasicObb<T>& A, const BasicObb<T>& B, double epsilon) {
    double R[3][3], AbsR[3][3];
    for (size_t i = 0; i < 3; ++i)
        for (size_t j = 0; j < 3; ++j) {
            R[i][j] = double(A.axes[i][0]) * B.axes[j][0] + double(A.axes[i][1]) * B.axes[j][1] +
                      double(A.axes[i][2]) * B.axes[j][2];
            AbsR[i][j] = std::fabs(R[i][j]) + epsilon;
        }
    const double d[3] = {double(B.c[0]) - A.c[0], double(B.c[1]) - A.c[1], double(B.c[2]) - A.c[2]};
    double t[3];
    for (size_t i = 0; i < 3; ++i) t[i] = d[0] * A.axes[i][0] + d[1] * A.axes[i][1] + d[2] * A.axes[i][2];
    const double ha[3] = {A.h[0], A.h[1], A.h[2]}, hb[3] = {B.h[0], B.h[1], B.h[2]};
    // A's axes.
    for (size_t i = 0; i < 3; ++i)
        if (std::fabs(t[i]) > ha[i] + hb[0] * AbsR[i][0] + hb[1] * AbsR[i][1] + hb[2] * AbsR[i][2]) return false;
    // B's axes.
    for (size_t j = 0; j < 3; ++j)
        if (std::fabs(t[0] * R[0][j] + t[1] * R[1][j] + t[2] * R[2][j]) >
            ha[0] * AbsR[0][j] + ha[1] * AbsR[1][j] + ha[2] * AbsR[2][j] + hb[j])
            return false;
    // a_i x b_j.
    for (size_t i = 0; i < 3; ++i) {
        const size_t i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (size_t j = 0; j < 3; ++j) {
            const size_t j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            const double ra = ha[i1] * AbsR[i2][j] + ha[i2] * AbsR[i1][j];
            const double rb = hb[j1] * AbsR[i][j2] + hb[j2] * AbsR[i][j1];
            if (std::fabs(t[i2] * R[i1][j] - t[i1] * R[i2][j]) > ra + rb) return false;
        }
    }
    return true;
}

}  // namespace detail

/// Gottschalk's test with its published epsilon on |R|. tolerant=K.
template <class T> inline bool obb_obb_gottschalk(const BasicObb<T>& a, const BasicObb<T>& b) {
    return detail::obb_sat(a, b, 1e-6);
}

}  // namespace isect
