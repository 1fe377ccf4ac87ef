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
/// Pairs) and the offset d = c_b - c_a. With grow, each half-extent h is
/// taken as h + grow * delta_h (never below 0): the boxes the band's moves
/// of the extents reach at most or at least.
template <class Ops> struct ObbInput {
    using NT = typename Ops::NT;
    using P = typename Zonotope<Ops>::P;
    P g[6], d;
    NT h[6];
    typename Zonotope<Ops>::Pairs pairs;
    explicit ObbInput(const double* in, int grow = 0, const double* delta = nullptr) {
        constexpr size_t ac = obb_obb_input.at("a.c"), aa = obb_obb_input.at("a.axes"), ah = obb_obb_input.at("a.h");
        constexpr size_t bc = obb_obb_input.at("b.c"), ba = obb_obb_input.at("b.axes"), bh = obb_obb_input.at("b.h");
        P axis[6];
        for (size_t i = 0; i < 3; ++i) {
            h[i] = Ops::of(in[ah + i]);
            h[3 + i] = Ops::of(in[bh + i]);
            if (grow != 0) {
                h[i] = h[i] + NT(grow) * Ops::of(delta[ah + i]);
                h[3 + i] = h[3 + i] + NT(grow) * Ops::of(delta[bh + i]);
                for (NT* x : {&h[i], &h[3 + i]})
                    if (Ops::sgn(*x) < 0) *x = NT(0);
            }
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

/// obb_obb's band. A point c + sum s_i h_i a_i of a box, its centre moved
/// by dc, its extents by dh_i and its axes by da_i (each coordinate by its
/// own delta), becomes c + dc + sum s_i (h_i + dh_i) (a_i + da_i): the box
/// with extents h_i + dh_i, moved in coordinate e by at most
/// |dc_e| + sum_i (h_i + |dh_i|) |da_ie|. So the boxes the moves reach lie
/// in the box of extents h + delta_h grown by the cube R (R_e =
/// delta_{c,e} + sum_i (h_i + delta_{h,i}) delta_{a_i,e}), and contain
/// every point whose R-cube lies in the box of extents h - delta_h (in
/// every direction n, the moved box's support |n . g| summed is at least
/// the shrunk box's less sum_e R_e |n_e|). With
/// B - A the zonotope Z of the twelve generators (h_i a_i, h_j b_j) and R
/// the sum of both boxes' cubes: disjoint can flip only if d lies in Z
/// with the extents grown and the three generators R_e e_e added; meeting
/// only if the cube d + [-R, R] does not lie in Z with the extents shrunk
/// (some corner outside). A superset of the inputs whose answer can flip,
/// computed exactly; an extent's move lengthens its own generator only,
/// where a cube would widen every direction.
template <class Ops> struct ObbBand {
    static bool run(const double* in, int exact_answer, const double* delta) {
        using NT = typename Ops::NT;
        using Z = Zonotope<Ops>;
        constexpr size_t ac = obb_obb_input.at("a.c"), aa = obb_obb_input.at("a.axes"), ah = obb_obb_input.at("a.h");
        constexpr size_t bc = obb_obb_input.at("b.c"), ba = obb_obb_input.at("b.axes"), bh = obb_obb_input.at("b.h");
        ObbInput<Ops> x(in, exact_answer == 0 ? 1 : -1, delta);
        NT r[3];
        for (size_t e = 0; e < 3; ++e) {
            r[e] = Ops::of(delta[ac + e]) + Ops::of(delta[bc + e]);
            for (size_t box : {aa, ba})
                for (size_t i = 0; i < 3; ++i) {
                    const size_t hs = box == aa ? ah : bh;
                    const NT reach = Ops::of(std::fabs(in[hs + i])) + Ops::of(delta[hs + i]);
                    r[e] = r[e] + reach * Ops::of(delta[box + 3 * i + e]);
                }
        }
        if (exact_answer == 0) {
            typename Z::P g[9];
            for (int k = 0; k < 6; ++k) g[k] = x.g[k];
            for (size_t e = 0; e < 3; ++e) g[6 + e] = {NT(0), NT(0), NT(0)}, g[6 + e][e] = r[e];
            return Z::contains(x.d, g, 9, &x.pairs);
        }
        for (int corner = 0; corner < 8; ++corner) {
            typename Z::P c = x.d;
            for (size_t e = 0; e < 3; ++e) c[e] = (corner >> e) & 1 ? NT(c[e] + r[e]) : NT(c[e] - r[e]);
            if (!Z::contains(c, x.g, 6, &x.pairs)) return true;
        }
        return false;
    }
    /// For the witness search: the centres straight along d = c_b - c_a
    /// (each coordinate its share of d's largest, so that all close
    /// together: boxes small beside their offset meet or part so), the
    /// extents with them; and along each candidate axis n = a_p x a_q of the
    /// fifteen that separates the boxes (a miss) or along each (a meet), the
    /// centres moved along or against n coordinate by coordinate, the
    /// extents grown or shrunk, and each other axis turned to lengthen or
    /// shorten its shadow on n, once with the axes turned and once without.
    static void directions(const double* in, int exact_answer, const double*, Directions& out) {
        constexpr size_t ac = obb_obb_input.at("a.c"), aa = obb_obb_input.at("a.axes"), ah = obb_obb_input.at("a.h");
        constexpr size_t bc = obb_obb_input.at("b.c"), ba = obb_obb_input.at("b.axes"), bh = obb_obb_input.at("b.h");
        const auto sign = [](double x) -> double { return x > 0 ? 1 : x < 0 ? -1 : 0; };
        const auto axis = [&](int k) {
            const size_t at = (k < 3 ? aa : ba) + 3 * size_t(k % 3);
            return std::array<double, 3>{in[at], in[at + 1], in[at + 2]};
        };
        const auto h = [&](int k) { return std::fabs(in[(k < 3 ? ah : bh) + size_t(k % 3)]); };
        // +1: the boxes pulled apart, -1: pushed together.
        const double apart = exact_answer == 0 ? -1 : 1;
        std::array<double, 3> d;
        double largest = 0;
        for (size_t e = 0; e < 3; ++e) {
            d[e] = in[bc + e] - in[ac + e];
            largest = std::max(largest, std::fabs(d[e]));
        }
        if (largest > 0 && std::isfinite(largest)) {
            Direction v(obb_obb_input.size(), 0);
            for (size_t e = 0; e < 3; ++e) {
                v[bc + e] = apart * d[e] / largest;
                v[ac + e] = -v[bc + e];
                v[ah + e] = v[bh + e] = -apart;
            }
            out.push_back(std::move(v));
        }
        for (int p = 0; p < 6; ++p)
            for (int q = p + 1; q < 6; ++q) {
                const std::array<double, 3> n = cross(axis(p), axis(q));
                if (n[0] == 0 && n[1] == 0 && n[2] == 0) continue;
                double gap = std::fabs(dot(n, d));
                for (int k = 0; k < 6; ++k) gap -= h(k) * std::fabs(dot(n, axis(k)));
                if (exact_answer == 0 && !(gap > 0)) continue;
                const double side = dot(n, d) < 0 ? -1 : 1;
                for (bool turn : {true, false}) {
                    Direction v(obb_obb_input.size(), 0);
                    for (size_t e = 0; e < 3; ++e) {
                        v[bc + e] = apart * side * sign(n[e]);
                        v[ac + e] = -v[bc + e];
                    }
                    for (int k = 0; k < 6; ++k) {
                        v[(k < 3 ? ah : bh) + size_t(k % 3)] = -apart;
                        if (!turn || k == p || k == q) continue;
                        const double shadow = sign(dot(n, axis(k)));
                        for (size_t e = 0; e < 3; ++e) v[(k < 3 ? aa : ba) + 3 * size_t(k % 3) + e] = -apart * shadow * sign(n[e]);
                    }
                    out.push_back(std::move(v));
                }
            }
    }
};

}  // namespace isect::ref::fast::detail
