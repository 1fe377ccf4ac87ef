// point_triangle on a number type: the oracle body and the band.
//
// The region and the closest point are core's point_triangle_minimum
// (isect/point_triangle.hpp), written once over a number policy: Ericson's
// Voronoi tests with exact signs for a proper triangle, the least of three
// point-segment minima for a degenerate one.
#pragma once

#include "isect/point_triangle.hpp"
#include "isect/ref/point_triangle.hpp"
#include "policies.hpp"
#include "slope.hpp"

namespace isect::ref::fast::detail {

struct PointTriangleKeys {
    static constexpr size_t tri = point_triangle_input.at("tri"), p = point_triangle_input.at("p");
};

template <class Ops> isect::detail::TriangleMinimum<typename Ops::NT> point_triangle_minimum_of(const double* in) {
    using K = PointTriangleKeys;
    return isect::detail::point_triangle_minimum<Ops>(point_of<Ops>(in + K::tri), point_of<Ops>(in + K::tri + 3),
                                                      point_of<Ops>(in + K::tri + 6), point_of<Ops>(in + K::p));
}

/// The region (the family's answer index) and the numbers dist2, q, v, w.
template <class Ops> struct PointTriangleBody {
    static Result run(const double* in) {
        using K = PointTriangleKeys;
        const auto m = point_triangle_minimum_of<Ops>(in);
        Result out;
        out.answer = int(m.region);
        const IA dist2 = Ops::sgn(m.d_num) == 0 ? IA(0) : Ops::enclose(m.d_num, m.d_den);
        // As segment_segment: a quotient that cancels goes to the exact stage.
        narrow_or_exact<Ops>(dist2, 0x1p-48 * dist2.inf());
        const IA v = Ops::enclose(m.v_num, m.den), w = Ops::enclose(m.w_num, m.den);
        // On a sliver the weights' quotient cancels too, and q with them.
        narrow_or_exact<Ops>(v, 0x1p-45);
        narrow_or_exact<Ops>(w, 0x1p-45);
        push(out, dist2);
        for (size_t i = 0; i < 3; ++i) {
            const IA a(in[K::tri + i]);
            push(out, a + v * (IA(in[K::tri + 3 + i]) - a) + w * (IA(in[K::tri + 6 + i]) - a));
        }
        push(out, v);
        push(out, w);
        return out;
    }
};

/// point_triangle's band. The region changes only where p crosses one of
/// the planes that bound its Voronoi cell: planes through a vertex normal
/// to an edge (d1, d2, d3, d6, and bc . bp, bc . cp), and planes through an
/// edge containing the normal n (va, vb, vc). The answer can flip where one
/// of its cell's functions can change sign over the delta-box: each is
/// enclosed to first order (Slope: its value at the input and its partials
/// over the box), so the band is as wide as the inputs that flip, to the
/// partials' variation over the box. A triangle whose normal can vanish
/// over the box is in band for an edge or the face (the answer then
/// follows the degenerate triangle's rule, which other functions decide);
/// a vertex's cell is the same there.
template <class Ops> struct PointTriangleBand {
    static constexpr size_t N = point_triangle_input.size();
    using S = Slope<Ops, N>;
    using P = std::array<S, 3>;

    /// The functions that bound the answer's cell (none, with `degenerate`
    /// set, where the normal can vanish).
    static std::vector<S> deciding(const double* in, int exact_answer, const double* delta, bool& degenerate) {
        using K = PointTriangleKeys;
        const P a = S::input_point(in, delta, K::tri), b = S::input_point(in, delta, K::tri + 3),
                c = S::input_point(in, delta, K::tri + 6), p = S::input_point(in, delta, K::p);
        const P ab = sub(b, a), ac = sub(c, a), bc = sub(c, b), ap = sub(p, a), bp = sub(p, b), cp = sub(p, c);
        const P n = cross(ab, ac);
        // A vertex's cell is the same on a degenerate triangle: with p
        // strictly behind a on ab and on ac, a is the least of the three
        // edges' minima, found first on ab (or, with a between b and c, p
        // cannot be strictly behind it both ways); so only an edge's or the
        // face's answer is in band where the normal can vanish.
        degenerate = exact_answer >= 3 && n[0].over(delta).holds_zero() && n[1].over(delta).holds_zero() &&
                     n[2].over(delta).holds_zero();
        if (degenerate) return {};
        const S d1 = dot(ab, ap), d2 = dot(ac, ap), d3 = dot(ab, bp), d6 = dot(ac, cp);
        const S eb = dot(bc, bp), ec = dot(bc, cp);
        // Ericson's vc = d1 d4 - d3 d2 is n . (ap x bp) (Lagrange's
        // identity), and so for va, vb: the same polynomial, but on a sliver
        // the products of dots are large and cancel, and their partials
        // over the box (each factor's range times the other's partial)
        // widen the enclosure several times over; n is small there.
        const auto vc = [&] { return dot(n, cross(ap, bp)); };
        const auto vb = [&] { return dot(n, cross(cp, ap)); };
        const auto va = [&] { return dot(n, cross(bp, cp)); };
        switch (exact_answer) {
            case 0: return {d1, d2};         // vertex a
            case 1: return {d3, eb};         // vertex b
            case 2: return {d6, ec};         // vertex c
            case 3: return {d1, d3, vc()};   // edge ab
            case 4: return {eb, ec, va()};   // edge bc
            case 5: return {d2, d6, vb()};   // edge ca
            default: return {va(), vb(), vc()};  // face
        }
    }
    static bool run(const double* in, int exact_answer, const double* delta) {
        bool degenerate = false;
        for (const S& g : deciding(in, exact_answer, delta, degenerate))
            if (g.over(delta).holds_zero()) return true;
        return degenerate;
    }
    static void directions(const double* in, int exact_answer, const double* delta, Directions& out) {
        bool degenerate = false;
        for (const S& g : deciding(in, exact_answer, delta, degenerate)) towards_zero(g, out);
    }
};

}  // namespace isect::ref::fast::detail
