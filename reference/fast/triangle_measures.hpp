// triangle_measures and polygon_measures on a number type: the oracle
// bodies and the bands.
#pragma once

#include "isect/ref/triangle_measures.hpp"
#include "policies.hpp"
#include "slope.hpp"

namespace isect::ref::fast::detail {

/// triangle_measures: degenerate (0) or proper (1), and the area, the
/// barycentrics u, v of p's projection, the circumcentre, the circumradius
/// and p's signed distance from the plane. On the exact policy each root
/// (area, radius, distance) is given as its square and sign (put_root).
template <class Ops> struct TriangleBody {
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;
    static Out<Ops> run(const double* in) {
        constexpr size_t tri = triangle_measures_input.at("tri"), pt = triangle_measures_input.at("p");
        const P a = point_of<Ops>(in + tri), e1 = sub(point_of<Ops>(in + tri + 3), a), e2 = sub(point_of<Ops>(in + tri + 6), a);
        const P ap = sub(point_of<Ops>(in + pt), a);
        const P n = cross(e1, e2);
        Out<Ops> r;
        if (Ops::sgn(n[0]) == 0 && Ops::sgn(n[1]) == 0 && Ops::sgn(n[2]) == 0) return r;  // degenerate
        r.answer = 1;
        const NT nn = dot(n, n);
        const P c1 = cross(e2, n), c2 = cross(n, e1);
        const NT l1 = dot(e1, e1), l2 = dot(e2, e2);
        P rel;  // times 2 nn
        for (size_t i = 0; i < 3; ++i) rel[i] = l1 * c1[i] + l2 * c2[i];
        const NT twice = 2 * nn;
        if constexpr (std::is_same_v<Out<Ops>, ExactResult>) {
            const NT s = dot(ap, n);
            put_root<Ops>(r, nn, Ops::of(4.0), 1);
            put_quotient<Ops>(r, dot(cross(ap, e2), n), nn);
            put_quotient<Ops>(r, dot(cross(e1, ap), n), nn);
            for (size_t i = 0; i < 3; ++i) put_quotient<Ops>(r, a[i] * twice + rel[i], twice);
            put_root<Ops>(r, dot(rel, rel), twice * twice, 1);
            put_root<Ops>(r, s * s, nn, Ops::sgn(s));
        } else {
            const IA root = Ops::root(nn);
            push(r, root / 2);
            push(r, Ops::enclose(dot(cross(ap, e2), n), nn));
            push(r, Ops::enclose(dot(cross(e1, ap), n), nn));
            for (size_t i = 0; i < 3; ++i) push(r, Ops::enclose(a[i] * twice + rel[i], twice));
            push(r, Ops::root(dot(rel, rel)) / Ops::enclose(twice, NT(1)));
            push(r, Ops::enclose(dot(ap, n), NT(1)) / root);
        }
        return r;
    }
};

/// polygon_measures: convex (1) or not, Newell's normal, the plane's offset
/// (the average of p_i . N) and q's signed distance from that plane (none
/// without a plane, which is not convex). On the exact policy the distance
/// is given as its square and sign (put_root).
template <class Ops> struct PolygonBody {
    static constexpr int kN = polygon_measures_input.count("poly") / 3;
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;
    static Out<Ops> run(const double* in) {
        P p[kN];
        constexpr size_t poly = polygon_measures_input.at("poly"), q = polygon_measures_input.at("q");
        for (int i = 0; i < kN; ++i) p[i] = point_of<Ops>(in + poly + 3 * i);
        P n{NT(0), NT(0), NT(0)};
        for (int i = 0; i < kN; ++i) {
            const P& a = p[i];
            const P& b = p[(i + 1) % kN];
            // Newell's sum as a x b: over boxes its terms widen alike on
            // every axis, so the band is the same after an axis swap.
            n[0] = n[0] + (a[1] * b[2] - a[2] * b[1]);
            n[1] = n[1] + (a[2] * b[0] - a[0] * b[2]);
            n[2] = n[2] + (a[0] * b[1] - a[1] * b[0]);
        }
        Out<Ops> r;
        for (const NT& x : n) put_quotient<Ops>(r, x, NT(1));
        NT sum(0);  // kN times the offset
        for (const P& a : p) sum = sum + dot(a, n);
        put_quotient<Ops>(r, sum, NT(kN));
        if (Ops::sgn(n[0]) == 0 && Ops::sgn(n[1]) == 0 && Ops::sgn(n[2]) == 0) {
            put_none<Ops>(r);
            return r;  // no plane: not convex, no distance
        }
        const NT t = NT(kN * dot(point_of<Ops>(in + q), n) - sum);  // kN times q . N - offset
        if constexpr (std::is_same_v<Out<Ops>, ExactResult>) put_root<Ops>(r, t * t, NT(kN * kN) * dot(n, n), Ops::sgn(t));
        else push(r, Ops::enclose(t, NT(kN)) / Ops::root(dot(n, n)));
        r.answer = 1;
        for (int i = 0; i < kN && r.answer; ++i) {
            const P edge = sub(p[(i + 1) % kN], p[i]);
            for (int j = 0; j < kN; ++j)
                if (j != i && j != (i + 1) % kN && Ops::sgn(dot(cross(edge, sub(p[j], p[i])), n)) < 0) r.answer = 0;
        }
        return r;
    }
};

/// triangle_measures' band. A degenerate triangle becomes proper under
/// any move (K > 0). A proper one can become degenerate only if
/// n = (b - a) x (c - a) can vanish: in band when the interval enclosure of
/// each component of n over the delta-box holds 0.
template <class Ops> struct TriangleBand {
    static_assert(positions_only(triangle_measures_input), "every number moves by one delta");
    static bool run(const double* in, int exact_answer, const double* delta) {
        if (exact_answer == 0) return true;
        const typename Ops::NT dl = Ops::of(delta[0]);
        constexpr size_t tri = triangle_measures_input.at("tri");
        const BPoint<Ops> a = widened<Ops>(in + tri, dl), b = widened<Ops>(in + tri + 3, dl), c = widened<Ops>(in + tri + 6, dl);
        const BPoint<Ops> n = cross(b - a, c - a);
        for (const Bounds<Ops>& x : n)
            if (!x.holds_zero()) return false;
        return true;
    }
};

/// Convexity is decided by the signs of ((p_i+1 - p_i) x (p_j - p_i)) . N,
/// N Newell's normal: polynomials of degree 4, enclosed over the delta-box
/// by interval arithmetic and then to first order. Certainly convex when every enclosure is
/// >= 0 and N's enclosure excludes 0; certainly not when some enclosure is
/// < 0; in band otherwise.
template <class Ops> struct PolygonBand {
    static_assert(positions_only(polygon_measures_input), "every number moves by one delta");
    static constexpr int kN = polygon_measures_input.count("poly") / 3;
    static constexpr size_t kPoly = polygon_measures_input.at("poly");
    using B = Bounds<Ops>;

    /// Whether convexity can flip, the polygon's points of any enclosure
    /// (Bounds, or slopes) and `enclose` giving each value's enclosure over
    /// the box.
    template <class P, class Enclose> static bool flips(const P (&p)[kN], const typename P::value_type& zero, Enclose enclose) {
        P n{zero, zero, zero};
        for (int i = 0; i < kN; ++i) {
            const P& a = p[i];
            const P& b = p[(i + 1) % kN];
            // Newell's sum as a x b: over boxes its terms widen alike on
            // every axis, so the band is the same after an axis swap.
            n[0] = n[0] + (a[1] * b[2] - a[2] * b[1]);
            n[1] = n[1] + (a[2] * b[0] - a[0] * b[2]);
            n[2] = n[2] + (a[0] * b[1] - a[1] * b[0]);
        }
        bool certain_convex = !(enclose(n[0]).holds_zero() && enclose(n[1]).holds_zero() && enclose(n[2]).holds_zero());
        for (int i = 0; i < kN; ++i)
            for (int j = 0; j < kN; ++j) {
                if (j == i || j == (i + 1) % kN) continue;
                // From either end of the edge: the two are one number, but
                // over boxes they widen differently, and a reversed polygon
                // trades one for the other; a sign is certain when both say so.
                const P &a = p[i], &b = p[(i + 1) % kN];
                const B s = enclose(dot(cross(sub(b, a), sub(p[j], a)), n)), t = enclose(dot(cross(sub(a, b), sub(p[j], b)), n));
                if (Ops::sgn(s.hi) < 0 && Ops::sgn(t.lo) > 0) return false;
                if (Ops::sgn(s.lo) < 0 || Ops::sgn(t.hi) > 0) certain_convex = false;
            }
        return !certain_convex;
    }

    /// In plain interval arithmetic over the box first (cheap); where that
    /// leaves it open, each polynomial to first order (Slope). Both are
    /// supersets, and so is the part they share.
    static bool run(const double* in, int /*exact_answer*/, const double* delta) {
        const typename Ops::NT dl = Ops::of(delta[0]);
        BPoint<Ops> box[kN];
        for (int i = 0; i < kN; ++i) box[i] = widened<Ops>(in + kPoly + 3 * i, dl);
        const B zero{Ops::of(0), Ops::of(0)};
        if (!flips(box, zero, [](const B& x) { return x; })) return false;
        using S = Slope<Ops, polygon_measures_input.size()>;
        std::array<S, 3> p[kN];
        for (int i = 0; i < kN; ++i) p[i] = S::input_point(in, delta, kPoly + 3 * size_t(i));
        return flips(p, S::constant(0), [delta](const S& x) { return x.over(delta); });
    }
};

}  // namespace isect::ref::fast::detail
