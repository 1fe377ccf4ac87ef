// Measures of triangles and polygons, from seed 001: the area of a 3D
// triangle, the barycentric coordinates of a point, the circumcentre and
// circumradius, Newell's best-fit plane of a polygon, the signed distance of
// a point from a plane, and the convexity of a polygon.
//
// Conventions. n = (b - a) x (c - a); a triangle is degenerate when n = 0
// (collinear or repeated vertices) and then has no barycentrics, no
// circumcircle and no plane. Barycentrics are those of p's orthogonal
// projection onto the triangle's plane: u is b's weight, v is c's,
// 1 - u - v is a's (seed 001 projects onto the best axis plane instead,
// which gives the same numbers for points in the plane). The signed distance
// is measured along n / |n|. Newell's normal N is the seed's formula and
// its plane offset d the average of p_i . N; a polygon's distance is along
// N / |N|. A polygon is convex when, seen along N, every vertex is on the
// left of (or on) every edge: this also rejects a pentagram, whose turns all
// agree. N = 0 (every vertex on a line) is not convex.
//
// Arithmetic: floats in, double inside; one square root at most, last. The
// error of each output is bounded in units of 2^-24 times a scale that
// follows the formula (check/families/triangle_measures.cpp lists them); every
// kernel here is within 1 x 2^-24 of its scale, with the error of double
// far below it. The yes/no answers (degenerate, convex) are tolerant=1.
//
// Domain: finite floats. Outside it: NaN in, NaN or "degenerate" out.
#pragma once

#include <cmath>

#include "isect/primitives.hpp"

namespace isect {

/// The measures of one triangle and one point.
struct TriangleMeasures {
    bool degenerate = true;  ///< n == 0 as computed
    double area = 0;
    double u = 0, v = 0;     ///< barycentrics of p's projection (of b, of c)
    Vec3d circumcentre{0, 0, 0};
    double circumradius = 0;
    double distance = 0;     ///< signed distance of p along n / |n|
};

/// Everything seed 001 measures on a triangle, in double. tolerant=1.
/// Computed at the vertex where the two edges that meet are shortest (the
/// product of their lengths least): at the far vertex of a needle both edges
/// are long and nearly parallel, and their cross product, even in double,
/// cancels to thousands of float ulps of the area. The triangle is rotated
/// so that vertex comes first (n keeps its direction) and the barycentrics
/// are mapped back.
inline TriangleMeasures triangle_measures(const Triangle& given, const Vec3f& p) {
    int r = 0;
    double least = 0;
    for (int k = 0; k < 3; ++k) {
        const Vec3d x = sub(given.v[(k + 1) % 3], given.v[k]), y = sub(given.v[(k + 2) % 3], given.v[k]);
        const double w = dot(x, x) * dot(y, y);
        if (k == 0 || w < least) least = w, r = k;
    }
    const Triangle tri{{given.v[r], given.v[(r + 1) % 3], given.v[(r + 2) % 3]}};
    TriangleMeasures m;
    const Vec3d e1 = sub(tri.v[1], tri.v[0]), e2 = sub(tri.v[2], tri.v[0]), ap = sub(p, tri.v[0]);
    const Vec3d n = cross(e1, e2);
    const double nn = dot(n, n);
    m.area = 0.5 * std::sqrt(nn);
    m.degenerate = !(nn > 0);
    if (m.degenerate) return m;
    m.u = dot(cross(ap, e2), n) / nn;
    m.v = dot(cross(e1, ap), n) / nn;
    // Circumcentre relative to a: (|e1|^2 (e2 x n) + |e2|^2 (n x e1)) / (2 |n|^2).
    const Vec3d c1 = cross(e2, n), c2 = cross(n, e1);
    const double l1 = dot(e1, e1), l2 = dot(e2, e2);
    Vec3d rel;
    for (int i = 0; i < 3; ++i) rel[i] = (l1 * c1[i] + l2 * c2[i]) / (2 * nn);
    for (int i = 0; i < 3; ++i) m.circumcentre[i] = tri.v[0][i] + rel[i];
    m.circumradius = std::sqrt(dot(rel, rel));
    m.distance = dot(ap, n) / std::sqrt(nn);
    // u, v are the weights of the rotated b and c: give them back to the
    // given b and c (the rotated a's weight is 1 - u - v).
    const double u = m.u, v = m.v, w = 1 - u - v;
    if (r == 1) m.u = w, m.v = u;
    if (r == 2) m.u = v, m.v = w;
    return m;
}

/// A polygon of kPolygonVertices vertices (the checker's fixed size; the
/// functions take any count).
constexpr int kPolygonVertices = 5;

/// Newell's normal of a closed polygon (seed 001's formula), in double.
inline Vec3d newell_normal(const Vec3f* v, int count) {
    Vec3d n{0, 0, 0};
    for (int i = 0; i < count; ++i) {
        const Vec3f& p = v[i];
        const Vec3f& q = v[(i + 1) % count];
        n[0] += (double(p[1]) - q[1]) * (double(p[2]) + q[2]);
        n[1] += (double(p[2]) - q[2]) * (double(p[0]) + q[0]);
        n[2] += (double(p[0]) - q[0]) * (double(p[1]) + q[1]);
    }
    return n;
}

/// The offset d of Newell's plane n . x = d: the average of p_i . n.
inline double newell_offset(const Vec3f* v, int count, const Vec3d& n) {
    double d = 0;
    for (int i = 0; i < count; ++i) d += n[0] * v[i][0] + n[1] * v[i][1] + n[2] * v[i][2];
    return d / count;
}

/// The signed distance of q from the plane n . x = d, along n / |n|; 0 when
/// n is zero (no plane: a computed Newell normal can cancel to 0 when the
/// exact one is tiny, and 0 / 0 must not come out as NaN).
inline double plane_distance(const Vec3d& n, double d, const Vec3f& q) {
    const double norm = std::sqrt(dot(n, n));
    if (!(norm > 0)) return 0;
    return (n[0] * q[0] + n[1] * q[1] + n[2] * q[2] - d) / norm;
}

/// True when, seen along Newell's normal, every vertex is on the left of or
/// on every edge. tolerant=1.
inline bool polygon_convex(const Vec3f* v, int count) {
    const Vec3d n = newell_normal(v, count);
    if (!(dot(n, n) > 0)) return false;
    for (int i = 0; i < count; ++i) {
        const Vec3d edge = sub(v[(i + 1) % count], v[i]);
        for (int j = 0; j < count; ++j) {
            if (j == i || j == (i + 1) % count) continue;
            if (dot(cross(edge, sub(v[j], v[i])), n) < 0) return false;
        }
    }
    return true;
}

}  // namespace isect
