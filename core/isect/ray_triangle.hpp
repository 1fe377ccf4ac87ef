// Ray vs closed triangle, two-sided: the points o + t d with t in [0, tmax]
// (tmax may be +inf) against the triangle conv(a, b, c). On a hit: the least
// such t, and the barycentrics u (weight of b) and v (weight of c) of the
// hit point, o + t d = (1 - u - v) a + u b + v c.
//
// Two kernels:
//  - ray_triangle_mt: Möller and Trumbore (1997), as seed 004 writes it but
//    without its absolute epsilon (det < 0.0001 rejects every triangle of
//    area below about 1e-4 at unit scale, and none at large scales) and
//    two-sided. In double: the inputs are floats, so every edge and every
//    cross product component is exact or rounds once, and det, u, v and t
//    are within a few double roundings of exact. det == 0 (the ray parallel
//    to the plane, or a degenerate triangle) is a miss, as is a ray lying in
//    the triangle's plane; moving the inputs by any delta > 0 can turn such
//    a ray into a hit or a miss, so the band always holds them.
//    Contract tolerant=1; t, u, v within 1 x 2^-24 of their condition
//    scale (check/ray_triangle.cpp).
//  - ray_triangle_watertight: Woop, Benthin and Wald, "Watertight ray/
//    triangle intersection" (JCGT 2013): the vertices are moved to the ray's
//    origin, the axes permuted so that the direction's largest component is
//    z, and sheared so the ray runs along +z; three 2D edge functions decide.
//    An edge shared by two triangles gets the same edge function, negated,
//    in both, so a ray through it hits at least one of them: no cracks. The
//    paper works in float with a double fallback for zero edge functions;
//    here all of it is in double, because in float 1 / d_z overflows for a
//    subnormal d_z and the translation and shear move the vertices by 2^-24
//    of their distance from the origin (the checker measured K above 10^5 on
//    the float version). Contract tolerant=1; t, u, v within 1 x 2^-24 of
//    their condition scale.
//
// Domain: finite floats except tmax, which may be +inf; tmax >= 0; d != 0.
// Degenerate triangles (collinear or repeated vertices) are in the domain;
// both kernels call them a miss (det == 0), which the band allows. ±0 and
// subnormals are ordinary. Outside the domain: NaN gives a miss.
#pragma once

#include <cmath>
#include <limits>

#include "isect/primitives.hpp"

namespace isect {

/// A hit: t and the barycentrics of b (u) and c (v).
struct RayTriangleHit {
    bool hit = false;
    double t = 0, u = 0, v = 0;
};

/// Möller-Trumbore in double, two-sided, no epsilon. tolerant=1.
inline RayTriangleHit ray_triangle_mt(const Vec3f& o, const Vec3f& d, float tmax, const Triangle& tri) {
    const Vec3f& a = tri.v[0];
    const Vec3d e1 = sub(tri.v[1], a), e2 = sub(tri.v[2], a);
    const Vec3d dir{d[0], d[1], d[2]};
    const Vec3d p = cross(dir, e2);
    double det = dot(e1, p);
    Vec3d s = sub(o, a);
    if (det < 0) {  // keep det > 0: flip s, as seed 004 does
        det = -det;
        s = {-s[0], -s[1], -s[2]};
    }
    RayTriangleHit r;
    if (!(det > 0)) return r;  // parallel, degenerate, or NaN
    const double u = dot(s, p);
    if (u < 0 || u > det) return r;
    const Vec3d q = cross(s, e1);
    const double v = dot(dir, q);
    if (v < 0 || u + v > det) return r;
    const double t = dot(e2, q);
    if (t < 0 || t > double(tmax) * det) return r;
    r.hit = true;
    r.t = t / det;
    r.u = u / det;
    r.v = v / det;
    return r;
}

/// The watertight test of Woop, Benthin and Wald, in double. tolerant=1.
inline RayTriangleHit ray_triangle_watertight(const Vec3f& o, const Vec3f& d, float tmax, const Triangle& tri) {
    RayTriangleHit r;
    // The axis of the largest |d| becomes z; swapping x and y keeps the
    // winding when d_z is negative.
    int kz = 0;
    if (std::fabs(d[1]) > std::fabs(d[kz])) kz = 1;
    if (std::fabs(d[2]) > std::fabs(d[kz])) kz = 2;
    int kx = kz == 2 ? 0 : kz + 1, ky = kx == 2 ? 0 : kx + 1;
    if (!(d[kz] != 0)) return r;  // d = 0 or NaN
    if (d[kz] < 0) std::swap(kx, ky);
    const double sx = double(d[kx]) / d[kz], sy = double(d[ky]) / d[kz], sz = 1.0 / d[kz];
    // Vertices relative to the origin, sheared so that the ray runs along +z.
    double x[3], y[3], z[3];
    for (int i = 0; i < 3; ++i) {
        const double px = double(tri.v[i][kx]) - o[kx], py = double(tri.v[i][ky]) - o[ky];
        const double pz = double(tri.v[i][kz]) - o[kz];
        x[i] = px - sx * pz;
        y[i] = py - sy * pz;
        z[i] = sz * pz;
    }
    // Edge functions: e0 opposite a (the weight of a), e1 of b, e2 of c. An
    // edge shared by two triangles gets the same value, negated, in both.
    const double e0 = x[1] * y[2] - y[1] * x[2];
    const double e1 = x[2] * y[0] - y[2] * x[0];
    const double e2 = x[0] * y[1] - y[0] * x[1];
    if ((e0 < 0 || e1 < 0 || e2 < 0) && (e0 > 0 || e1 > 0 || e2 > 0)) return r;
    const double det = e0 + e1 + e2;
    if (!(det != 0)) return r;
    const double t_scaled = e0 * z[0] + e1 * z[1] + e2 * z[2];
    if (det < 0 ? (t_scaled > 0 || t_scaled < double(tmax) * det) : (t_scaled < 0 || t_scaled > double(tmax) * det))
        return r;
    r.hit = true;
    r.t = t_scaled / det;
    r.u = e1 / det;
    r.v = e2 / det;
    return r;
}

}  // namespace isect
