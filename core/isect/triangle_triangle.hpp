// Closed triangle vs closed triangle: do they share a point? A triangle is
// the convex hull of its three vertices, so a collinear one is a segment
// and a repeated one a point; all of them are in the domain.
//
// Three kernels:
//  - tri_tri_moller: Möller, "A Fast Triangle-Triangle Intersection Test"
//    (JGT 1997). The signed distances of each triangle's vertices to the
//    other's plane reject triangles wholly on one side; otherwise each
//    triangle meets the line L where the planes cross in an interval, found
//    from the two edges that cross the other plane and projected on L's
//    largest coordinate axis, and the triangles meet iff the intervals do.
//    Coplanar triangles go to a 2D test on the plane's largest projection:
//    every pair of edges, then one vertex of each in the other. The
//    published code tests each distance against EPSILON = 1e-6 and, in
//    float, that absolute epsilon is the bug users meet (a triangle with
//    edges under about 1e-2 has every distance below it and goes to the
//    coplanar branch; broken:moller_epsilon in the checker). Here it runs
//    in double on float input, with the epsilon test off, the published
//    code's other setting; degenerate triangles fall through to the
//    coplanar branch and its strict point-in-triangle test. The
//    intersection segment, where the triangles are not coplanar, is the
//    overlap of the two intervals as 3D points (Möller's
//    tri_tri_intersect_with_isectline). Contract tolerant=1 (K measured by
//    isect check), segment within E = 4 of its condition scale.
//  - tri_tri_orientation<Preds>: Guigue and Devillers, "Fast and Robust
//    Triangle-Triangle Overlap Test Using Orientation Predicates" (JGT
//    2003), written here for closed sets and every degeneracy. Every
//    decision is the sign of a 3D orientation (the triple product
//    ((b - a) x (c - a)) . (d - a)) or of a 2D one in a coordinate plane:
//    each triangle's vertices against the other's plane; both triangles
//    rotated so that one vertex is alone on its side of the other plane
//    (the other triangle's orientation flipped to make that side positive);
//    then the two intervals on L overlap iff orient(p1, q1, p2, q2) <= 0 and
//    orient(p1, r1, r2, p2) <= 0. Coplanar triangles: a 2D test in a
//    coordinate plane the triangles project onto without collapsing.
//    A collinear triangle is the segment between its extreme vertices and
//    is tested as a segment against the other (segment vs triangle by the
//    side of each endpoint and the orientations of the line with each
//    edge; segment vs segment in a projection, or along their line).
//    The predicates decide everything:
//      OrientDouble: in double from float input; each sign is off only
//        where the exact orientation is within about 2^-50 of its
//        magnitude, so it errs only inside tolerant=1's band.
//      OrientExactOf<T>: a double filter with a derived bound (gamma(10) of the
//        permanent), exact expansions where it cannot decide (exact.hpp):
//        tri_tri_exact, contract exact, float input.
//    In float arithmetic, as the published code runs in a float engine, a
//    triple product of floats overflows above about 2^42 and underflows
//    below 2^-42 (broken:orientation_in_float).
//
// Domain: finite values. NaN input gives an answer, not a promise.
#pragma once

#include <cmath>

#include "isect/exact.hpp"
#include "isect/fp.hpp"
#include "isect/primitives.hpp"

namespace isect {

/// Where two triangles that are not coplanar meet: the segment [p, q] (p
/// == q for a single point). set is false when the kernel does not know it
/// (coplanar or degenerate triangles, or no intersection).
struct TriTriSegment {
    bool set = false;
    Vec3d p{}, q{};
};

namespace detail {

/// What becomes of the plane distances before they are used. Each policy
/// gets them and their rounding bounds (da: A's vertices against B's plane,
/// ea their bounds; db, eb the reverse).
///  - RoundedDistances (the kernel): when both triangles' distances are
///    all within their rounding bounds, the pair is coplanar as far as the
///    arithmetic can tell and every distance becomes 0: the coplanar branch
///    then decides, in 2D, where the signs of rounding noise would have
///    sent nearly coplanar triangles down the crossing branch with
///    meaningless intervals. (What Möller's epsilon is for, as a bound.)
///    One side alone within its bounds is not coplanarity: a sliver's
///    normal is tiny against its bound, so the other triangle's distances
///    to its plane all are, while the sliver plainly crosses the other
///    plane (corpus/triangle_triangle/moller_sliver_plane_within_noise).
///  - EpsilonDistances: each distance under an absolute epsilon set to 0,
///    as the published code does.
struct RoundedDistances {
    template <class R> void operator()(R (&da)[3], R (&db)[3], const R (&ea)[3], const R (&eb)[3]) const {
        const auto flat = [](const R (&d)[3], const R (&e)[3]) {
            return std::fabs(d[0]) <= e[0] && std::fabs(d[1]) <= e[1] && std::fabs(d[2]) <= e[2];
        };
        if (!flat(da, ea) || !flat(db, eb)) return;
        for (int i = 0; i < 3; ++i) da[i] = db[i] = 0;
    }
};
template <class R> struct EpsilonDistances {
    R epsilon;
    void operator()(R (&da)[3], R (&db)[3], const R (&)[3], const R (&)[3]) const {
        for (R* d : {da, db})
            for (int i = 0; i < 3; ++i)
                if (std::fabs(d[i]) < epsilon) d[i] = 0;
    }
};

/// Möller's test in arithmetic R (double for the kernel, float for the
/// published code). da are A's vertices' distances to B's plane, db B's to
/// A's, computed as Möller does (n . v + offset, offset = -n . v0); each is
/// within gamma(12) of n's permanent (the cross product of the edges'
/// absolute values) times |v| + |v0|, the bound `adjust` is given.
template <class R, class T, class Adjust>
inline bool moller(const BasicTriangle<T>& A, const BasicTriangle<T>& B, const Adjust& adjust, TriTriSegment* segment) {
    using V = std::array<R, 3>;
    const auto at = [](const std::array<T, 3>& p) { return V{R(p[0]), R(p[1]), R(p[2])}; };
    const auto minus = [](const V& x, const V& y) { return V{x[0] - y[0], x[1] - y[1], x[2] - y[2]}; };
    const auto cross3 = [](const V& x, const V& y) {
        return V{x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
    };
    const auto dot3 = [](const V& x, const V& y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; };
    const auto abs3 = [](const V& x) { return V{std::fabs(x[0]), std::fabs(x[1]), std::fabs(x[2])}; };
    const V a[3] = {at(A.v[0]), at(A.v[1]), at(A.v[2])}, b[3] = {at(B.v[0]), at(B.v[1]), at(B.v[2])};
    const R g = R(gamma(12));
    const auto distances = [&](const V (&t)[3], const V (&of)[3], V& n, R (&d)[3], R (&e)[3]) {
        const V u = minus(t[1], t[0]), w = minus(t[2], t[0]);
        n = cross3(u, w);
        const V au = abs3(u), aw = abs3(w);
        const V permanent{au[1] * aw[2] + au[2] * aw[1], au[2] * aw[0] + au[0] * aw[2], au[0] * aw[1] + au[1] * aw[0]};
        const R offset = -dot3(n, t[0]), base = dot3(permanent, abs3(t[0]));
        for (int i = 0; i < 3; ++i) {
            d[i] = dot3(n, of[i]) + offset;
            e[i] = g * (dot3(permanent, abs3(of[i])) + base);
        }
    };
    V n1, n2;
    R db[3], da[3], eb[3], ea[3];
    distances(a, b, n1, db, eb);
    distances(b, a, n2, da, ea);
    adjust(da, db, ea, eb);
    const auto one_side = [](const R (&d)[3]) { return d[0] * d[1] > 0 && d[0] * d[2] > 0; };  // none on the plane
    if (one_side(db) || one_side(da)) return false;

    // The 2D test of coplanar triangles on the plane of n1's largest axis.
    const auto coplanar = [&]() {
        const R x = std::fabs(n1[0]), y = std::fabs(n1[1]), z = std::fabs(n1[2]);
        int drop = 1;  // the largest normal component's axis
        if (x > y) drop = x > z ? 0 : 2;
        else if (z > y) drop = 2;
        const int i0 = drop == 0 ? 1 : 0, i1 = drop == 2 ? 1 : 2;
        // Do the segments [p0, p1] and [q0, q1] cross? (Antonio's test, as
        // Möller uses it: collinear edges are never reported.)
        const auto edges_cross = [&](const V& p0, const V& p1, const V& q0, const V& q1) {
            const R ax = p1[i0] - p0[i0], ay = p1[i1] - p0[i1];
            const R bx = q0[i0] - q1[i0], by = q0[i1] - q1[i1];
            const R cx = p0[i0] - q0[i0], cy = p0[i1] - q0[i1];
            const R f = ay * bx - ax * by, d = by * cx - bx * cy;
            if ((f > 0 && d >= 0 && d <= f) || (f < 0 && d <= 0 && d >= f)) {
                const R e = ax * cy - ay * cx;
                if (f > 0) return e >= 0 && e <= f;
                return e <= 0 && e >= f;
            }
            return false;
        };
        // Is p strictly inside triangle t (all three edge functions of one sign)?
        const auto inside = [&](const V& p, const V (&t)[3]) {
            R s[3];
            for (int k = 0; k < 3; ++k) {
                const V& u = t[k];
                const V& w = t[(k + 1) % 3];
                const R la = w[i1] - u[i1], lb = -(w[i0] - u[i0]), lc = -la * u[i0] - lb * u[i1];  // the edge's line
                s[k] = la * p[i0] + lb * p[i1] + lc;
            }
            return s[0] * s[1] > 0 && s[0] * s[2] > 0;
        };
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                if (edges_cross(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3])) return true;
        return inside(a[0], b) || inside(b[0], a);
    };

    // L's direction and its largest axis; each triangle's vertex alone on
    // its side of the other plane, and the interval of its two crossings.
    const V dir = cross3(n1, n2);
    int axis = 0;
    if (std::fabs(dir[1]) > std::fabs(dir[axis])) axis = 1;
    if (std::fabs(dir[2]) > std::fabs(dir[axis])) axis = 2;
    struct Interval {
        R t0, t1;
        V p0, p1;
    };
    const auto interval = [&](const V (&t)[3], const R (&d)[3], Interval& out) {
        int alone;
        if (d[0] * d[1] > 0) alone = 2;
        else if (d[0] * d[2] > 0) alone = 1;
        else if (d[1] * d[2] > 0 || d[0] != 0) alone = 0;
        else if (d[1] != 0) alone = 1;
        else if (d[2] != 0) alone = 2;
        else return false;  // coplanar
        const int j = (alone + 1) % 3, k = (alone + 2) % 3;
        const V& v0 = t[alone];
        const auto crossing = [&](int other, R& param, V& point) {
            const R s = d[alone] / (d[alone] - d[other]);
            for (int c = 0; c < 3; ++c) point[size_t(c)] = v0[size_t(c)] + (t[other][size_t(c)] - v0[size_t(c)]) * s;
            param = v0[size_t(axis)] + (t[other][size_t(axis)] - v0[size_t(axis)]) * s;
        };
        crossing(j, out.t0, out.p0);
        crossing(k, out.t1, out.p1);
        if (out.t0 > out.t1) {
            std::swap(out.t0, out.t1);
            std::swap(out.p0, out.p1);
        }
        return true;
    };
    Interval ia, ib;
    if (!interval(a, da, ia) || !interval(b, db, ib)) return coplanar();
    if (ia.t1 < ib.t0 || ib.t1 < ia.t0) return false;
    if (segment) {
        const V& p = ia.t0 > ib.t0 ? ia.p0 : ib.p0;
        const V& q = ia.t1 < ib.t1 ? ia.p1 : ib.p1;
        segment->set = true;
        segment->p = {double(p[0]), double(p[1]), double(p[2])};
        segment->q = {double(q[0]), double(q[1]), double(q[2])};
    }
    return true;
}

// --- Orientation predicates ---------------------------------------------------------

/// The sign of ((b - a) x (c - a)) . (d - a), and of its 2D form in the
/// coordinate plane without axis `drop`, computed in arithmetic R.
template <class R> struct OrientPlain {
    template <class T> static std::array<R, 3> of(const std::array<T, 3>& p) { return {R(p[0]), R(p[1]), R(p[2])}; }
    static int sign(R x) { return (x > 0) - (x < 0); }
    template <class T>
    static int orient3d(const std::array<T, 3>& a, const std::array<T, 3>& b, const std::array<T, 3>& c,
                        const std::array<T, 3>& d) {
        const auto pa = of(a), pb = of(b), pc = of(c), pd = of(d);
        const R ux = pb[0] - pa[0], uy = pb[1] - pa[1], uz = pb[2] - pa[2];
        const R vx = pc[0] - pa[0], vy = pc[1] - pa[1], vz = pc[2] - pa[2];
        const R wx = pd[0] - pa[0], wy = pd[1] - pa[1], wz = pd[2] - pa[2];
        return sign((uy * vz - uz * vy) * wx + (uz * vx - ux * vz) * wy + (ux * vy - uy * vx) * wz);
    }
    /// A triangle's plane, for several orient3d(a, b, c, d) with one a, b, c.
    struct Plane {
        std::array<R, 3> a, n;
    };
    template <class T> static Plane plane(const std::array<T, 3>& a, const std::array<T, 3>& b, const std::array<T, 3>& c) {
        const auto pa = of(a), pb = of(b), pc = of(c);
        const std::array<R, 3> u{pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]}, v{pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]};
        return {pa, {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]}};
    }
    template <class T> static int side(const Plane& p, const std::array<T, 3>& d) {
        const auto pd = of(d);
        return sign(p.n[0] * (pd[0] - p.a[0]) + p.n[1] * (pd[1] - p.a[1]) + p.n[2] * (pd[2] - p.a[2]));
    }
    template <class T>
    static int orient2d(const std::array<T, 3>& a, const std::array<T, 3>& b, const std::array<T, 3>& c, int drop) {
        const int i = (drop + 1) % 3, j = (drop + 2) % 3;
        const R ux = R(b[size_t(i)]) - R(a[size_t(i)]), uy = R(b[size_t(j)]) - R(a[size_t(j)]);
        const R vx = R(c[size_t(i)]) - R(a[size_t(i)]), vy = R(c[size_t(j)]) - R(a[size_t(j)]);
        return sign(ux * vy - uy * vx);
    }
};
using OrientDouble = OrientPlain<double>;
using OrientFloat = OrientPlain<float>;

/// The double filter of an exact orient3d with a fixed triangle: its
/// normal and the normal's permanent (the cross product of the edges'
/// absolute values), computed once; side() decides a sign when the double
/// triple product is beyond gamma(10) of its permanent and says 2
/// (undecided) otherwise, for the caller's exact path.
struct FilteredPlane {
    Vec3d a, n, an;
    template <class T> FilteredPlane(const std::array<T, 3>& pa, const std::array<T, 3>& pb, const std::array<T, 3>& pc) {
        a = {double(pa[0]), double(pa[1]), double(pa[2])};
        const Vec3d u{double(pb[0]) - a[0], double(pb[1]) - a[1], double(pb[2]) - a[2]};
        const Vec3d v{double(pc[0]) - a[0], double(pc[1]) - a[1], double(pc[2]) - a[2]};
        n = cross(u, v);
        const Vec3d au{std::fabs(u[0]), std::fabs(u[1]), std::fabs(u[2])}, av{std::fabs(v[0]), std::fabs(v[1]), std::fabs(v[2])};
        an = {au[1] * av[2] + au[2] * av[1], au[2] * av[0] + au[0] * av[2], au[0] * av[1] + au[1] * av[0]};
    }
    template <class T> int side(const std::array<T, 3>& d) const {
        const Vec3d w{double(d[0]) - a[0], double(d[1]) - a[1], double(d[2]) - a[2]};
        const double det = dot(n, w), bound = gamma(10) * dot(an, Vec3d{std::fabs(w[0]), std::fabs(w[1]), std::fabs(w[2])});
        if (det > bound) return 1;
        if (det < -bound) return -1;
        return 2;
    }
};

/// The exact signs behind the filters below, for float points: the
/// differences of floats are exact Difference pairs and the triple product
/// an exact expansion (degree 3; nothing underflows for float input).
inline int exact_orient3d(const Vec3f& a, const Vec3f& b, const Vec3f& c, const Vec3f& d) {
    // Outside the domain (a NaN, an infinity): an answer, not a promise,
    // and no expansions carrying the NaN.
    if (!all_finite(a) || !all_finite(b) || !all_finite(c) || !all_finite(d)) return 0;
    ++exact::fallbacks;
    return exact::dot(exact::difference(d, a), exact::cross(exact::difference(b, a), exact::difference(c, a))).sign();
}
inline int exact_orient2d(const Vec3f& a, const Vec3f& b, const Vec3f& c, size_t i, size_t j) {
    if (!all_finite(a) || !all_finite(b) || !all_finite(c)) return 0;  // outside the domain, as above
    ++exact::fallbacks;
    const exact::Difference dux(b[i], a[i]), duy(b[j], a[j]), dvx(c[i], a[i]), dvy(c[j], a[j]);
    exact::Terms t;
    t.add_product(dux, dvy);
    t.add_product(-duy, dvx);
    return t.sign();
}

/// The same for double points: the differences as expansions (two
/// components each) and their products. Exact while no product of three
/// differences falls below about 2^-960 (two_product's error term
/// underflows): every nonzero magnitude in 2^-250:2^250.
inline int exact_orient3d(const Vec3d& a, const Vec3d& b, const Vec3d& c, const Vec3d& d) {
    ++exact::fallbacks;
    exact::Expansion du[3], dv[3], dw[3];
    for (size_t i = 0; i < 3; ++i) {
        du[i] = exact::Expansion::difference(b[i], a[i]);
        dv[i] = exact::Expansion::difference(c[i], a[i]);
        dw[i] = exact::Expansion::difference(d[i], a[i]);
    }
    exact::Expansion r;
    for (size_t i = 0; i < 3; ++i) {
        const size_t j = (i + 1) % 3, k = (i + 2) % 3;
        r += (du[j] * dv[k] - du[k] * dv[j]) * dw[i];
    }
    return r.sign();
}
inline int exact_orient2d(const Vec3d& a, const Vec3d& b, const Vec3d& c, size_t i, size_t j) {
    ++exact::fallbacks;
    const exact::Expansion dux = exact::Expansion::difference(b[i], a[i]), duy = exact::Expansion::difference(b[j], a[j]);
    const exact::Expansion dvx = exact::Expansion::difference(c[i], a[i]), dvy = exact::Expansion::difference(c[j], a[j]);
    return (dux * dvy - duy * dvx).sign();
}

/// Exact orientations of points of T (float or double): a double filter,
/// then the exact sign above. In double, the differences round at most
/// once and the triple product adds seven roundings more along any term:
/// within gamma(10) of its permanent (the same expression on absolute
/// values), a sign beyond that is certain. The 2D orientation likewise,
/// within gamma(4).
template <class T> struct OrientExactOf {
    using Pt = std::array<T, 3>;
    struct Plane {
        FilteredPlane filter;
        const Pt *a, *b, *c;
    };
    static Plane plane(const Pt& a, const Pt& b, const Pt& c) { return {FilteredPlane(a, b, c), &a, &b, &c}; }
    static int side(const Plane& p, const Pt& d) {
        const int s = p.filter.side(d);
        return s != 2 ? s : exact_orient3d(*p.a, *p.b, *p.c, d);
    }
    static int orient3d(const Pt& a, const Pt& b, const Pt& c, const Pt& d) {
        const Vec3d u = sub(b, a), v = sub(c, a), w = sub(d, a);
        const double det = dot(cross(u, v), w);
        const Vec3d au{std::fabs(u[0]), std::fabs(u[1]), std::fabs(u[2])}, av{std::fabs(v[0]), std::fabs(v[1]), std::fabs(v[2])};
        const Vec3d aw{std::fabs(w[0]), std::fabs(w[1]), std::fabs(w[2])};
        const Vec3d an{au[1] * av[2] + au[2] * av[1], au[2] * av[0] + au[0] * av[2], au[0] * av[1] + au[1] * av[0]};
        const double bound = gamma(10) * dot(an, aw);
        if (det > bound) return 1;
        if (det < -bound) return -1;
        return exact_orient3d(a, b, c, d);
    }
    static int orient2d(const Pt& a, const Pt& b, const Pt& c, int drop) {
        const size_t i = size_t((drop + 1) % 3), j = size_t((drop + 2) % 3);
        const double ux = double(b[i]) - a[i], uy = double(b[j]) - a[j], vx = double(c[i]) - a[i], vy = double(c[j]) - a[j];
        const double det = ux * vy - uy * vx, bound = gamma(4) * (std::fabs(ux * vy) + std::fabs(uy * vx));
        if (det > bound) return 1;
        if (det < -bound) return -1;
        return exact_orient2d(a, b, c, i, j);
    }
};

/// The orientation-predicate test, for closed triangles and every
/// degeneracy; P decides each sign.
template <class P, class T> class OrientationTest {
public:
    using Pt = std::array<T, 3>;

    static bool triangles(const BasicTriangle<T>& A, const BasicTriangle<T>& B) {
        const Shape a = shape(A), b = shape(B);
        if (a.kind == Kind::proper && b.kind == Kind::proper) return proper(A.v, B.v);
        if (a.kind == Kind::proper) return with_triangle(b, A.v);
        if (b.kind == Kind::proper) return with_triangle(a, B.v);
        if (a.kind == Kind::point && b.kind == Kind::point) return a.p == b.p;
        if (a.kind == Kind::point) return on_segment(a.p, b.p, b.q);
        if (b.kind == Kind::point) return on_segment(b.p, a.p, a.q);
        return segments(a.p, a.q, b.p, b.q);
    }

private:
    enum class Kind { proper, segment, point };
    struct Shape {
        Kind kind;
        Pt p, q;  ///< a segment's ends, or the point (p)
    };

    /// A coordinate plane a proper triangle projects onto without collapsing.
    static int projection(const Pt& a, const Pt& b, const Pt& c) {
        for (int drop = 2; drop >= 0; --drop)
            if (P::orient2d(a, b, c, drop) != 0) return drop;
        return -1;
    }
    static Shape shape(const BasicTriangle<T>& t) {
        const Pt &a = t.v[0], &b = t.v[1], &c = t.v[2];
        if (projection(a, b, c) >= 0) return {Kind::proper, a, a};
        // Collinear: the extreme vertices along an axis where they differ.
        for (size_t k = 0; k < 3; ++k) {
            if (a[k] == b[k] && b[k] == c[k]) continue;
            const Pt* lo = &a;
            const Pt* hi = &a;
            for (const Pt* p : {&b, &c}) {
                if ((*p)[k] < (*lo)[k]) lo = p;
                if ((*p)[k] > (*hi)[k]) hi = p;
            }
            return {Kind::segment, *lo, *hi};
        }
        return {Kind::point, a, a};
    }
    static bool between(T x, T a, T b) { return (a <= x && x <= b) || (b <= x && x <= a); }
    /// x on the closed segment [p, q], p != q: on its line and within it.
    static bool on_segment(const Pt& x, const Pt& p, const Pt& q) {
        for (int drop = 0; drop < 3; ++drop)
            if (P::orient2d(p, q, x, drop) != 0) return false;
        return between(x[0], p[0], q[0]) && between(x[1], p[1], q[1]) && between(x[2], p[2], q[2]);
    }
    /// x in the closed triangle t (proper), projected without axis drop, x
    /// in t's plane.
    static bool inside_2d(const Pt& x, const std::array<Pt, 3>& t, int drop) {
        const int o = P::orient2d(t[0], t[1], t[2], drop);
        for (int k = 0; k < 3; ++k)
            if (P::orient2d(t[size_t(k)], t[size_t((k + 1) % 3)], x, drop) * o < 0) return false;
        return true;
    }
    /// Closed segments [p, q] and [r, s] in the projection without axis drop
    /// (either may be a point).
    static bool segments_2d(const Pt& p, const Pt& q, const Pt& r, const Pt& s, int drop) {
        const int o1 = P::orient2d(p, q, r, drop), o2 = P::orient2d(p, q, s, drop);
        const int o3 = P::orient2d(r, s, p, drop), o4 = P::orient2d(r, s, q, drop);
        if (o1 * o2 < 0 && o3 * o4 < 0) return true;
        const int i = (drop + 1) % 3, j = (drop + 2) % 3;
        const auto within = [&](const Pt& x, const Pt& u, const Pt& w) {
            return between(x[size_t(i)], u[size_t(i)], w[size_t(i)]) && between(x[size_t(j)], u[size_t(j)], w[size_t(j)]);
        };
        return (o1 == 0 && within(r, p, q)) || (o2 == 0 && within(s, p, q)) || (o3 == 0 && within(p, r, s)) ||
               (o4 == 0 && within(q, r, s));
    }
    /// Two closed segments in 3D, each with distinct ends.
    static bool segments(const Pt& p, const Pt& q, const Pt& r, const Pt& s) {
        if (P::orient3d(p, q, r, s) != 0) return false;  // not coplanar
        for (int drop = 2; drop >= 0; --drop)
            if (P::orient2d(p, q, r, drop) != 0 || P::orient2d(p, q, s, drop) != 0) return segments_2d(p, q, r, s, drop);
        // r and s on the line pq: compare along an axis where pq extends.
        for (size_t k = 0; k < 3; ++k)
            if (p[k] != q[k])
                return std::max(std::min(p[k], q[k]), std::min(r[k], s[k])) <=
                       std::min(std::max(p[k], q[k]), std::max(r[k], s[k]));
        return false;
    }
    /// A segment or point against a proper triangle.
    static bool with_triangle(const Shape& s, const std::array<Pt, 3>& t) {
        const auto plane = P::plane(t[0], t[1], t[2]);
        const int sp = P::side(plane, s.p);
        if (s.kind == Kind::point) return sp == 0 && inside_2d(s.p, t, projection(t[0], t[1], t[2]));
        const int sq = P::side(plane, s.q);
        if (sp * sq > 0) return false;
        if (sp == 0 && sq == 0) {  // in the triangle's plane
            const int drop = projection(t[0], t[1], t[2]);
            if (inside_2d(s.p, t, drop) || inside_2d(s.q, t, drop)) return true;
            for (int k = 0; k < 3; ++k)
                if (segments_2d(s.p, s.q, t[size_t(k)], t[size_t((k + 1) % 3)], drop)) return true;
            return false;
        }
        // The line pq crosses the plane once: inside iff its orientations
        // with the three edges do not disagree.
        const int o0 = P::orient3d(s.p, s.q, t[0], t[1]), o1 = P::orient3d(s.p, s.q, t[1], t[2]),
                  o2 = P::orient3d(s.p, s.q, t[2], t[0]);
        return !((o0 > 0 || o1 > 0 || o2 > 0) && (o0 < 0 || o1 < 0 || o2 < 0));
    }
    /// Coplanar proper triangles.
    static bool coplanar(const std::array<Pt, 3>& a, const std::array<Pt, 3>& b) {
        const int drop = projection(a[0], a[1], a[2]);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                if (segments_2d(a[size_t(i)], a[size_t((i + 1) % 3)], b[size_t(j)], b[size_t((j + 1) % 3)], drop)) return true;
        return inside_2d(a[0], b, drop) || inside_2d(b[0], a, drop);
    }
    /// The vertex alone on its side of a plane, from the three signs s: the
    /// rotation that puts it first, and +1 when it is on the positive side
    /// (the others on the closed negative one), -1 for the reverse.
    static void alone(const int (&s)[3], int& first, int& side) {
        for (int r = 0; r < 3; ++r) {
            const int x = s[r], y = s[(r + 1) % 3], z = s[(r + 2) % 3];
            if (x > 0 && y <= 0 && z <= 0) return void((first = r, side = 1));
            if (x < 0 && y >= 0 && z >= 0) return void((first = r, side = -1));
        }
        for (int r = 0; r < 3; ++r) {  // one vertex on the plane, the others on one side
            const int x = s[r], y = s[(r + 1) % 3], z = s[(r + 2) % 3];
            if (x == 0 && y < 0 && z < 0) return void((first = r, side = 1));
            if (x == 0 && y > 0 && z > 0) return void((first = r, side = -1));
        }
        first = 0;
        side = 1;
    }
    /// Two proper triangles.
    static bool proper(const std::array<Pt, 3>& A, const std::array<Pt, 3>& B) {
        int sa[3], sb[3];
        const auto plane_b = P::plane(B[0], B[1], B[2]);
        for (int i = 0; i < 3; ++i) sa[i] = P::side(plane_b, A[size_t(i)]);
        if ((sa[0] > 0 && sa[1] > 0 && sa[2] > 0) || (sa[0] < 0 && sa[1] < 0 && sa[2] < 0)) return false;
        const auto plane_a = P::plane(A[0], A[1], A[2]);
        for (int i = 0; i < 3; ++i) sb[i] = P::side(plane_a, B[size_t(i)]);
        if ((sb[0] > 0 && sb[1] > 0 && sb[2] > 0) || (sb[0] < 0 && sb[1] < 0 && sb[2] < 0)) return false;
        if (sa[0] == 0 && sa[1] == 0 && sa[2] == 0) return coplanar(A, B);
        int fa, ka, fb, kb;
        alone(sa, fa, ka);
        alone(sb, fb, kb);
        // Rotated (orientation kept) so the lone vertices come first; a
        // triangle's orientation flipped (its last two swapped) so that the
        // other's lone vertex is on the positive side of its plane.
        const Pt& p1 = A[size_t(fa)];
        const Pt* q1 = &A[size_t((fa + 1) % 3)];
        const Pt* r1 = &A[size_t((fa + 2) % 3)];
        const Pt& p2 = B[size_t(fb)];
        const Pt* q2 = &B[size_t((fb + 1) % 3)];
        const Pt* r2 = &B[size_t((fb + 2) % 3)];
        if (ka < 0) std::swap(q2, r2);
        if (kb < 0) std::swap(q1, r1);
        return P::orient3d(p1, *q1, p2, *q2) <= 0 && P::orient3d(p1, *r1, *r2, p2) <= 0;
    }
};

}  // namespace detail

/// Möller 1997 in double, epsilon test off; with segment, also the
/// intersection segment where the triangles are not coplanar. Möller's
/// test assumes proper triangles (a zero normal sends everything to its
/// coplanar branch, which then projects along an arbitrary axis): a
/// triangle whose normal computes to exactly zero is a segment or a point,
/// and goes to the orientation test in double instead. tolerant=1.
template <class T>
inline bool tri_tri_moller(const BasicTriangle<T>& a, const BasicTriangle<T>& b, TriTriSegment* segment = nullptr) {
    const auto flat = [](const BasicTriangle<T>& t) {
        const Vec3d n = cross(sub(t.v[1], t.v[0]), sub(t.v[2], t.v[0]));
        return n[0] == 0 && n[1] == 0 && n[2] == 0;
    };
    if (flat(a) || flat(b)) return detail::OrientationTest<detail::OrientExactOf<T>, T>::triangles(a, b);
    return detail::moller<double>(a, b, detail::RoundedDistances{}, segment);
}

/// Guigue-Devillers' orientation test for closed, possibly degenerate
/// triangles, each orientation in double. tolerant=1.
template <class T> inline bool tri_tri_orientation(const BasicTriangle<T>& a, const BasicTriangle<T>& b) {
    return detail::OrientationTest<detail::OrientDouble, T>::triangles(a, b);
}

/// The same with exact orientations (a filter, then expansions). exact
/// (doubles: in 2^-250:2^250).
template <class T> inline bool tri_tri_exact(const BasicTriangle<T>& a, const BasicTriangle<T>& b) {
    return detail::OrientationTest<detail::OrientExactOf<T>, T>::triangles(a, b);
}

}  // namespace isect
