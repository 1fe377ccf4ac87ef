// triangle_triangle on a number type: the rational reference's algorithm,
// the fast oracle's body, and the band, written once.
//
// The answer. Two proper triangles: each one's vertices against the other's
// plane (a triangle wholly on one side of the other's plane misses it);
// coplanar ones by a 2D test; otherwise each triangle meets the other's
// plane in the points where its edges cross it (or its vertices lie on it),
// all on the line of the two planes, and the triangles meet iff those two
// intervals along n1 x n2 overlap. A collinear triangle is the segment
// between its extreme vertices, a repeated one a point, and those are
// tested by orientations: segment or point against a triangle, segments in
// a coordinate plane they do not collapse in, or along their common line.
// The segment where two proper, non-coplanar triangles meet is the overlap
// of the intervals: each end a crossing point, a fraction num / den.
#pragma once

#include "isect/ref/triangle_triangle.hpp"
#include "policies.hpp"
#include "slope.hpp"

namespace isect::ref::fast::detail {

/// A point num / den with den > 0.
template <class NT> struct FracPoint {
    std::array<NT, 3> num;
    NT den;
};

template <class Ops> struct TriTriBody {
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;
    /// The raw input point k of triangle t (0 or 1).
    using Raw = const double*;

    struct Out {
        bool meet = false;
        bool has_segment = false;
        FracPoint<NT> p, q;
        /// Two proper triangles: the side of the other's plane each vertex
        /// lies on (what decides most cases, as the deciding test says).
        bool proper = false;
        int sa[3] = {0, 0, 0}, sb[3] = {0, 0, 0};
    };

    static int orient3d(const P& a, const P& b, const P& c, const P& d) {
        return Ops::sgn(dot(cross(sub(b, a), sub(c, a)), sub(d, a)));
    }
    static int orient2d(const P& a, const P& b, const P& c, int drop) {
        const size_t i = size_t((drop + 1) % 3), j = size_t((drop + 2) % 3);
        return Ops::sgn((b[i] - a[i]) * (c[j] - a[j]) - (b[j] - a[j]) * (c[i] - a[i]));
    }
    static bool nonzero(const P& v) { return Ops::sgn(v[0]) != 0 || Ops::sgn(v[1]) != 0 || Ops::sgn(v[2]) != 0; }
    static bool between(double x, double a, double b) { return (a <= x && x <= b) || (b <= x && x <= a); }
    static bool between(Raw x, Raw a, Raw b) {
        return between(x[0], a[0], b[0]) && between(x[1], a[1], b[1]) && between(x[2], a[2], b[2]);
    }

    /// A triangle as the closed set it is: proper, a segment [p, q] between
    /// its extreme vertices, or the point p.
    struct Shape {
        int kind = 0;  ///< 2 proper, 1 segment, 0 point
        Raw v[3];
        int pi = 0, qi = 0;  ///< a segment's ends (or the point) by vertex index
        Raw p, q;
    };
    static Shape shape(Raw t) {
        Shape s;
        for (int k = 0; k < 3; ++k) s.v[k] = t + 3 * k;
        s.p = s.q = s.v[0];
        const P a = point_of<Ops>(s.v[0]);
        if (nonzero(cross(sub(point_of<Ops>(s.v[1]), a), sub(point_of<Ops>(s.v[2]), a)))) {
            s.kind = 2;
            return s;
        }
        for (int k = 0; k < 3; ++k) {
            int lo = 0, hi = 0;
            for (int i = 1; i < 3; ++i) {
                if (s.v[i][k] < s.v[lo][k]) lo = i;
                if (s.v[i][k] > s.v[hi][k]) hi = i;
            }
            if (s.v[lo][k] < s.v[hi][k]) {
                s.kind = 1;
                s.pi = lo;
                s.qi = hi;
                s.p = s.v[lo];
                s.q = s.v[hi];
                return s;
            }
        }
        return s;
    }

    /// A coordinate plane the proper triangle t projects onto unflattened.
    static int projection(const P (&t)[3]) {
        for (int drop = 2; drop > 0; --drop)
            if (orient2d(t[0], t[1], t[2], drop) != 0) return drop;
        return 0;
    }
    static bool inside_2d(const P& x, const P (&t)[3], int drop) {
        const int o = orient2d(t[0], t[1], t[2], drop);
        for (int k = 0; k < 3; ++k)
            if (orient2d(t[k], t[(k + 1) % 3], x, drop) * o < 0) return false;
        return true;
    }
    /// Closed segments in the projection without axis drop; rp, rq, ... the
    /// raw points for the order tests along the segment.
    static bool segments_2d(const P& p, const P& q, const P& r, const P& s, Raw rp, Raw rq, Raw rr, Raw rs, int drop) {
        const int o1 = orient2d(p, q, r, drop), o2 = orient2d(p, q, s, drop);
        const int o3 = orient2d(r, s, p, drop), o4 = orient2d(r, s, q, drop);
        if (o1 * o2 < 0 && o3 * o4 < 0) return true;
        // A point collinear with a segment in the projection lies on it iff
        // it is between the ends in both projected coordinates.
        const auto within = [drop](Raw x, Raw a, Raw b) {
            const int i = (drop + 1) % 3, j = (drop + 2) % 3;
            return between(x[i], a[i], b[i]) && between(x[j], a[j], b[j]);
        };
        return (o1 == 0 && within(rr, rp, rq)) || (o2 == 0 && within(rs, rp, rq)) || (o3 == 0 && within(rp, rr, rs)) ||
               (o4 == 0 && within(rq, rr, rs));
    }
    /// x on the closed segment [p, q], p != q.
    static bool on_segment(Raw x, Raw p, Raw q) {
        return !nonzero(cross(sub(point_of<Ops>(q), point_of<Ops>(p)), sub(point_of<Ops>(x), point_of<Ops>(p)))) &&
               between(x, p, q);
    }
    static bool segments(Raw p, Raw q, Raw r, Raw s) {
        const P pp = point_of<Ops>(p), pq = point_of<Ops>(q), pr = point_of<Ops>(r), ps = point_of<Ops>(s);
        if (orient3d(pp, pq, pr, ps) != 0) return false;
        for (int drop = 2; drop >= 0; --drop)
            if (orient2d(pp, pq, pr, drop) != 0 || orient2d(pp, pq, ps, drop) != 0)
                return segments_2d(pp, pq, pr, ps, p, q, r, s, drop);
        for (int k = 0; k < 3; ++k)  // collinear
            if (p[k] != q[k])
                return std::max(std::min(p[k], q[k]), std::min(r[k], s[k])) <= std::min(std::max(p[k], q[k]), std::max(r[k], s[k]));
        return false;
    }
    static bool with_triangle(const Shape& s, const Shape& tri) {
        const P t[3] = {point_of<Ops>(tri.v[0]), point_of<Ops>(tri.v[1]), point_of<Ops>(tri.v[2])};
        const P p = point_of<Ops>(s.p), q = point_of<Ops>(s.q);
        const int drop = projection(t);
        const int sp = orient3d(t[0], t[1], t[2], p);
        if (s.kind == 0) return sp == 0 && inside_2d(p, t, drop);
        const int sq = orient3d(t[0], t[1], t[2], q);
        if (sp * sq > 0) return false;
        if (sp == 0 && sq == 0) {
            if (inside_2d(p, t, drop) || inside_2d(q, t, drop)) return true;
            for (int k = 0; k < 3; ++k)
                if (segments_2d(p, q, t[k], t[(k + 1) % 3], s.p, s.q, tri.v[k], tri.v[(k + 1) % 3], drop)) return true;
            return false;
        }
        int pos = 0, neg = 0;
        for (int k = 0; k < 3; ++k) {
            const int o = orient3d(p, q, t[k], t[(k + 1) % 3]);
            pos += o > 0;
            neg += o < 0;
        }
        return pos == 0 || neg == 0;
    }

    /// The points where a triangle t meets the plane its signed distances d
    /// (signs s) are measured from: its vertices on it, and one point per
    /// edge that crosses it.
    static int crossings(Raw t, const NT (&d)[3], const int (&s)[3], FracPoint<NT> (&out)[3]) {
        int n = 0;
        for (int i = 0; i < 3; ++i) {
            const P vi = point_of<Ops>(t + 3 * i);
            if (s[i] == 0) {
                out[n++] = {vi, NT(1)};
                continue;
            }
            const int j = (i + 1) % 3;
            if (s[i] * s[j] >= 0) continue;
            // vi + (vj - vi) d_i / (d_i - d_j) = (vj d_i - vi d_j) / (d_i - d_j)
            const P vj = point_of<Ops>(t + 3 * j);
            NT den = d[i] - d[j];
            P num;
            for (size_t c = 0; c < 3; ++c) num[c] = vj[c] * d[i] - vi[c] * d[j];
            if (Ops::sgn(den) < 0) {
                den = -den;
                for (NT& x : num) x = -x;
            }
            out[n++] = {num, den};
        }
        return n;
    }
    /// sign(dir . x - dir . y) for the two fractions.
    static int compare(const P& dir, const FracPoint<NT>& x, const FracPoint<NT>& y) {
        return Ops::sgn(dot(dir, x.num) * y.den - dot(dir, y.num) * x.den);
    }

    static Out proper(const Shape& A, const Shape& B) {
        Out out;
        const P a[3] = {point_of<Ops>(A.v[0]), point_of<Ops>(A.v[1]), point_of<Ops>(A.v[2])};
        const P b[3] = {point_of<Ops>(B.v[0]), point_of<Ops>(B.v[1]), point_of<Ops>(B.v[2])};
        const P n1 = cross(sub(a[1], a[0]), sub(a[2], a[0])), n2 = cross(sub(b[1], b[0]), sub(b[2], b[0]));
        NT da[3], db[3];
        int sa[3], sb[3];
        for (int i = 0; i < 3; ++i) {
            da[i] = dot(n2, sub(a[i], b[0]));
            db[i] = dot(n1, sub(b[i], a[0]));
            sa[i] = Ops::sgn(da[i]);
            sb[i] = Ops::sgn(db[i]);
            out.sa[i] = sa[i];
            out.sb[i] = sb[i];
        }
        out.proper = true;
        const auto one_side = [](const int (&s)[3]) { return (s[0] > 0 && s[1] > 0 && s[2] > 0) || (s[0] < 0 && s[1] < 0 && s[2] < 0); };
        if (one_side(sa) || one_side(sb)) return out;
        if (sa[0] == 0 && sa[1] == 0 && sa[2] == 0) {  // coplanar
            const int drop = projection(a);
            for (int i = 0; i < 3 && !out.meet; ++i)
                for (int j = 0; j < 3 && !out.meet; ++j)
                    out.meet = segments_2d(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3], A.v[i], A.v[(i + 1) % 3], B.v[j],
                                           B.v[(j + 1) % 3], drop);
            out.meet = out.meet || inside_2d(a[0], b, drop) || inside_2d(b[0], a, drop);
            return out;
        }
        FracPoint<NT> xa[3], xb[3];
        const int na = crossings(A.v[0], da, sa, xa), nb = crossings(B.v[0], db, sb, xb);
        const P dir = cross(n1, n2);
        const auto extremes = [&](const FracPoint<NT>(&x)[3], int n, int& lo, int& hi) {
            lo = hi = 0;
            for (int i = 1; i < n; ++i) {
                if (compare(dir, x[i], x[lo]) < 0) lo = i;
                if (compare(dir, x[i], x[hi]) > 0) hi = i;
            }
        };
        int loa, hia, lob, hib;
        extremes(xa, na, loa, hia);
        extremes(xb, nb, lob, hib);
        if (compare(dir, xa[hia], xb[lob]) < 0 || compare(dir, xb[hib], xa[loa]) < 0) return out;
        out.meet = true;
        out.has_segment = true;
        out.p = compare(dir, xa[loa], xb[lob]) >= 0 ? xa[loa] : xb[lob];
        out.q = compare(dir, xa[hia], xb[hib]) <= 0 ? xa[hia] : xb[hib];
        return out;
    }

    static Out run_on(const double* in) {
        const Shape A = shape(in + triangle_triangle_input.at("t1")), B = shape(in + triangle_triangle_input.at("t2"));
        if (A.kind == 2 && B.kind == 2) return proper(A, B);
        Out out;
        if (A.kind == 2) out.meet = with_triangle(B, A);
        else if (B.kind == 2) out.meet = with_triangle(A, B);
        else if (A.kind == 0 && B.kind == 0) out.meet = A.p[0] == B.p[0] && A.p[1] == B.p[1] && A.p[2] == B.p[2];
        else if (A.kind == 0) out.meet = on_segment(A.p, B.p, B.q);
        else if (B.kind == 0) out.meet = on_segment(B.p, A.p, A.q);
        else out.meet = segments(A.p, A.q, B.p, B.q);
        return out;
    }

    /// The fast oracle's form: the answer, and enclosures of the segment's
    /// ends (NaN where there is no segment).
    static Result run(const double* in) {
        const Out o = run_on(in);
        Result r;
        r.answer = o.meet ? 1 : 0;
        if (!o.meet) return r;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (const FracPoint<NT>* x : {&o.p, &o.q})
            for (size_t c = 0; c < 3; ++c) {
                if (o.has_segment) push(r, Ops::enclose(x->num[c], x->den));
                else push_pair(r, nan, nan);
            }
        return r;
    }
};

/// triangle_triangle's band tests, on points of any enclosure over the
/// delta-box (Bounds, or slopes): `strict` gives a value's strict sign over
/// the box, 0 where it can be 0.
///  - Disjoint cannot flip while some axis separates the triangles for every
///    move: the normals, the nine edge cross products and each normal
///    crossed with the other's edges (what separates two triangles,
///    coplanar ones included), each projection difference b_j - a_i of one
///    strict sign over the box. In band iff no axis does.
///  - Meeting cannot flip while the meeting is transversal for every move:
///    two proper triangles whose vertices' sides of the other plane are
///    strict and whose orientation tests (as in the Guigue-Devillers
///    kernel) are strictly negative over the box; or a segment (a collinear
///    triangle's extreme vertices, which stay in it) whose ends are strictly
///    on either side of a proper triangle and whose line's orientations with
///    the three edges share one strict sign. Touching, coplanar, point and
///    segment-segment meetings are always in band.
template <class BP, class Strict> struct TriTriTests {
    Strict strict;

    int orient(const BP& a, const BP& b, const BP& c, const BP& d) const {
        return strict(dot(cross(sub(b, a), sub(c, a)), sub(d, a)));
    }

    bool separated(const BP (&a)[3], const BP (&b)[3]) const {
        const BP ea[3] = {sub(a[1], a[0]), sub(a[2], a[1]), sub(a[0], a[2])},
                 eb[3] = {sub(b[1], b[0]), sub(b[2], b[1]), sub(b[0], b[2])};
        const BP na = cross(ea[0], sub(a[2], a[0])), nb = cross(eb[0], sub(b[2], b[0]));
        BP d[3][3];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) d[i][j] = sub(b[j], a[i]);
        const auto separates = [&](const BP& v) {
            int side = 0;
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) {
                    const int s = strict(dot(v, d[i][j]));
                    if (s == 0 || (side != 0 && s != side)) return false;
                    side = s;
                }
            return true;
        };
        if (separates(na) || separates(nb)) return true;
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j)
                if (separates(cross(ea[i], eb[j]))) return true;
            if (separates(cross(na, ea[i])) || separates(cross(nb, eb[i]))) return true;
        }
        return false;
    }

    /// The rotation putting the vertex alone on its side first, with its
    /// side; false unless every sign is strict and one vertex is alone.
    static bool alone(const int (&s)[3], int& first, int& side) {
        for (int r = 0; r < 3; ++r) {
            const int x = s[r], y = s[(r + 1) % 3], z = s[(r + 2) % 3];
            if (x != 0 && y == -x && z == -x) {
                first = r;
                side = x;
                return true;
            }
        }
        return false;
    }

    template <class Shape> bool meet_certain(const Shape& A, const Shape& Bs, const BP (&a)[3], const BP (&b)[3]) const {
        if (A.kind == 2 && Bs.kind == 2) {
            int sa[3], sb[3];
            for (int i = 0; i < 3; ++i) {
                sa[i] = orient(b[0], b[1], b[2], a[i]);
                sb[i] = orient(a[0], a[1], a[2], b[i]);
            }
            int fa, ka, fb, kb;
            if (!alone(sa, fa, ka) || !alone(sb, fb, kb)) return false;
            const BP& p1 = a[fa];
            const BP* q1 = &a[(fa + 1) % 3];
            const BP* r1 = &a[(fa + 2) % 3];
            const BP& p2 = b[fb];
            const BP* q2 = &b[(fb + 1) % 3];
            const BP* r2 = &b[(fb + 2) % 3];
            if (ka < 0) std::swap(q2, r2);
            if (kb < 0) std::swap(q1, r1);
            // Each test in both of its argument orders: over a box the two
            // differ in how much they widen, and asking both keeps the band
            // the same under a mirror (which trades one order for the other).
            return orient(p1, *q1, p2, *q2) < 0 && orient(p1, *r1, *r2, p2) < 0 && orient(p1, *q1, *q2, p2) > 0 &&
                   orient(p1, *r1, p2, *r2) > 0;
        }
        // A segment through a proper triangle.
        const bool a_segment = A.kind == 1 && Bs.kind == 2, b_segment = Bs.kind == 1 && A.kind == 2;
        if (!a_segment && !b_segment) return false;
        const auto& seg = a_segment ? A : Bs;
        const BP(&t)[3] = a_segment ? b : a;
        const BP(&sv)[3] = a_segment ? a : b;
        const BP& p = sv[seg.pi];
        const BP& q = sv[seg.qi];
        const int sp = orient(t[0], t[1], t[2], p), sq = orient(t[0], t[1], t[2], q);
        if (sp == 0 || sq != -sp) return false;
        const int o0 = orient(p, q, t[0], t[1]), o1 = orient(p, q, t[1], t[2]), o2 = orient(p, q, t[2], t[0]);
        return o0 != 0 && o1 == o0 && o2 == o0;
    }

    /// In band: disjoint unless some axis separates for every move, meeting
    /// unless it is certain in both argument orders (the band must not
    /// depend on which triangle came first).
    template <class Ops> bool flips(const double* in, int exact_answer, const BP (&a)[3], const BP (&b)[3]) const {
        if (exact_answer == 0) return !separated(a, b);
        using Body = TriTriBody<Ops>;
        const auto A = Body::shape(in + triangle_triangle_input.at("t1")), Bs = Body::shape(in + triangle_triangle_input.at("t2"));
        return !(meet_certain(A, Bs, a, b) && meet_certain(Bs, A, b, a));
    }
};

/// Strict sign of an enclosure: 1, -1, or 0 when it holds 0.
template <class Ops> int strict_sign(const Bounds<Ops>& x) { return Ops::sgn(x.lo) > 0 ? 1 : Ops::sgn(x.hi) < 0 ? -1 : 0; }

static_assert(positions_only(triangle_triangle_input), "every number moves by one delta");

/// Whether the triangles' answer flips when each vertex moves by at most
/// d, decided by translations. For one direction L, the moves that best
/// separate the triangles along L (or close their gap) are one translation
/// of each, by d against L's signs, which shifts the projections' gap by
/// 2 d |L|_1. So two triangles that meet can be parted iff some axis L
/// leaves their projections overlapping by less than 2 d |L|_1 (the eight
/// sign patterns of L are the eight translations by 2 d apart, and each
/// translate is judged by the separating-axis test), and two that are
/// disjoint can be joined iff no axis keeps a gap above 2 d |L|_1 (the
/// difference set T1 - T2 against the cube of side 4 d). The axes: the
/// coordinate axes, the normals and their cross product, every edge of one
/// crossed with every edge and normal of the other and with its own
/// normal, and each coordinate axis crossed with each edge (45, the zero
/// ones left out). For two proper triangles they are complete both ways:
/// they hold the separating-axis candidates of the triangles as thin prisms
/// and of T1 - T2 against a cube. An axis that decides is a proof either
/// way, so an incomplete set can only widen a disjoint pair's band; a pair
/// that meets with a collinear triangle is left to the first-order tests.
template <class Ops> struct TriTriTranslation {
    using NT = typename Ops::NT;
    using P = std::array<NT, 3>;

    static std::array<P, 45> axes(const P (&a)[3], const P (&b)[3]) {
        const P ea[3] = {sub(a[1], a[0]), sub(a[2], a[1]), sub(a[0], a[2])},
                eb[3] = {sub(b[1], b[0]), sub(b[2], b[1]), sub(b[0], b[2])};
        const P na = cross(ea[0], ea[1]), nb = cross(eb[0], eb[1]);
        std::array<P, 45> out;
        size_t n = 0;
        for (size_t i = 0; i < 3; ++i) {
            const P u = unit_axis<NT>(i);
            out[n++] = u;
            for (size_t k = 0; k < 3; ++k) {
                out[n++] = cross(u, ea[k]);
                out[n++] = cross(u, eb[k]);
            }
        }
        out[n++] = na;
        out[n++] = nb;
        out[n++] = cross(na, nb);
        for (size_t i = 0; i < 3; ++i) {
            for (size_t j = 0; j < 3; ++j) out[n++] = cross(ea[i], eb[j]);
            out[n++] = cross(na, ea[i]);
            out[n++] = cross(nb, eb[i]);
            out[n++] = cross(na, eb[i]);
            out[n++] = cross(ea[i], nb);
        }
        return out;
    }

    static bool flips(const P (&a)[3], const P (&b)[3], int exact_answer, const NT& d) {
        for (const P& L : axes(a, b)) {
            const NT l1 = norm1<Ops>(L);
            if (Ops::sgn(l1) == 0) continue;
            const NT reach = NT(2) * d * l1;
            NT alo, ahi, blo, bhi;
            projection_span<Ops>(L, a, alo, ahi);
            projection_span<Ops>(L, b, blo, bhi);
            if (exact_answer == 1) {
                // Overlapping by less than the reach, on either side.
                if (Ops::sgn(NT(ahi - blo - reach)) < 0 || Ops::sgn(NT(bhi - alo - reach)) < 0) return true;
            } else if (Ops::sgn(NT(blo - ahi - reach)) > 0 || Ops::sgn(NT(alo - bhi - reach)) > 0) {
                return false;  // a gap no move closes
            }
        }
        return exact_answer == 0;
    }
};

/// triangle_triangle's band. First the first-order tests above in plain
/// interval arithmetic over the box (cheap, a superset: where they say no
/// flip, there is none); then the translations' test, exact for two proper
/// triangles; a pair that meets with a collinear or repeated triangle is
/// asked the tests to first order (Slope: each polynomial's value at the
/// input and its partials over the box), a superset. The translations
/// replaced the first-order tests where they are exact: those read a small
/// pair far out, whose delta is a visible share of it, as flipping far
/// below the K any move needs (50% of near-boundary inputs more than 2x
/// low).
template <class Ops> struct TriTriBand {
    static constexpr size_t N = triangle_triangle_input.size();
    using S = Slope<Ops, N>;

    static bool run(const double* in, int exact_answer, const double* delta) {
        const size_t t1 = triangle_triangle_input.at("t1"), t2 = triangle_triangle_input.at("t2");
        const typename Ops::NT dl = Ops::of(delta[0]);
        const BPoint<Ops> ba[3] = {widened<Ops>(in + t1, dl), widened<Ops>(in + t1 + 3, dl), widened<Ops>(in + t1 + 6, dl)};
        const BPoint<Ops> bb[3] = {widened<Ops>(in + t2, dl), widened<Ops>(in + t2 + 3, dl), widened<Ops>(in + t2 + 6, dl)};
        const auto box_sign = [](const Bounds<Ops>& x) { return strict_sign<Ops>(x); };
        if (!TriTriTests<BPoint<Ops>, decltype(box_sign)>{box_sign}.template flips<Ops>(in, exact_answer, ba, bb)) return false;
        using Body = TriTriBody<Ops>;
        const bool proper = Body::shape(in + t1).kind == 2 && Body::shape(in + t2).kind == 2;
        if (exact_answer == 0 || proper) {
            using T = TriTriTranslation<Ops>;
            const typename T::P a[3] = {point_of<Ops>(in + t1), point_of<Ops>(in + t1 + 3), point_of<Ops>(in + t1 + 6)};
            const typename T::P b[3] = {point_of<Ops>(in + t2), point_of<Ops>(in + t2 + 3), point_of<Ops>(in + t2 + 6)};
            const bool moved = T::flips(a, b, exact_answer, Ops::of(std::min(delta[0], std::numeric_limits<double>::max() / 4)));
            if (proper || !moved) return moved;
        }
        using P = std::array<S, 3>;
        const P a[3] = {S::input_point(in, delta, t1), S::input_point(in, delta, t1 + 3), S::input_point(in, delta, t1 + 6)};
        const P b[3] = {S::input_point(in, delta, t2), S::input_point(in, delta, t2 + 3), S::input_point(in, delta, t2 + 6)};
        const auto slope_sign = [delta](const S& x) { return strict_sign<Ops>(x.over(delta)); };
        return TriTriTests<P, decltype(slope_sign)>{slope_sign}.template flips<Ops>(in, exact_answer, a, b);
    }

    /// Where the flips lie, for the witnessed-K search: the two triangles
    /// translated apart (or together) along each of the 26 nonzero patterns
    /// of -1, 0, 1. Parting takes a corner (the eight of two signs); joining
    /// a nearly coplanar pair takes a translation into a thin slab, which a
    /// corner overshoots at every K, and a pattern with a 0 crosses.
    static void directions(const double*, int, const double*, Directions& out) {
        const size_t t1 = triangle_triangle_input.at("t1"), t2 = triangle_triangle_input.at("t2");
        for (const std::array<signed char, 3>& s : nonzero_sign_patterns()) {
            Direction d(N, 0);
            for (size_t i = 0; i < 3; ++i)
                for (size_t k = 0; k < 3; ++k) {
                    d[t1 + 3 * k + i] = s[i];
                    d[t2 + 3 * k + i] = -s[i];
                }
            out.push_back(std::move(d));
        }
    }
};

}  // namespace isect::ref::fast::detail
