// obb_obb on a number type: zonotope membership (the rational reference,
// the fast oracle), and the band, written once.
//
// The boxes meet iff d = c_b - c_a lies in Z, the zonotope of the six
// generators g = h_i a_i (A's) and h_j b_j (B's); see isect/ref/obb_obb.hpp.
// Every quantity is a polynomial in the inputs (the cross products of two
// generators are the fifteen axes of the separating-axis test), so every
// decision is a sign.
#pragma once

#include "isect/ref/obb_obb.hpp"
#include "policies.hpp"

namespace isect::ref::fast::detail {

template <class Ops> struct Zonotope {
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;

    /// The cross products g_p x g_q (p < q < 6) of the six generators of
    /// two boxes, computed as h_p h_q (a_p x a_q) from the axes as given
    /// (ObbInput): the same numbers, but two parallel axes' cross product is
    /// then an exact 0 on intervals too (products of two floats are exact),
    /// where g_p x g_q with g = h a rounds and cannot be told from 0.
    using Pairs = std::array<std::array<P, 6>, 6>;

    static bool zero(const P& v) { return Ops::sgn(v[0]) == 0 && Ops::sgn(v[1]) == 0 && Ops::sgn(v[2]) == 0; }
    /// |x|; on intervals without deciding the sign (an interval that
    /// straddles 0 has an absolute value all the same).
    static NT abs_of(const NT& x) {
        if constexpr (std::is_same_v<NT, IA>) return CGAL::abs(x);
        else return Ops::sgn(x) < 0 ? NT(-x) : x;
    }
    static P pair(const P* g, int p, int q, const Pairs* pairs) {
        return pairs && q < 6 ? (*pairs)[size_t(p)][size_t(q)] : cross(g[p], g[q]);
    }
    /// |n . d| <= sum_k |n . g_k|, leaving out the generators skip1 and
    /// skip2 (n is their cross product: those terms are exactly 0).
    static bool within(const P& n, const P& d, const P* g, int count, int skip1 = -1, int skip2 = -1) {
        NT support = -abs_of(dot(n, d));
        for (int k = 0; k < count; ++k)
            if (k != skip1 && k != skip2) support = support + abs_of(dot(n, g[k]));
        return Ops::sgn(support) >= 0;
    }
    /// d in the zonotope of the count generators g; pairs, where given,
    /// holds the cross products of the first six.
    static bool contains(const P& d, const P* g, int count, const Pairs* pairs = nullptr) {
        // Spans space: every pair's cross product is a candidate facet normal.
        for (int i = 0; i < count; ++i)
            for (int j = i + 1; j < count; ++j)
                for (int k = j + 1; k < count; ++k)
                    if (Ops::sgn(dot(pair(g, i, j, pairs), g[k])) != 0) {
                        for (int p = 0; p < count; ++p)
                            for (int q = p + 1; q < count; ++q) {
                                const P n = pair(g, p, q, pairs);
                                if (!zero(n) && !within(n, d, g, count, p, q)) return false;
                            }
                        return true;
                    }
        // A plane of normal m: d in it, and the in-plane normals m x g_k.
        for (int i = 0; i < count; ++i)
            for (int j = i + 1; j < count; ++j) {
                const P m = pair(g, i, j, pairs);
                if (zero(m)) continue;
                if (Ops::sgn(dot(m, d)) != 0) return false;
                for (int k = 0; k < count; ++k) {
                    const P n = cross(m, g[k]);
                    if (!zero(n) && !within(n, d, g, count)) return false;
                }
                return true;
            }
        // A line: d on it, within its extent.
        for (int k = 0; k < count; ++k)
            if (!zero(g[k])) return zero(cross(d, g[k])) && within(g[k], d, g, count);
        return zero(d);  // a point
    }
};

/// The six generators h_i a_i, h_j b_j, their cross products (Zonotope's
/// Pairs) and the offset d = c_b - c_a.
template <class Ops> struct ObbInput {
    using NT = typename Ops::NT;
    using P = typename Zonotope<Ops>::P;
    P g[6], d;
    typename Zonotope<Ops>::Pairs pairs;
    explicit ObbInput(const double* in) {
        constexpr size_t ac = obb_obb_input.at("a.c"), aa = obb_obb_input.at("a.axes"), ah = obb_obb_input.at("a.h");
        constexpr size_t bc = obb_obb_input.at("b.c"), ba = obb_obb_input.at("b.axes"), bh = obb_obb_input.at("b.h");
        P axis[6];
        NT h[6];
        for (size_t i = 0; i < 3; ++i) {
            h[i] = Ops::of(in[ah + i]);
            h[3 + i] = Ops::of(in[bh + i]);
            for (size_t c = 0; c < 3; ++c) {
                axis[i][c] = Ops::of(in[aa + 3 * i + c]);
                axis[3 + i][c] = Ops::of(in[ba + 3 * i + c]);
            }
        }
        for (size_t k = 0; k < 6; ++k)
            for (size_t c = 0; c < 3; ++c) g[k][c] = h[k] * axis[k][c];
        for (size_t p = 0; p < 6; ++p)
            for (size_t q = p + 1; q < 6; ++q) {
                const P n = cross(axis[p], axis[q]);
                const NT s = h[p] * h[q];
                pairs[p][q] = {NT(s * n[0]), NT(s * n[1]), NT(s * n[2])};
            }
        for (size_t c = 0; c < 3; ++c) d[c] = Ops::of(in[bc + c]) - Ops::of(in[ac + c]);
    }
};

template <class Ops> struct ObbBody {
    static bool meet(const double* in) {
        const ObbInput<Ops> x(in);
        return Zonotope<Ops>::contains(x.d, x.g, 6, &x.pairs);
    }
    static Result run(const double* in) {
        Result r;
        r.answer = meet(in) ? 1 : 0;
        return r;
    }
};

/// obb_obb's band. Moving c and h by delta_p (K u M, M the largest
/// magnitude of the centres and half-extents) and each axis a_i by its own
/// delta_i (K u |a_i|_inf) moves each point c + sum s_i h_i a_i of a box by
/// at most rho = delta_p + sum_i (delta_p |a_i|_inf + |h_i| delta_i +
/// delta_p delta_i) in every coordinate, so each box stays within
/// rho of itself (max-norm Hausdorff distance) and the difference set
/// B - A within R = rho_a + rho_b. Disjoint can flip only if d lies in Z
/// grown by the cube of half-width R, the zonotope with the three extra
/// generators R e_x, R e_y, R e_z; meeting only if some corner of the cube
/// d + [-R, R]^3 lies outside Z (if all eight are in, Z holds the cube, and
/// no move of the boxes separates them). A superset of the inputs whose
/// answer can flip, computed exactly.
template <class Ops> struct ObbBand {
    static bool run(const double* in, int exact_answer, const double* delta) {
        using NT = typename Ops::NT;
        using Z = Zonotope<Ops>;
        constexpr size_t ac = obb_obb_input.at("a.c"), aa = obb_obb_input.at("a.axes"), ah = obb_obb_input.at("a.h");
        constexpr size_t bc = obb_obb_input.at("b.c"), ba = obb_obb_input.at("b.axes"), bh = obb_obb_input.at("b.h");
        NT r = Ops::of(delta[ac]) + Ops::of(delta[bc]);
        for (size_t box : {aa, ba}) {
            const size_t hs = box == aa ? ah : bh;
            for (size_t i = 0; i < 3; ++i) {
                double a = 0, da = 0;
                for (size_t c = 0; c < 3; ++c) {
                    a = std::max(a, std::fabs(in[box + 3 * i + c]));
                    da = std::max(da, delta[box + 3 * i + c]);
                }
                const NT dh = Ops::of(delta[hs + i]), dax = Ops::of(da);
                r = r + dh * Ops::of(a) + Ops::of(std::fabs(in[hs + i])) * dax + dh * dax;
            }
        }
        ObbInput<Ops> x(in);
        if (exact_answer == 0) {
            typename Z::P g[9];
            for (int k = 0; k < 6; ++k) g[k] = x.g[k];
            for (size_t e = 0; e < 3; ++e) g[6 + e] = {NT(0), NT(0), NT(0)}, g[6 + e][e] = r;
            return Z::contains(x.d, g, 9, &x.pairs);
        }
        for (int corner = 0; corner < 8; ++corner) {
            typename Z::P c = x.d;
            for (size_t e = 0; e < 3; ++e) c[e] = (corner >> e) & 1 ? NT(c[e] + r) : NT(c[e] - r);
            if (!Z::contains(c, x.g, 6, &x.pairs)) return true;
        }
        return false;
    }
};

}  // namespace isect::ref::fast::detail
