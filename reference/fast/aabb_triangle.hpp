// aabb_triangle's band on a number type: the separating-axis test on a box
// moved by delta.
//
// The band is exact: it says a flip at delta iff some move of every number
// by at most delta gives the other exact answer.
// - A false hit (the pair is disjoint): each point of the moved triangle is
//   within delta of one of the triangle (a convex combination of vertices
//   each moved by at most delta) and each face of the moved box within
//   delta of its own, so a meet of the moved pair is a meet of the triangle
//   with the box grown by 2 delta; translating the triangle by delta
//   towards the box while its faces move out by delta reaches every such
//   meet.
// - A false miss (the pair meets): the least box the faces reach is the box
//   shrunk by delta on each axis where it is at least 2 delta wide, and a
//   point anywhere in [hi - delta, lo + delta] where it is narrower (the box
//   stays a box: its faces cannot pass each other). For a fixed separating
//   direction L the vertices' best move is the same for all three (delta
//   against L's signs), so the triangle may as well translate; the pair can
//   separate iff some translate D + t of the least box D (shrunk by delta,
//   a narrow axis at its centre) misses the triangle, t in the box R of
//   half-widths delta (2 delta - w/2 on a narrow axis, where the point's own
//   freedom adds to the translation). The translates that meet the triangle
//   form a convex set (the triangle minus D), so R lies in it iff its eight
//   corners do: eight separating-axis tests. The box shrunk by 2 delta
//   (empty where it inverts), the intersection of every D + t, is asked
//   first: where the triangle meets it no move separates them. That was the
//   whole band until the tightness measure (properties/band_tightness_props)
//   showed it 40% loose: a thin box, under 4 delta wide, is empty once
//   shrunk by 2 delta, while a sliver triangle crossing it cannot leave it.
//   (Moving the box alone, by delta, was half as wide: the witnessed-K
//   search found a triangle 2 u from a box's face, which K = 1 closes,
//   called K = 2.) Both directions are monotone in delta.
// The exact answer on a moved box is the separating-axis test: the closed
// box and the closed triangle (a segment or a point when degenerate) are
// disjoint iff one of the thirteen axes (the box's three face normals, the
// triangle's normal, the nine cross products of a box axis and a triangle
// edge; the zero ones left out) separates them. Written once over a number
// policy: intervals then Mpzf (the fast band), rationals (the exact band),
// plain double (the planted wrong band).
#pragma once

#include "isect/ref/aabb_triangle.hpp"
#include "policies.hpp"

#include <algorithm>
#include <limits>

namespace isect::ref::fast::detail {

template <class Ops> struct AabbTriangleSat {
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;

    static bool zero(const P& v) { return Ops::sgn(v[0]) == 0 && Ops::sgn(v[1]) == 0 && Ops::sgn(v[2]) == 0; }
    /// |x|; on intervals without deciding the sign.
    static NT abs_of(const NT& x) {
        if constexpr (std::is_same_v<NT, IA>) return CGAL::abs(x);
        else return Ops::sgn(x) < 0 ? NT(-x) : x;
    }

    /// Whether the axis x separates the box [lo, hi] (lo <= hi) from the
    /// triangle v: the triangle's projections all below the box's least or
    /// all above its greatest. The box's projection is its centre's plus or
    /// minus its radius, doubled so that nothing is halved: 2 x . c = x .
    /// (lo + hi), 2 r = sum |x_i| (hi_i - lo_i).
    static bool separates(const P& x, const P& lo, const P& hi, const P (&v)[3]) {
        NT centre2(0), radius2(0);
        for (size_t i = 0; i < 3; ++i) {
            centre2 = centre2 + x[i] * (lo[i] + hi[i]);
            radius2 = radius2 + abs_of(NT(x[i] * (hi[i] - lo[i])));
        }
        bool below = true, above = true;
        for (const P& p : v) {
            const NT at = NT(2) * dot(x, p);
            if (Ops::sgn(at - (centre2 - radius2)) >= 0) below = false;
            if (Ops::sgn(at - (centre2 + radius2)) <= 0) above = false;
        }
        return below || above;
    }

    /// The thirteen axes in their usual order: the box's face normals x, y,
    /// z; the triangle's normal; for each edge e_k (v_k+1 - v_k), each box
    /// axis u_i x e_k. Some may be zero.
    static std::array<P, 13> axes(const P (&v)[3]) {
        const P e[3] = {sub(v[1], v[0]), sub(v[2], v[1]), sub(v[0], v[2])};
        std::array<P, 13> out;
        for (size_t i = 0; i < 3; ++i) {
            const P u = unit_axis<NT>(i);
            out[i] = u;
            for (size_t k = 0; k < 3; ++k) out[4 + 3 * k + i] = cross(u, e[k]);
        }
        out[3] = cross(e[0], e[1]);
        return out;
    }

    /// The closed box [lo, hi] meets the closed triangle v; an empty box
    /// (lo > hi on some axis) meets nothing.
    static bool meet(const P& lo, const P& hi, const P (&v)[3]) {
        for (size_t i = 0; i < 3; ++i)
            if (Ops::sgn(hi[i] - lo[i]) < 0) return false;
        for (const P& x : axes(v))
            if (!zero(x) && separates(x, lo, hi, v)) return false;
        return true;
    }

    /// How far apart the box and the triangle's projections on x lie: the
    /// least triangle projection less the box's greatest, or the box's least
    /// less the greatest triangle projection, whichever is larger (> 0: x
    /// separates them).
    static NT gap(const P& x, const P& lo, const P& hi, const P (&v)[3]) {
        NT bmin(0), bmax(0);
        for (size_t i = 0; i < 3; ++i) {
            const NT a = x[i] * lo[i], b = x[i] * hi[i];
            const bool a_low = Ops::sgn(NT(b - a)) > 0;
            bmin = bmin + (a_low ? a : b);
            bmax = bmax + (a_low ? b : a);
        }
        NT pmin = dot(x, v[0]), pmax = pmin;
        for (size_t k = 1; k < 3; ++k) {
            const NT p = dot(x, v[k]);
            if (Ops::sgn(NT(p - pmin)) < 0) pmin = p;
            if (Ops::sgn(NT(p - pmax)) > 0) pmax = p;
        }
        const NT above = pmin - bmax, below = bmin - pmax;
        return Ops::sgn(NT(above - below)) >= 0 ? above : below;
    }
};

/// The band: the answer on the moved box differs from the exact one (the
/// box grown by 2 delta where the pair is disjoint; where it meets, a
/// translate of the least box the faces reach that misses; see above).
template <class Ops> struct AabbTriangleBand {
    static_assert(positions_only(aabb_triangle_input), "every number moves by one delta");
    static bool run(const double* in, int exact_answer, const double* delta) {
        using S = AabbTriangleSat<Ops>;
        using NT = typename Ops::NT;
        using P = typename S::P;
        constexpr size_t box_lo = aabb_triangle_input.at("box.lo"), box_hi = aabb_triangle_input.at("box.hi");
        constexpr size_t tri = aabb_triangle_input.at("tri");
        if (delta[0] == 0) return false;
        // delta, with 4 delta finite (a box grown by it holds every input).
        const NT d = Ops::of(std::min(delta[0], std::numeric_limits<double>::max() / 4));
        const NT d2 = d + d;
        const bool overlap = exact_answer == 1;
        const P v[3] = {point_of<Ops>(in + tri), point_of<Ops>(in + tri + 3), point_of<Ops>(in + tri + 6)};
        P lo, hi;
        for (size_t i = 0; i < 3; ++i) {
            lo[i] = Ops::of(in[box_lo + i]);
            hi[i] = Ops::of(in[box_hi + i]);
        }
        if (!overlap) {
            P glo, ghi;
            for (size_t i = 0; i < 3; ++i) {
                glo[i] = lo[i] - d2;
                ghi[i] = hi[i] + d2;
            }
            return S::meet(glo, ghi, v);
        }
        P slo, shi;  // shrunk by 2 delta: where the triangle meets it, nothing separates them
        for (size_t i = 0; i < 3; ++i) {
            slo[i] = lo[i] + d2;
            shi[i] = hi[i] - d2;
        }
        if (S::meet(slo, shi, v)) return false;
        P dlo, dhi, r;  // the least box D and the translations' half-widths
        for (size_t i = 0; i < 3; ++i) {
            const NT w = hi[i] - lo[i];
            if (Ops::sgn(NT(w - d2)) >= 0) {
                dlo[i] = lo[i] + d;
                dhi[i] = hi[i] - d;
                r[i] = d;
            } else {
                dlo[i] = dhi[i] = NT(NT(lo[i] + hi[i]) * Ops::of(0.5));
                r[i] = d2 - NT(w * Ops::of(0.5));
            }
        }
        for (int corner = 0; corner < 8; ++corner) {
            P tlo, thi;
            for (size_t i = 0; i < 3; ++i) {
                const NT t = (corner >> i & 1) ? r[i] : NT(-r[i]);
                tlo[i] = dlo[i] + t;
                thi[i] = dhi[i] + t;
            }
            if (!S::meet(tlo, thi, v)) return true;
        }
        return false;
    }

    /// Where the flips lie, for the witnessed-K search: the box's faces out
    /// (a false hit) or in (a false miss), the triangle translated along
    /// each of the eight sign patterns, as the argument above moves them.
    static void directions(const double*, int exact_answer, const double*, Directions& out) {
        constexpr size_t box_lo = aabb_triangle_input.at("box.lo"), box_hi = aabb_triangle_input.at("box.hi");
        constexpr size_t tri = aabb_triangle_input.at("tri");
        const double inward = exact_answer == 1 ? 1 : -1;
        for (int pattern = 0; pattern < 8; ++pattern) {
            Direction d(aabb_triangle_input.size(), 0);
            for (size_t i = 0; i < 3; ++i) {
                d[box_lo + i] = inward;
                d[box_hi + i] = -inward;
                for (size_t k = 0; k < 3; ++k) d[tri + 3 * k + i] = (pattern >> i & 1) ? 1 : -1;
            }
            out.push_back(std::move(d));
        }
    }
};

}  // namespace isect::ref::fast::detail
