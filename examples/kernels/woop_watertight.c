/* The watertight ray-triangle test (Woop, Benthin and Wald, JCGT 2013) on
 * float input, computed in double as core/isect/ray_triangle.hpp's
 * watertight kernel is: the vertices moved to the ray's origin, the axes
 * permuted so that the direction's largest component is z, sheared so the
 * ray runs along +z, and three 2D edge functions decide. An edge two
 * triangles share gets the same edge function, negated, in both, so a ray
 * through it hits at least one of them: `--relation watertight` holds
 * (tests/relations_test.sh), where the strict-edge Möller-Trumbore leaks.
 */
#include <math.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "woop_watertight"; }

int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9], float* t_out,
                       float* u_out, float* v_out) {
    int kz = 0;
    if (fabsf(dir[1]) > fabsf(dir[kz])) kz = 1;
    if (fabsf(dir[2]) > fabsf(dir[kz])) kz = 2;
    int kx = kz == 2 ? 0 : kz + 1, ky = kx == 2 ? 0 : kx + 1;
    if (!(dir[kz] != 0)) return 0;
    if (dir[kz] < 0) { /* keep the winding */
        const int swap = kx;
        kx = ky;
        ky = swap;
    }
    const double sx = (double)dir[kx] / dir[kz], sy = (double)dir[ky] / dir[kz], sz = 1.0 / dir[kz];
    double x[3], y[3], z[3];
    for (int i = 0; i < 3; ++i) {
        const double px = (double)tri[3 * i + kx] - org[kx], py = (double)tri[3 * i + ky] - org[ky];
        const double pz = (double)tri[3 * i + kz] - org[kz];
        x[i] = px - sx * pz;
        y[i] = py - sy * pz;
        z[i] = sz * pz;
    }
    const double e0 = x[1] * y[2] - y[1] * x[2];
    const double e1 = x[2] * y[0] - y[2] * x[0];
    const double e2 = x[0] * y[1] - y[0] * x[1];
    if ((e0 < 0 || e1 < 0 || e2 < 0) && (e0 > 0 || e1 > 0 || e2 > 0)) return 0;
    const double det = e0 + e1 + e2;
    if (det == 0) return 0;
    const double t_scaled = e0 * z[0] + e1 * z[1] + e2 * z[2];
    if (det < 0 && (t_scaled > 0 || t_scaled < (double)tmax * det)) return 0;
    if (det > 0 && (t_scaled < 0 || t_scaled > (double)tmax * det)) return 0;
    /* The hit is decided; its numbers by Cramer's rule on the unsheared
     * coordinates (the sheared det can lose every digit on a sliver). */
    double ea[3], eb[3], s[3], p[3], q[3];
    for (int i = 0; i < 3; ++i) {
        ea[i] = (double)tri[3 + i] - tri[i];
        eb[i] = (double)tri[6 + i] - tri[i];
        s[i] = (double)org[i] - tri[i];
    }
    p[0] = dir[1] * eb[2] - dir[2] * eb[1];
    p[1] = dir[2] * eb[0] - dir[0] * eb[2];
    p[2] = dir[0] * eb[1] - dir[1] * eb[0];
    q[0] = s[1] * ea[2] - s[2] * ea[1];
    q[1] = s[2] * ea[0] - s[0] * ea[2];
    q[2] = s[0] * ea[1] - s[1] * ea[0];
    const double cramer = ea[0] * p[0] + ea[1] * p[1] + ea[2] * p[2];
    /* A ray in the triangle's plane, or within rounding of parallel to it,
     * shears the triangle flat: its edge functions are rounding noise that
     * can share a sign, and a coplanar ray beside the triangle was hit (19 of
     * 20,000 cases in 2^-20:2^20, seed 1, once isect's band stopped calling
     * every ray whose det could reach 0 flippable). Such a ray is a miss
     * here: one rounding of its origin or direction can part it from the
     * plane, so the answer is within tolerant=1 either way. The bound is
     * relative to det's own terms. Its price: a ray along an edge's
     * direction through a vertex lies within rounding of every plane of the
     * fan and misses them all (1 leak in 200,000 cases, seed 1, where the
     * rounding noise had kept the relation by luck); the built-in decides
     * such rays exactly (core/isect/filter.hpp) and keeps both. */
    const double size = fabs(ea[0]) * (fabs(dir[1] * eb[2]) + fabs(dir[2] * eb[1])) +
                        fabs(ea[1]) * (fabs(dir[2] * eb[0]) + fabs(dir[0] * eb[2])) +
                        fabs(ea[2]) * (fabs(dir[0] * eb[1]) + fabs(dir[1] * eb[0]));
    if (!(fabs(cramer) > 0x1p-40 * size)) return 0;
    if (cramer != 0) {
        *t_out = (float)((eb[0] * q[0] + eb[1] * q[1] + eb[2] * q[2]) / cramer);
        *u_out = (float)((s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / cramer);
        *v_out = (float)((dir[0] * q[0] + dir[1] * q[1] + dir[2] * q[2]) / cramer);
    } else {
        *t_out = (float)(t_scaled / det);
        *u_out = (float)(e1 / det);
        *v_out = (float)(e2 / det);
    }
    return 1;
}
