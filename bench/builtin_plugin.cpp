// isect's own float kernels as a plugin, to time the plugin path against the
// same kernels built in (bench/parallel_ratios.py): aabb_aabb's overlap,
// aabb_triangle's sat, ray_triangle's moller_trumbore and ray_sphere's rtg,
// the code the built-in kernels call. Built three times: builtin_plugin.so
// exports the scalar functions, builtin_plugin_batch.so (ISECT_BENCH_BATCH)
// the batch entries only, each a loop over the inputs calling the same code,
// and builtin_plugin_broken.so (ISECT_BENCH_BROKEN) the scalar ones with
// ray_sphere wrong from inside the ball (WickedEngine#1695, as the planted
// broken:inside_is_miss: a fifth of the generated cases), to time a kernel
// that breaks its contract against the same one holding
// (bench/broken_ratios.py).
#include "isect/aabb_aabb.hpp"
#include "isect/aabb_triangle.hpp"
#include "isect/plugin.h"
#include "isect/ray_sphere.hpp"
#include "isect/ray_triangle.hpp"

namespace {

using isect::Aabb;
using isect::Triangle;
using isect::Vec3f;

Vec3f vec(const float* p) { return {p[0], p[1], p[2]}; }
Aabb box(const float* lo, const float* hi) { return {vec(lo), vec(hi)}; }
Triangle tri(const float* p) { return {{vec(p), vec(p + 3), vec(p + 6)}}; }

int aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3], float out_lo[3],
              float out_hi[3]) {
    const Aabb a = box(a_lo, a_hi), b = box(b_lo, b_hi);
    const Aabb r = isect::aabb_aabb_intersection(a, b);
    for (int i = 0; i < 3; ++i) {
        out_lo[i] = r.lo[i];
        out_hi[i] = r.hi[i];
    }
    return isect::aabb_aabb_overlap(a, b);
}

int aabb_triangle(const float lo[3], const float hi[3], const float t[9]) {
    return isect::aabb_triangle_sat(box(lo, hi), tri(t));
}

int ray_triangle(const float org[3], const float dir[3], float tmax, const float t[9], float* tt, float* u, float* v) {
    const isect::RayTriangleHit h = isect::ray_triangle_mt(vec(org), vec(dir), tmax, tri(t));
    if (!h.hit) return 0;
    *tt = float(h.t);
    *u = float(h.u);
    *v = float(h.v);
    return 1;
}

int ray_sphere(const float org[3], const float dir[3], float tmax, const float c[3], float r, float* t_enter,
               float* t_exit) {
    const isect::RaySphereHit h = isect::ray_sphere_rtg<float>(vec(org), vec(dir), tmax, vec(c), r);
    if (!h.hit) return 0;
#ifdef ISECT_BENCH_BROKEN
    const float fx = org[0] - c[0], fy = org[1] - c[1], fz = org[2] - c[2];
    if (fx * fx + fy * fy + fz * fz - r * r < 0) return 0;
#endif
    *t_enter = float(h.t_enter);
    *t_exit = float(h.t_exit);
    return 1;
}

/// Input i's columns gathered into one row.
template <int N> void row(const float* const* in, int i, float (&out)[N]) {
    for (int k = 0; k < N; ++k) out[k] = in[k][i];
}

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#ifndef ISECT_BENCH_BATCH
#ifdef ISECT_BENCH_BROKEN
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "builtin_plugin_broken"; }
#else
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "builtin_plugin"; }
#endif
ISECT_PLUGIN_EXPORT int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                                        float out_lo[3], float out_hi[3]) {
    return aabb_aabb(a_lo, a_hi, b_lo, b_hi, out_lo, out_hi);
}
ISECT_PLUGIN_EXPORT int isect_aabb_triangle(const float lo[3], const float hi[3], const float t[9]) {
    return aabb_triangle(lo, hi, t);
}
ISECT_PLUGIN_EXPORT int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float t[9], float* tt,
                                           float* u, float* v) {
    return ray_triangle(org, dir, tmax, t, tt, u, v);
}
ISECT_PLUGIN_EXPORT int isect_ray_sphere(const float org[3], const float dir[3], float tmax, const float c[3], float r,
                                         float* t_enter, float* t_exit) {
    return ray_sphere(org, dir, tmax, c, r, t_enter, t_exit);
}
#else
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "builtin_plugin_batch"; }
ISECT_BATCH(aabb_aabb) {
    for (int i = 0; i < n; ++i) {
        float x[12], lo[3], hi[3];
        row(in, i, x);
        ret[i] = aabb_aabb(x, x + 3, x + 6, x + 9, lo, hi);
        for (int a = 0; a < 3; ++a) {
            out[a][i] = lo[a];
            out[3 + a][i] = hi[a];
        }
    }
}
ISECT_BATCH(aabb_triangle) {
    (void)out;
    for (int i = 0; i < n; ++i) {
        float x[15];
        row(in, i, x);
        ret[i] = aabb_triangle(x, x + 3, x + 6);
    }
}
ISECT_BATCH(ray_triangle) {
    for (int i = 0; i < n; ++i) {
        float x[16], t, u, v;
        row(in, i, x);
        ret[i] = ray_triangle(x, x + 3, x[6], x + 7, &t, &u, &v);
        if (ret[i]) {
            out[0][i] = t;
            out[1][i] = u;
            out[2][i] = v;
        }
    }
}
#endif
}
