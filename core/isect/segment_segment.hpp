// Closest points of two closed segments S1 = [p1, q1] and S2 = [p2, q2]
// (a segment whose ends are equal is a point): the least squared distance
// dist2 = min |P1(s) - P2(t)|^2 over s, t in [0, 1], where P1(s) = p1 +
// s (q1 - p1) and P2(t) = p2 + t (q2 - p2); parameters s, t that reach it;
// and the points c1 = P1(s), c2 = P2(t). The segments meet iff dist2 = 0.
// Where the minimiser is not unique (parallel segments whose projections
// overlap), any pair that reaches the minimum is right.
//
// With d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2 and a = d1 . d1, e = d2 . d2,
// b = d1 . d2, c = d1 . r, f = d2 . r, the squared distance is the convex
// quadratic D(s, t) = r . r + 2 c s - 2 f t + a s^2 - 2 b s t + e t^2.
//
// Kernels, each in the arithmetic T of its input:
//  - closest_segment_segment_ericson: Ericson, Real-Time Collision
//    Detection, section 5.1.9 (ClosestPtSegmentSegment), as engines carry
//    it: s from the unconstrained minimum clamped to [0, 1] (0 when the
//    segments are parallel, denom = a e - b^2 = 0), t = (b s + f) / e, and
//    where t leaves [0, 1] it is clamped and s recomputed for it. epsilon
//    is the published EPSILON: a segment whose squared length a or e is at
//    most epsilon is taken for its first end. With epsilon = 0 only a true
//    point is (the built-in); the 1e-6 that code is commonly pasted with is
//    an absolute length of 1e-3, and a short segment at ordinary scale then
//    answers for its end (broken:ericson_epsilon in the checker).
//  - closest_segment_segment_exact: the minimum found with exact signs:
//    the unconstrained minimum where it lies in the square, else the least
//    of the four edges' minima, each edge's a clamp decided by a sign and
//    the edges compared by cross-multiplied fractions; every test the sign
//    of a polynomial of degree at most 6 in the inputs: first in double
//    with a running error bound (detail::Bounded), then with exact values
//    tracked too, and where neither settles a sign, on expansions
//    (exact.hpp). The answer (meet or not) is
//    exact; the numbers are the chosen fractions rounded in double. Float input: exact over every
//    float (products of six float differences stay within the double
//    range and above its subnormals); double input: in 2^-100:2^100.
//
// Domain: finite values. NaN input gives an answer, not a promise.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>

#include "isect/exact.hpp"
#include "isect/filter.hpp"
#include "isect/fp.hpp"
#include "isect/primitives.hpp"

namespace isect {

/// The closest pair of two segments.
struct SegmentClosest {
    double dist2 = 0, s = 0, t = 0;
    Vec3d c1{}, c2{};
    /// Whether the segments meet, as the kernel decides it: dist2 == 0 for
    /// a kernel that only computes, the exact sign for the exact one (whose
    /// dist2 may underflow to 0 for segments apart by 1e-170).
    bool meets = false;
    bool meet() const { return meets; }
};

namespace detail {

/// The least of D(s, t) over the square, as fractions with positive
/// denominators (s = s_num / s_den...), in the number type of Ops (Ops::NT
/// with +, -, *; Ops::sgn exact, or throwing or flagging where it cannot decide): one
/// algorithm for the exact kernel (expansions), the fast oracle (intervals,
/// then Mpzf) and the band. NT vectors p1, q1, p2, q2 hold the inputs
/// exactly.
/// What shape of pair decided it, as the signs the algorithm took found it:
/// two segments of extent, not parallel (skew); parallel ones; one segment a
/// point; both points.
enum class SegmentShape : unsigned char { skew, parallel, one_point, both_points };

template <class NT> struct SegmentMinimum {
    NT s_num, s_den, t_num, t_den, d_num, d_den;
    SegmentShape shape = SegmentShape::skew;
};

template <class Ops, class V> SegmentMinimum<typename Ops::NT> segment_minimum(const V& p1, const V& q1, const V& p2, const V& q2) {
    using NT = typename Ops::NT;
    const auto minus = [](const V& x, const V& y) { return V{NT(x[0] - y[0]), NT(x[1] - y[1]), NT(x[2] - y[2])}; };
    const auto dot3 = [](const V& x, const V& y) { return NT(x[0] * y[0] + x[1] * y[1] + x[2] * y[2]); };
    const V d1 = minus(q1, p1), d2 = minus(q2, p2), r = minus(p1, p2);
    const NT a = dot3(d1, d1), e = dot3(d2, d2), b = dot3(d1, d2), c = dot3(d1, r), f = dot3(d2, r), rr = dot3(r, r);
    const NT zero = Ops::of(0.0), one = Ops::of(1.0);
    SegmentMinimum<NT> m{zero, one, zero, one, rr, one};
    // The unconstrained minimum, where it is unique and inside the square,
    // is the least (D is convex).
    const bool a_extent = Ops::sgn(a) > 0;
    if (a_extent && Ops::sgn(e) > 0) {
        const NT denom = NT(a * e - b * b);
        if (Ops::sgn(denom) > 0) {
            const NT sn = NT(b * f - c * e), tn = NT(a * f - b * c);
            if (Ops::sgn(sn) >= 0 && Ops::sgn(NT(denom - sn)) >= 0 && Ops::sgn(tn) >= 0 && Ops::sgn(NT(denom - tn)) >= 0)
                return {sn, denom, tn, denom, NT(rr * denom - e * c * c + Ops::of(2.0) * b * c * f - a * f * f), denom,
                        SegmentShape::skew};
        } else {
            m.shape = SegmentShape::parallel;
        }
    } else {
        m.shape = !a_extent && Ops::sgn(e) == 0 ? SegmentShape::both_points : SegmentShape::one_point;
    }
    // Else on an edge: the least of A x^2 + 2 B x + C over x in [0, 1], A >= 0
    // (A = 0 is a point edge: B = 0 then, and x = 0).
    struct Edge {
        NT x_num, x_den, v_num, v_den;
        int at = -1;  ///< the clamp: x = 0 or 1, or -1 inside the edge
    };
    const auto edge = [&](const NT& A, const NT& B, const NT& C) -> Edge {
        if (Ops::sgn(A) == 0 || Ops::sgn(B) >= 0) return {zero, one, C, one, 0};
        if (Ops::sgn(NT(A + B)) <= 0) return {one, one, NT(A + Ops::of(2.0) * B + C), one, 1};
        return {NT(-B), A, NT(C * A - B * B), A, -1};
    };
    const NT two = Ops::of(2.0);
    const Edge edges[4] = {edge(e, NT(-f), rr),                                 // s = 0, over t
                           edge(e, NT(-(f + b)), NT(rr + two * c + a)),          // s = 1
                           edge(a, c, rr),                                       // t = 0, over s
                           edge(a, NT(c - b), NT(rr - two * f + e))};            // t = 1
    // An edge clamped to a corner of the square, as 2 s + t; -1 inside.
    const auto corner = [&](int i) {
        const int x = edges[i].at;
        if (x < 0) return -1;
        return i < 2 ? 2 * i + x : 2 * x + (i - 2);
    };
    // The first least; two edges at one corner are one point pair, equal
    // without a sign (which a filter could not prove 0).
    int best = 0;
    for (int i = 1; i < 4; ++i)
        if ((corner(i) < 0 || corner(i) != corner(best)) &&
            Ops::sgn(NT(edges[i].v_num * edges[best].v_den - edges[best].v_num * edges[i].v_den)) < 0)
            best = i;
    const Edge& w = edges[best];
    m.d_num = w.v_num;
    m.d_den = w.v_den;
    if (best < 2) {
        m.s_num = best == 0 ? zero : one;
        m.t_num = w.x_num;
        m.t_den = w.x_den;
    } else {
        m.t_num = best == 2 ? zero : one;
        m.s_num = w.x_num;
        m.s_den = w.x_den;
    }
    return m;
}


/// How far num / den can be from the exact quotient: 0 for expansions and
/// wide numbers (exact; infinite for a wide number that did not fit), else
/// from the bounds.
inline double quotient_error(const exact::Expansion&, const exact::Expansion&) { return 0; }
inline double quotient_error(const exact::Wide& num, const exact::Wide& den) {
    return num.exact() && den.exact() ? 0 : INFINITY;
}
template <bool Track> double quotient_error(const Bounded<Track>& num, const Bounded<Track>& den) {
    return (num.e + std::fabs(num.v / den.v) * den.e) / std::fabs(den.v);
}

/// The accuracy the exact kernels hand their numbers out at, far below the
/// input's own rounding: 2^-30 for float input, 2^-59 for double.
template <class T> constexpr double handout_tolerance() { return sizeof(T) == sizeof(float) ? 0x1p-30 : 0x1p-59; }

/// Whether a stage's fractions are close enough to hand out: two
/// parameters (x = x_num / x_den, y alike) within tol, and a squared
/// distance within tol (M dist + tol M^2), M the largest input magnitude.
/// Expansions always are (their quotients are exact).
template <class NT>
bool close_enough(const NT& x_num, const NT& x_den, const NT& y_num, const NT& y_den, const NT& d_num, const NT& d_den, double big,
                  double tol) {
    const double d2 = value_of(d_num) / value_of(d_den);
    return quotient_error(x_num, x_den) <= tol && quotient_error(y_num, y_den) <= tol &&
           quotient_error(d_num, d_den) <= tol * (big * std::sqrt(std::fabs(d2)) + tol * big * big);
}

/// The largest magnitude among points.
template <class T> double largest_magnitude(std::initializer_list<const std::array<T, 3>*> points) {
    double big = 0;
    for (const std::array<T, 3>* p : points)
        for (T x : *p) big = std::max(big, std::fabs(double(x)));
    return big;
}

template <class T> Vec3d to_vec3d(const std::array<T, 3>& p) { return {double(p[0]), double(p[1]), double(p[2])}; }

/// The closest pair at parameters s, t: the points and their squared distance.
template <class T>
SegmentClosest segment_pair_at(const std::array<T, 3>& p1, const std::array<T, 3>& q1, const std::array<T, 3>& p2,
                               const std::array<T, 3>& q2, T s, T t) {
    SegmentClosest out;
    std::array<T, 3> c1, c2;
    T dist2 = 0;
    for (size_t i = 0; i < 3; ++i) {
        c1[i] = p1[i] + (q1[i] - p1[i]) * s;
        c2[i] = p2[i] + (q2[i] - p2[i]) * t;
        const T g = c1[i] - c2[i];
        dist2 += g * g;
    }
    out.dist2 = double(dist2);
    out.meets = out.dist2 == 0;
    out.s = double(s);
    out.t = double(t);
    out.c1 = to_vec3d(c1);
    out.c2 = to_vec3d(c2);
    return out;
}

}  // namespace detail

/// Ericson's ClosestPtSegmentSegment in T, with the published EPSILON test
/// on the squared lengths (0: only a true point is one). tolerant=1.
template <class T>
inline SegmentClosest closest_segment_segment_ericson(const std::array<T, 3>& p1, const std::array<T, 3>& q1,
                                                      const std::array<T, 3>& p2, const std::array<T, 3>& q2,
                                                      T epsilon = T(0)) {
    const auto clamp01 = [](T x) { return x < T(0) ? T(0) : (x > T(1) ? T(1) : x); };
    const auto dot3 = [](const std::array<T, 3>& x, const std::array<T, 3>& y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; };
    const std::array<T, 3> d1{q1[0] - p1[0], q1[1] - p1[1], q1[2] - p1[2]};
    const std::array<T, 3> d2{q2[0] - p2[0], q2[1] - p2[1], q2[2] - p2[2]};
    const std::array<T, 3> r{p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2]};
    const T a = dot3(d1, d1), e = dot3(d2, d2), f = dot3(d2, r);
    T s = 0, t = 0;
    if (a <= epsilon && e <= epsilon) {
        // both points
    } else if (a <= epsilon) {
        t = clamp01(f / e);
    } else {
        const T c = dot3(d1, r);
        if (e <= epsilon) {
            s = clamp01(-c / a);
        } else {
            const T b = dot3(d1, d2), denom = a * e - b * b;
            s = denom != T(0) ? clamp01((b * f - c * e) / denom) : T(0);
            t = (b * s + f) / e;
            if (t < T(0)) {
                t = 0;
                s = clamp01(-c / a);
            } else if (t > T(1)) {
                t = 1;
                s = clamp01((b - c) / a);
            }
        }
    }
    return detail::segment_pair_at(p1, q1, p2, q2, s, t);
}

/// The minimum decided exactly (detail::segment_minimum on expansions); the
/// numbers its fractions rounded in double, and 0 exactly when the segments
/// meet. exact (float input everywhere; double input in 2^-100:2^100).
template <class T>
inline SegmentClosest closest_segment_segment_exact(const std::array<T, 3>& p1, const std::array<T, 3>& q1,
                                                    const std::array<T, 3>& p2, const std::array<T, 3>& q2) {
    // The fractions: from a filter where it settles every sign and each
    // number closely enough (s and t give points within tol of the
    // segments' extents), else from expansions.
    constexpr double tol = detail::handout_tolerance<T>();
    const double big = detail::largest_magnitude<T>({&p1, &q1, &p2, &q2});
    struct Fractions {
        double sn, sd, tn, td, dn, dd;
        bool meet;
    };
    const Fractions f = detail::filtered([&](auto ops) {
        using Ops = decltype(ops);
        using NT = typename Ops::NT;
        using V = std::array<NT, 3>;
        const auto at = [](const std::array<T, 3>& p) { return V{Ops::of(double(p[0])), Ops::of(double(p[1])), Ops::of(double(p[2]))}; };
        const detail::SegmentMinimum<NT> m = detail::segment_minimum<Ops>(at(p1), at(q1), at(p2), at(q2));
        if (!detail::close_enough(m.s_num, m.s_den, m.t_num, m.t_den, m.d_num, m.d_den, big, tol)) detail::filter_failed = true;
        return Fractions{detail::value_of(m.s_num), detail::value_of(m.s_den), detail::value_of(m.t_num), detail::value_of(m.t_den),
                         detail::value_of(m.d_num),  detail::value_of(m.d_den), Ops::sgn(m.d_num) == 0};
    });
    const double sn = f.sn, sd = f.sd, tn = f.tn, td = f.td, dn = f.dn, dd = f.dd;
    const bool meet = f.meet;
    SegmentClosest out = detail::segment_pair_at(detail::to_vec3d(p1), detail::to_vec3d(q1), detail::to_vec3d(p2),
                                                 detail::to_vec3d(q2), std::clamp(sn / sd, 0.0, 1.0), std::clamp(tn / td, 0.0, 1.0));
    out.dist2 = meet ? 0.0 : dn / dd;
    out.meets = meet;
    return out;
}

}  // namespace isect
