// Axis-aligned box vs triangle: do the closed box [lo, hi] and the closed
// triangle conv(a, b, c) share a point?
//
// Algorithm: the separating axis theorem for two convex polytopes, as in
// Akenine-Möller, "Fast 3D triangle-box overlap testing" (2001), and seeds 000
// and 002. The candidate axes are the three box face normals, the triangle
// normal n = (b - a) x (c - b), and the nine products e_i x f_j of a box
// direction and a triangle edge. Two closed convex sets are disjoint iff some
// candidate axis sees their projections apart; an axis that happens to be
// zero (an edge parallel to a box direction, a degenerate triangle's normal)
// never separates, and the remaining axes still form a complete set: a
// segment needs only the face normals and e_i x f, a point only the faces.
// Seed 002's case (box +-10, triangle (12,9,9) (9,12,9) (19,19,20)) is why
// the nine edge axes cannot be skipped: only (1,1,0) separates it.
//
// Arithmetic: inputs are floats, all work after the face tests is in double.
// Any axis at all is a sound test in exact arithmetic, so the rounding in an
// axis' direction never matters; what matters is the rounding of the
// projections along it. See fp.hpp for why double never overflows or
// underflows here: the classic float failure at magnitudes of 2^+-43, where
// n . v overflows to inf or flushes to zero, cannot happen.
//
// Domain: finite floats with lo <= hi on every axis. A flat box (lo == hi on
// some axis), a point box and degenerate triangles (segments, points) are in
// the domain and handled. Signed zeros compare equal and change nothing.
// Subnormals are ordinary values (no flush to zero is assumed: do not build
// with -ffast-math or DAZ/FTZ). NaN, +-inf and lo > hi are outside the
// domain: every kernel returns some bool without undefined behaviour, and the
// references refuse such input.
//
// Build policy: the bounds assume every double operation rounds once; build
// with -ffp-contract=off (CMake's isect::core carries it).
#pragma once

#include <type_traits>

#include "isect/exact.hpp"
#include "isect/fp.hpp"
#include "isect/primitives.hpp"

namespace isect {

/// True when the input is in the kernels' domain: every coordinate finite and
/// lo <= hi on every axis. Outside it there is no exact answer to check.
inline bool aabb_triangle_in_domain(const Aabb& box, const Triangle& tri) {
    for (int i = 0; i < 3; ++i) {
        if (!std::isfinite(box.lo[i]) || !std::isfinite(box.hi[i]) || !(box.lo[i] <= box.hi[i])) return false;
        for (const Vec3f& p : tri.v)
            if (!std::isfinite(p[i])) return false;
    }
    return true;
}

namespace detail {

/// The box face axes, decided exactly: comparisons do not round.
/// Returns true when some coordinate range of the triangle misses the box's.
template <class T> inline bool face_axes_separate(const BasicAabb<T>& box, const BasicTriangle<T>& t) {
    for (int i = 0; i < 3; ++i) {
        const T lo = min3(t.v[0][i], t.v[1][i], t.v[2][i]);
        const T hi = max3(t.v[0][i], t.v[1][i], t.v[2][i]);
        if (lo > box.hi[i] || hi < box.lo[i]) return true;
    }
    return false;
}

}  // namespace detail

namespace detail {
/// The normal of a double triangle, (v1 - v0) x (v2 - v1), from the exact
/// edges and the exact cross product, rounded once per component at the
/// end. On doubles the edges' differences round, and a sliver's normal built
/// from rounded edges points anywhere within about u |v| / thickness of the
/// true one: the double fuzz target found the double sat answering overlap
/// for a sliver 8e-9 thick, separated from a box corner along its normal by
/// 3e-9 (K 6.9e5; corpus/aabb_triangle/double_sat_sliver_normal.case). A
/// float triangle's edges and products are exact in double, so the float
/// kernel's plain cross product rounds once per component already. Exact
/// while no partial product underflows (inputs of magnitude above about
/// 2^-480); below, the normal is only less accurate.
inline Vec3d accurate_normal(const BasicTriangle<double>& t) {
    exact::DifferenceVec e0, e1;
    for (int i = 0; i < 3; ++i) {
        exact::two_sum(t.v[1][i], -t.v[0][i], e0[i].hi, e0[i].lo);
        exact::two_sum(t.v[2][i], -t.v[1][i], e1[i].hi, e1[i].lo);
    }
    const exact::ExpansionVec n = exact::cross(e0, e1);
    return {n[0].estimate(), n[1].estimate(), n[2].estimate()};
}

/// sat's work once the face axes have not separated: the normal and the nine
/// edge axes. Apart from the face tests so that the early-out path stays a
/// few instructions: inlined whole, gcc 12 set up the long path first and
/// the sparse workload ran 2.5 times slower.
template <class T> inline bool sat_normal_and_edges(const BasicAabb<T>& box, const BasicTriangle<T>& tri);
}  // namespace detail

/// Fast separating-axis test, box centred at the origin.
///
/// Returns true when the box and triangle overlap (touching counts), false
/// when a candidate axis separates them.
///
/// Contract: tolerant=1. It may differ from the exact answer only where
/// growing the box by delta = 2^-24 M and shrinking it by delta give different
/// exact answers (M: the largest input magnitude). The argument (not a proof;
/// the conservative kernel below has one): the face tests are exact. Every
/// other quantity is a chain of at most five double roundings, each 2^-53
/// relative, of values bounded by M (edges, centred vertices, half-sizes) and
/// their products, so each projection is off by a few 2^-53 |axis|_1 M, while
/// moving the box by delta moves its projection by 2^-24 |axis|_1 M: a margin
/// of 2^29. Any axis is sound in exact arithmetic, so what the axis is does
/// not matter, provided every vertex that can differ is projected: all three
/// on the normal (for a degenerate triangle the computed normal is rounding
/// noise, not perpendicular to anything: corpus sat_collinear_garbage_normal,
/// the fuzzer's find), two on an edge axis, which is perpendicular to the
/// computed edge by construction. Measured: the widest band any disagreement
/// needed in millions of generated cases is in the README (about 1e-10); broken
/// copies (the normal in float, one vertex on the normal) need K > 1 and are
/// caught.
///
/// Degenerate triangles: a zero axis never separates; edge axes still cover
/// segments. Outside the domain (NaN, inf, lo > hi): returns an unspecified
/// bool, never traps.
///
/// The same code on doubles (aabb_triangle_sat on AabbD, TriangleD) is the
/// double-precision kernel; what it keeps is measured by the checker in
/// units of 2^-53 (isect check --precision double).
template <class T> inline bool aabb_triangle_sat(const BasicAabb<T>& box, const BasicTriangle<T>& tri) {
    return !detail::face_axes_separate(box, tri) && detail::sat_normal_and_edges(box, tri);
}

template <class T> inline bool detail::sat_normal_and_edges(const BasicAabb<T>& box, const BasicTriangle<T>& tri) {
    Vec3d c, h;
    for (int i = 0; i < 3; ++i) {
        c[i] = 0.5 * (double(box.lo[i]) + box.hi[i]);
        h[i] = 0.5 * (double(box.hi[i]) - box.lo[i]);
    }
    Vec3d v0, v1, v2;
    for (int i = 0; i < 3; ++i) {
        v0[i] = tri.v[0][i] - c[i];
        v1[i] = tri.v[1][i] - c[i];
        v2[i] = tri.v[2][i] - c[i];
    }
    const Vec3d f0{v1[0] - v0[0], v1[1] - v0[1], v1[2] - v0[2]};
    const Vec3d f1{v2[0] - v1[0], v2[1] - v1[1], v2[2] - v1[2]};
    const Vec3d f2{v0[0] - v2[0], v0[1] - v2[1], v0[2] - v2[2]};

    // Triangle normal. All three vertices are projected: for a segment or a
    // sliver the computed n is rounding noise, not perpendicular to the
    // edges, and the vertices' projections differ by far more than the box
    // radius along it (corpus: sat_collinear_garbage_normal).
    Vec3d n;
    if constexpr (std::is_same_v<T, double>) n = accurate_normal(tri);
    else n = cross(f0, f1);
    const double d0 = dot(n, v0), d1 = dot(n, v1), d2 = dot(n, v2);
    const double rn = h[0] * std::fabs(n[0]) + h[1] * std::fabs(n[1]) + h[2] * std::fabs(n[2]);
    if (min3(d0, d1, d2) > rn || max3(d0, d1, d2) < -rn) return false;

    // Edge axes e_i x f. The axis is perpendicular to the computed f by
    // construction, and f is one rounding from the true edge, so the edge's
    // two endpoints project to one value up to u |f|^2, far inside the band:
    // each axis needs one endpoint (p) and the opposite vertex (q).
    const auto apart = [](double p, double q, double r) { return min2(p, q) > r || max2(p, q) < -r; };
    const Vec3d* const f[3] = {&f0, &f1, &f2};
    const Vec3d* const start[3] = {&v0, &v1, &v2};
    const Vec3d* const opposite[3] = {&v2, &v0, &v1};
    for (int j = 0; j < 3; ++j) {
        const Vec3d& e = *f[j];
        const Vec3d& p = *start[j];
        const Vec3d& q = *opposite[j];
        // e_x x e = (0, -e_z, e_y)
        if (apart(e[1] * p[2] - e[2] * p[1], e[1] * q[2] - e[2] * q[1],
                  h[1] * std::fabs(e[2]) + h[2] * std::fabs(e[1])))
            return false;
        // e_y x e = (e_z, 0, -e_x)
        if (apart(e[2] * p[0] - e[0] * p[2], e[2] * q[0] - e[0] * q[2],
                  h[0] * std::fabs(e[2]) + h[2] * std::fabs(e[0])))
            return false;
        // e_z x e = (-e_y, e_x, 0)
        if (apart(e[0] * p[1] - e[1] * p[0], e[0] * q[1] - e[1] * q[0],
                  h[0] * std::fabs(e[1]) + h[1] * std::fabs(e[0])))
            return false;
    }
    return true;
}

/// Conservative separating-axis test: never reports a false miss.
///
/// Returns false only when some axis separates the box and triangle by more
/// than the rounding of its own projections could hide; true otherwise.
///
/// Contract: conservative. Why it holds: an axis x (any double vector) is
/// taken as exact. Projections are computed uncentred, P_k = x . v_k and
/// B_max = sum_i max(x_i lo_i, x_i hi_i), each a three-term dot product off
/// by at most gamma(3) sum_i |x_i| W_i, where W_i = max_k |v_ki| + max(|lo_i|,
/// |hi_i|). The computed bound err = gamma(6) * (sum |x_i| W_i), with its own
/// five roundings and the rounding of the difference, still exceeds the
/// gamma(3) S the two projections can be off by, since gamma(6)(1 - gamma(6))
/// > gamma(3). So min P - B_max > err proves a positive gap. The face axes
/// are float comparisons and exact.
///
/// False hits: only where the gap along every axis is within about
/// 6 * 2^-53 of the magnitudes involved.
inline bool aabb_triangle_conservative(const Aabb& box, const Triangle& tri) {
    if (detail::face_axes_separate(box, tri)) return false;

    Vec3d v[3], lo, hi, w;
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) v[k][i] = tri.v[k][i];
        lo[i] = box.lo[i];
        hi[i] = box.hi[i];
        const double vmax = max3(std::fabs(v[0][i]), std::fabs(v[1][i]), std::fabs(v[2][i]));
        w[i] = vmax + max2(std::fabs(lo[i]), std::fabs(hi[i]));
    }
    const auto separated = [&](const Vec3d& x) {
        const double p0 = dot(x, v[0]), p1 = dot(x, v[1]), p2 = dot(x, v[2]);
        double bmin = 0, bmax = 0;
        for (int i = 0; i < 3; ++i) {
            const double a = x[i] * lo[i], b = x[i] * hi[i];
            bmin += min2(a, b);
            bmax += max2(a, b);
        }
        const double err = gamma(6) * (std::fabs(x[0]) * w[0] + std::fabs(x[1]) * w[1] + std::fabs(x[2]) * w[2]);
        return min3(p0, p1, p2) - bmax > err || bmin - max3(p0, p1, p2) > err;
    };

    const Vec3d f[3] = {sub(tri.v[1], tri.v[0]), sub(tri.v[2], tri.v[1]), sub(tri.v[0], tri.v[2])};
    if (separated(cross(f[0], f[1]))) return false;
    for (const Vec3d& e : f) {
        if (separated(Vec3d{0, -e[2], e[1]})) return false;
        if (separated(Vec3d{e[2], 0, -e[0]})) return false;
        if (separated(Vec3d{-e[1], e[0], 0})) return false;
    }
    return true;
}

namespace detail {

/// The triangle and box of one axis test: vertices, corners and the
/// magnitudes W_i = max_k |v_ki| + max(|lo_i|, |hi_i|).
struct SatInputs {
    Vec3d v[3], lo, hi, w;
};

/// One axis x decided in double: 1 when it certainly separates (x itself is
/// a valid axis, and its gap exceeds its rounding), 0 when the true axis it
/// stands for certainly does not, -1 when only exact arithmetic can tell.
/// slack bounds sum_i |x_i - a_i| W_i for the true axis a.
inline int sat_axis_verdict(const SatInputs& in, const Vec3d& x, double slack) {
    const double p0 = dot(x, in.v[0]), p1 = dot(x, in.v[1]), p2 = dot(x, in.v[2]);
    double bmin = 0, bmax = 0;
    for (int i = 0; i < 3; ++i) {
        const double a = x[i] * in.lo[i], b = x[i] * in.hi[i];
        bmin += min2(a, b);
        bmax += max2(a, b);
    }
    const double round = gamma(6) * (std::fabs(x[0]) * in.w[0] + std::fabs(x[1]) * in.w[1] + std::fabs(x[2]) * in.w[2]);
    const double g1 = min3(p0, p1, p2) - bmax, g2 = bmin - max3(p0, p1, p2);
    if (g1 > round || g2 > round) return 1;
    const double apart = round + slack;  // rounding, and the true axis's distance from x
    if (g1 < -apart && g2 < -apart) return 0;
    return -1;
}

/// Whether the edge axis a (each component an exact difference of floats,
/// or 0) separates the closed sets, exactly. p_k - bmax = sum_i a_i (v_ki -
/// c_i), c the corner a's signs pick; each a_i v and a_i c enters as four
/// exact terms, so a side is a sum of at most 16 terms (two nonzero a_i).
inline bool edge_axis_separates_exactly(const std::array<exact::Difference, 3>& a, const Triangle& tri, const Aabb& box) {
    // upper: the sign of p_k - bmax; otherwise of bmin - p_k.
    const auto side = [&](int k, bool upper) {
        exact::Terms t;
        for (int i = 0; i < 3; ++i) {
            const int s = a[size_t(i)].sign();
            if (s == 0) continue;
            const double c = (s > 0) == upper ? box.hi[i] : box.lo[i], v = tri.v[size_t(k)][size_t(i)];
            t.add_product(a[size_t(i)], upper ? v : c);
            t.add_product(-a[size_t(i)], upper ? c : v);
        }
        return t.sign();
    };
    bool above = true, below = true;
    for (int k = 0; k < 3 && above; ++k) above = side(k, true) > 0;
    if (above) return true;
    for (int k = 0; k < 3 && below; ++k) below = side(k, false) > 0;
    return below;
}

/// Whether the triangle's normal n (exact) separates, exactly: every vertex
/// projects to n . v0, so one side's test is the sign of n . (v0 - c), c the
/// corner n's signs pick, as an expansion (degree 3).
inline bool normal_separates_exactly(const std::array<exact::Expansion, 3>& n, const Triangle& tri, const Aabb& box) {
    using exact::Expansion;
    const auto side = [&](bool upper) {  // n . v0 - bmax, or bmin - n . v0
        Expansion sum;
        for (int i = 0; i < 3; ++i) {
            const int s = n[size_t(i)].sign();
            if (s == 0) continue;
            const float c = (s > 0) == upper ? box.hi[i] : box.lo[i], v = tri.v[0][size_t(i)];
            const exact::Difference g = upper ? exact::Difference(v, c) : exact::Difference(c, v);
            sum += n[size_t(i)].scaled(g.hi);
            sum += n[size_t(i)].scaled(g.lo);
        }
        return sum.sign();
    };
    return side(true) > 0 || side(false) > 0;
}

}  // namespace detail

/// The separating-axis test decided exactly: true iff the closed box and
/// the closed triangle share a point.
///
/// Contract: exact. Each of the 13 axes is first decided in double
/// (sat_axis_verdict): an axis that separates by more than the rounding of
/// its projections (the conservative kernel's bound, gamma(6) sum |x_i| W_i)
/// proves the sets disjoint, since any axis is a valid certificate; an axis
/// whose projections overlap by more than that plus the distance from the
/// true axis proves that the true axis does not separate. That distance:
/// an edge axis is e_c x f with f = v' - v rounded once, so sum |x_i - a_i|
/// W_i <= gamma(1) sum |x_i| W_i; the normal x = f0 x f1 is off its true
/// value by at most gamma(4) N_i per component, N the cross product of the
/// absolute values, counted twice (vertex and box projections move alike):
/// gamma(10) sum N_i W_i covers it with the bound's own roundings. The axes
/// left undecided are evaluated exactly (the edges as exact differences, the
/// normal as their exact cross product, projections as expansions:
/// degree 3 in the inputs, no underflow for float inputs). Zero axes never
/// separate, exactly as in sat's argument that the 13 axes are complete for
/// degenerate triangles too.
inline bool aabb_triangle_exact(const Aabb& box, const Triangle& tri) {
    if (detail::face_axes_separate(box, tri)) return false;
    detail::SatInputs in;
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) in.v[k][i] = tri.v[k][i];
        in.lo[i] = box.lo[i];
        in.hi[i] = box.hi[i];
        const double vmax = max3(std::fabs(in.v[0][i]), std::fabs(in.v[1][i]), std::fabs(in.v[2][i]));
        in.w[i] = vmax + max2(std::fabs(in.lo[i]), std::fabs(in.hi[i]));
    }
    const Vec3d f[3] = {sub(tri.v[1], tri.v[0]), sub(tri.v[2], tri.v[1]), sub(tri.v[0], tri.v[2])};
    const auto weighted = [&](const Vec3d& x) { return x[0] * in.w[0] + x[1] * in.w[1] + x[2] * in.w[2]; };
    int undecided = 0;  // bit 0: the normal; bit 1 + 3 j + c: edge j x box direction c
    const Vec3d n = cross(f[0], f[1]);
    switch (detail::sat_axis_verdict(in, n, gamma(10) * weighted(abs_cross(f[0], f[1])))) {
        case 1: return false;
        case -1: undecided |= 1; break;
        default: break;
    }
    for (int j = 0; j < 3; ++j) {
        const Vec3d& e = f[j];
        const Vec3d axes[3] = {{0, -e[2], e[1]}, {e[2], 0, -e[0]}, {-e[1], e[0], 0}};
        for (int c = 0; c < 3; ++c) {
            const Vec3d ax{std::fabs(axes[c][0]), std::fabs(axes[c][1]), std::fabs(axes[c][2])};
            switch (detail::sat_axis_verdict(in, axes[c], gamma(2) * weighted(ax))) {
                case 1: return false;
                case -1: undecided |= 1 << (1 + 3 * j + c); break;
                default: break;
            }
        }
    }
    if (!undecided) return true;
    // Outside the domain (a NaN, an infinity) the answer is unspecified: no
    // exact arithmetic for it (it would carry the NaN through expansions).
    if (!all_finite(box) || !all_finite(tri)) return true;
    // The axes double could not decide, in exact arithmetic.
    ++exact::fallbacks;
    using exact::Difference;
    std::array<Difference, 3> fe[3];
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) fe[j][size_t(i)] = Difference(tri.v[(j + 1) % 3][i], tri.v[j][i]);
    if (undecided & 1) {
        // n_i = f0_j f1_k - f0_k f1_j: sixteen exact terms, as an expansion.
        const auto component = [&](int i) {
            const size_t j = size_t((i + 1) % 3), k = size_t((i + 2) % 3);
            exact::Terms t;
            t.add_product(fe[0][j], fe[1][k]);
            t.add_product(-fe[0][k], fe[1][j]);
            return t.expansion();
        };
        if (detail::normal_separates_exactly({component(0), component(1), component(2)}, tri, box)) return false;
    }
    for (int j = 0; j < 3; ++j)
        for (int c = 0; c < 3; ++c) {
            if (!(undecided & (1 << (1 + 3 * j + c)))) continue;
            const auto& e = fe[j];
            const Difference zero;
            const std::array<Difference, 3> ax = c == 0   ? std::array<Difference, 3>{zero, -e[2], e[1]}
                                                 : c == 1 ? std::array<Difference, 3>{e[2], zero, -e[0]}
                                                          : std::array<Difference, 3>{-e[1], e[0], zero};
            if (detail::edge_axis_separates_exactly(ax, tri, box)) return false;
        }
    return true;
}

}  // namespace isect
