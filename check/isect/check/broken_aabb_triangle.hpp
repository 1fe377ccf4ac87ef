// Deliberately broken aabb_triangle kernels: planted bugs, never kernels to
// use. Each carries a bug that real code has shipped with; the tests show the
// properties, `isect check` and the fuzzer catch every one of them. The
// command line reaches them only by an explicit name, `broken:NAME`.
#pragma once

#include <cmath>
#include <vector>

#include "isect/aabb_triangle.hpp"
#include "isect/check/aabb_triangle.hpp"

namespace isect::broken {

/// The normal test as isect first shipped it: only v0 projected onto the
/// computed normal, as if every vertex projected alike. True for a real
/// normal; for a collinear triangle the computed normal is rounding noise.
/// Returns true when it separates.
inline bool normal_one_vertex_separates(const Aabb& box, const Triangle& tri) {
    Vec3d c, h, v[3];
    for (int i = 0; i < 3; ++i) {
        c[i] = 0.5 * (double(box.lo[i]) + box.hi[i]);
        h[i] = 0.5 * (double(box.hi[i]) - box.lo[i]);
        for (int k = 0; k < 3; ++k) v[k][i] = tri.v[k][i] - c[i];
    }
    const Vec3d f0{v[1][0] - v[0][0], v[1][1] - v[0][1], v[1][2] - v[0][2]};
    const Vec3d f1{v[2][0] - v[1][0], v[2][1] - v[1][1], v[2][2] - v[1][2]};
    const Vec3d n = cross(f0, f1);
    const double d = dot(n, v[0]);
    const double r = h[0] * std::fabs(n[0]) + h[1] * std::fabs(n[1]) + h[2] * std::fabs(n[2]);
    return d > r || d < -r;
}

/// sat without the nine edge axes: seed 002's trap (the +-10 case is a false hit).
inline bool sat_without_edge_axes(const Aabb& box, const Triangle& tri) {
    return !detail::face_axes_separate(box, tri) && !normal_one_vertex_separates(box, tri);
}

/// The triangle-normal test computed in float, as seed 000 does: n . v is a
/// product of three inputs and overflows to inf above about 2^42, or flushes
/// to zero below about 2^-50.
inline bool sat_normal_in_float(const Aabb& box, const Triangle& tri) {
    if (detail::face_axes_separate(box, tri)) return false;
    Vec3f c, h, v[3];
    for (int i = 0; i < 3; ++i) {
        c[i] = 0.5f * (box.lo[i] + box.hi[i]);
        h[i] = 0.5f * (box.hi[i] - box.lo[i]);
        for (int k = 0; k < 3; ++k) v[k][i] = tri.v[k][i] - c[i];
    }
    const Vec3f f0{v[1][0] - v[0][0], v[1][1] - v[0][1], v[1][2] - v[0][2]};
    const Vec3f f1{v[2][0] - v[1][0], v[2][1] - v[1][1], v[2][2] - v[1][2]};
    const Vec3f n{f0[1] * f1[2] - f0[2] * f1[1], f0[2] * f1[0] - f0[0] * f1[2], f0[0] * f1[1] - f0[1] * f1[0]};
    const float d = n[0] * v[0][0] + n[1] * v[0][1] + n[2] * v[0][2];
    const float r = h[0] * std::fabs(n[0]) + h[1] * std::fabs(n[1]) + h[2] * std::fabs(n[2]);
    if (d > r || d < -r) return false;
    return aabb_triangle_sat(box, tri);  // the rest as shipped
}

/// sat with an absolute epsilon added to every box radius "for robustness":
/// right at unit scale, false hits once the scene is small.
inline bool sat_absolute_epsilon(const Aabb& box, const Triangle& tri) {
    Aabb grown = box;
    for (int i = 0; i < 3; ++i) {
        grown.lo[i] -= 1e-6f;
        grown.hi[i] += 1e-6f;
    }
    return aabb_triangle_sat(grown, tri);
}

/// sat as isect first shipped it (corpus: sat_collinear_garbage_normal,
/// found by the fuzzer).
inline bool sat_normal_one_vertex(const Aabb& box, const Triangle& tri) {
    return !normal_one_vertex_separates(box, tri) && aabb_triangle_sat(box, tri);
}

/// The conservative kernel with seed 002's edge-axis comparison: touching on
/// an edge axis (boxMax <= triMin) counts as separated, so a triangle that
/// touches a box edge with its edge is missed.
inline bool conservative_touching_separates(const Aabb& box, const Triangle& tri) {
    if (!aabb_triangle_conservative(box, tri)) return false;
    Vec3d v[3];
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i) v[k][i] = tri.v[k][i];
    const Vec3d f[3] = {sub(tri.v[1], tri.v[0]), sub(tri.v[2], tri.v[1]), sub(tri.v[0], tri.v[2])};
    for (const Vec3d& e : f) {
        for (const Vec3d& x : {Vec3d{0, -e[2], e[1]}, Vec3d{e[2], 0, -e[0]}, Vec3d{-e[1], e[0], 0}}) {
            if (x[0] == 0 && x[1] == 0 && x[2] == 0) continue;
            double bmin = 0, bmax = 0;
            for (int i = 0; i < 3; ++i) {
                bmin += std::min(x[i] * box.lo[i], x[i] * box.hi[i]);
                bmax += std::max(x[i] * box.lo[i], x[i] * box.hi[i]);
            }
            const double p0 = dot(x, v[0]), p1 = dot(x, v[1]), p2 = dot(x, v[2]);
            if (bmax <= min3(p0, p1, p2) || bmin >= max3(p0, p1, p2)) return false;
        }
    }
    return true;
}

/// The fixtures with the contracts their originals declare.
inline std::vector<check::AabbTriangleKernel> broken_kernels() {
    using check::Contract;
    return {
        {"broken:sat_without_edge_axes", {Contract::Kind::tolerant, 1}, sat_without_edge_axes},
        {"broken:sat_normal_in_float", {Contract::Kind::tolerant, 1}, sat_normal_in_float},
        {"broken:sat_absolute_epsilon", {Contract::Kind::tolerant, 1}, sat_absolute_epsilon},
        {"broken:sat_normal_one_vertex", {Contract::Kind::tolerant, 1}, sat_normal_one_vertex},
        {"broken:conservative_touching_separates", {Contract::Kind::conservative, 0}, conservative_touching_separates},
    };
}

}  // namespace isect::broken
