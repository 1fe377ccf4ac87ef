// aabb_triangle's band on a number type: the separating-axis test on a box
// moved by delta.
//
// The band (exact, and not a superset): moving every input by delta can
// flip the answer iff the box grown by 2 delta and the box shrunk by 2 delta
// (empty where it inverts) have different exact answers. Each point of the
// moved triangle is within delta of one of the triangle (a convex
// combination of vertices each moved by at most delta) and each face of the
// moved box within delta of its own, so a meet of the moved pair is a meet of
// the triangle with the box grown by 2 delta; and translating the triangle
// by delta towards the box while its faces move out by delta reaches every
// such meet. The same, shrunk, for a pair that meets. (Moving the box alone,
// by delta, was half as wide: the witnessed-K search found a triangle 2 u
// from a box's face, which K = 1 closes, called K = 2.) Shrinking decides a
// false miss, growing a false hit; both are monotone in delta.
// The exact answer on the moved box is the separating-axis test: the closed
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
            P u{NT(0), NT(0), NT(0)};
            u[i] = NT(1);
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

/// The band: the answer on the box moved by 2 delta (grown where the exact
/// answer is disjoint, shrunk where it is overlap) differs from the exact one.
template <class Ops> struct AabbTriangleBand {
    static_assert(positions_only(aabb_triangle_input), "every number moves by one delta");
    static bool run(const double* in, int exact_answer, const double* delta) {
        using S = AabbTriangleSat<Ops>;
        using NT = typename Ops::NT;
        constexpr size_t box_lo = aabb_triangle_input.at("box.lo"), box_hi = aabb_triangle_input.at("box.hi");
        constexpr size_t tri = aabb_triangle_input.at("tri");
        if (delta[0] == 0) return false;
        // The box's delta and the triangle's: 2 delta, exact in double (at
        // most the largest double: a box grown by it holds every input).
        const NT d = Ops::of(std::min(2 * delta[0], std::numeric_limits<double>::max()));
        const bool overlap = exact_answer == 1;
        typename S::P lo, hi;
        for (size_t i = 0; i < 3; ++i) {
            lo[i] = overlap ? NT(Ops::of(in[box_lo + i]) + d) : NT(Ops::of(in[box_lo + i]) - d);
            hi[i] = overlap ? NT(Ops::of(in[box_hi + i]) - d) : NT(Ops::of(in[box_hi + i]) + d);
        }
        const typename S::P v[3] = {point_of<Ops>(in + tri), point_of<Ops>(in + tri + 3), point_of<Ops>(in + tri + 6)};
        return S::meet(lo, hi, v) != overlap;
    }
};

}  // namespace isect::ref::fast::detail
