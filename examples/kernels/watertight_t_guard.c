/* The watertight ray-triangle test (Woop, Benthin and Wald 2013) in float,
 * with the guard pbrt-v4 adds against self-intersection: after the hit is
 * decided, t must exceed deltaT, a bound on t's rounding built from
 * gamma(n) terms of the sheared vertices, or the hit is dropped. The guard
 * is what an offset-free renderer needs, but against the exact truth it
 * drops real hits at small t, well outside what moving the inputs by an ulp
 * could do: one real failure class. The shear divides by the direction's
 * largest component, so a zero direction makes noise of everything: pbrt
 * forbids it, and so does `--require nonzero_direction` (tests/domain_test.sh).
 * A hit at t = 0 exactly (the origin on the triangle) is refused too; that
 * one is touching, inside tolerant=1's band.
 */
#include <float.h>
#include <math.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "watertight_t_guard"; }

static float gamma_n(int n) {
    const float u = FLT_EPSILON * 0.5f;
    return (n * u) / (1 - n * u);
}

/* a b - c d with one rounding of the difference (Kahan's algorithm, FMA). */
static float difference_of_products(float a, float b, float c, float d) {
    const float cd = c * d;
    const float err = fmaf(-c, d, cd);
    return fmaf(a, b, -cd) + err;
}

int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9], float* t_out,
                       float* u_out, float* v_out) {
    float p[3][3];
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i) p[k][i] = tri[3 * k + i] - org[i];
    /* The axis of the largest |d| becomes z. */
    const float ax = fabsf(dir[0]), ay = fabsf(dir[1]), az = fabsf(dir[2]);
    const int kz = ax > ay ? (ax > az ? 0 : 2) : (ay > az ? 1 : 2);
    const int kx = (kz + 1) % 3, ky = (kx + 1) % 3;
    const float dx = dir[kx], dy = dir[ky], dz = dir[kz];
    float q[3][3];
    for (int k = 0; k < 3; ++k) {
        q[k][0] = p[k][kx];
        q[k][1] = p[k][ky];
        q[k][2] = p[k][kz];
    }
    const float sx = -dx / dz, sy = -dy / dz, sz = 1.0f / dz;
    for (int k = 0; k < 3; ++k) {
        q[k][0] += sx * q[k][2];
        q[k][1] += sy * q[k][2];
    }
    float e0 = difference_of_products(q[1][0], q[2][1], q[1][1], q[2][0]);
    float e1 = difference_of_products(q[2][0], q[0][1], q[2][1], q[0][0]);
    float e2 = difference_of_products(q[0][0], q[1][1], q[0][1], q[1][0]);
    if (e0 == 0 || e1 == 0 || e2 == 0) { /* again in double where an edge function is zero */
        e0 = (float)((double)q[1][0] * q[2][1] - (double)q[1][1] * q[2][0]);
        e1 = (float)((double)q[2][0] * q[0][1] - (double)q[2][1] * q[0][0]);
        e2 = (float)((double)q[0][0] * q[1][1] - (double)q[0][1] * q[1][0]);
    }
    if ((e0 < 0 || e1 < 0 || e2 < 0) && (e0 > 0 || e1 > 0 || e2 > 0)) return 0;
    const float det = e0 + e1 + e2;
    if (det == 0) return 0;
    for (int k = 0; k < 3; ++k) q[k][2] *= sz;
    const float t_scaled = e0 * q[0][2] + e1 * q[1][2] + e2 * q[2][2];
    if (det < 0 && (t_scaled >= 0 || t_scaled < tmax * det)) return 0;
    if (det > 0 && (t_scaled <= 0 || t_scaled > tmax * det)) return 0;
    const float inv = 1 / det;
    const float b1 = e1 * inv, b2 = e2 * inv, t = t_scaled * inv;
    /* pbrt-v4's guard: t must be conservatively above zero. */
    const float max_zt = fmaxf(fabsf(q[0][2]), fmaxf(fabsf(q[1][2]), fabsf(q[2][2])));
    const float max_xt = fmaxf(fabsf(q[0][0]), fmaxf(fabsf(q[1][0]), fabsf(q[2][0])));
    const float max_yt = fmaxf(fabsf(q[0][1]), fmaxf(fabsf(q[1][1]), fabsf(q[2][1])));
    const float delta_z = gamma_n(3) * max_zt;
    const float delta_x = gamma_n(5) * (max_xt + max_zt), delta_y = gamma_n(5) * (max_yt + max_zt);
    const float delta_e = 2 * (gamma_n(2) * max_xt * max_yt + delta_y * max_xt + delta_x * max_yt);
    const float max_e = fmaxf(fabsf(e0), fmaxf(fabsf(e1), fabsf(e2)));
    const float delta_t = 3 * (gamma_n(3) * max_e * max_zt + delta_e * max_zt + delta_z * max_e) * fabsf(inv);
    if (t <= delta_t) return 0;
    *t_out = t;
    *u_out = b1;
    *v_out = b2;
    return 1;
}
