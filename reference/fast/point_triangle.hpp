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
/// edge containing the normal n (va, vb, vc). Moving every input by at most
/// delta moves p and each plane's point by at most sqrt(3) delta and turns
/// the plane's normal by at most theta = 2 sqrt(3) delta (1 / l + 4 L / |n|)
/// (l the shortest edge, L the longest): at p, R = |p - a| + L from its
/// point, the plane moves by at most W = 2 sqrt(3) delta (1 + R / l + 4 R L
/// / |n|). So the answer can flip only where p is within W of a plane of
/// its cell: g^2 <= W^2 N^2, g the plane's function and N its gradient's
/// length. Bounded from above with rational stand-ins (l and |n| by their
/// largest coordinates, R and L by 1-norms) and multiplied through; a
/// degenerate triangle (an edge or n with no nonzero coordinate) is in the
/// band, as a delta can make it proper.
template <class Ops> struct PointTriangleBand {
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;
    static NT abs(const NT& x) { return Ops::sgn(x) < 0 ? NT(-x) : x; }
    static NT norm_inf(const P& v) {
        NT m = abs(v[0]);
        for (size_t i = 1; i < 3; ++i)
            if (Ops::sgn(NT(abs(v[i]) - m)) > 0) m = abs(v[i]);
        return m;
    }
    static NT norm1(const P& v) { return NT(abs(v[0]) + abs(v[1]) + abs(v[2])); }

    static_assert(positions_only(point_triangle_input), "every number moves by one delta");
    static bool run(const double* in, int exact_answer, const double* delta_of) {
        using K = PointTriangleKeys;
        const double delta = delta_of[0];
        const P a = point_of<Ops>(in + K::tri), b = point_of<Ops>(in + K::tri + 3), c = point_of<Ops>(in + K::tri + 6),
                p = point_of<Ops>(in + K::p);
        const P ab = sub(b, a), ac = sub(c, a), bc = sub(c, b), ap = sub(p, a), bp = sub(p, b), cp = sub(p, c);
        const P n = cross(ab, ac);
        NT l = norm_inf(ab);
        for (const P* e : {&ac, &bc})
            if (Ops::sgn(NT(norm_inf(*e) - l)) < 0) l = norm_inf(*e);
        const NT nn = norm_inf(n);
        if (Ops::sgn(l) == 0 || Ops::sgn(nn) == 0) return true;
        NT big = norm1(ab);
        for (const P* e : {&ac, &bc})
            if (Ops::sgn(NT(norm1(*e) - big)) > 0) big = norm1(*e);
        const NT r = NT(norm1(ap) + big);
        // W = 2 s3 delta (l nn + r nn + 4 r big l) / (l nn), s3 = 1.7321 > sqrt(3).
        const NT scale = NT(Ops::of(2 * 1.7321) * Ops::of(delta)), lnn = NT(l * nn);
        const NT top = NT(scale * NT(lnn + r * nn + Ops::of(4.0) * r * big * l));
        const auto near = [&](const NT& g, const NT& n2) { return Ops::sgn(NT(g * g * lnn * lnn - top * top * n2)) <= 0; };
        const NT d1 = dot(ab, ap), d2 = dot(ac, ap), d3 = dot(ab, bp), d6 = dot(ac, cp);
        const NT eb = dot(bc, bp), ec = dot(bc, cp);
        const NT lab = dot(ab, ab), lac = dot(ac, ac), lbc = dot(bc, bc), n2 = dot(n, n);
        const NT d4 = dot(ac, bp), d5 = dot(ab, cp);
        const NT vc = NT(d1 * d4 - d3 * d2), vb = NT(d5 * d2 - d1 * d6), va = NT(d3 * d6 - d5 * d4);
        switch (exact_answer) {
            case 0: return near(d1, lab) || near(d2, lac);                                          // vertex a
            case 1: return near(d3, lab) || near(eb, lbc);                                          // vertex b
            case 2: return near(d6, lac) || near(ec, lbc);                                          // vertex c
            case 3: return near(d1, lab) || near(d3, lab) || near(vc, NT(lab * n2));               // edge ab
            case 4: return near(eb, lbc) || near(ec, lbc) || near(va, NT(lbc * n2));               // edge bc
            case 5: return near(d2, lac) || near(d6, lac) || near(vb, NT(lac * n2));               // edge ca
            default: return near(va, NT(lbc * n2)) || near(vb, NT(lac * n2)) || near(vc, NT(lab * n2));  // face
        }
    }
};

}  // namespace isect::ref::fast::detail
