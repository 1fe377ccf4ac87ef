/* A plain float separating-axis box-triangle test, as engines write it:
 * the box centred, all 13 axes (three box faces, the triangle's normal,
 * nine box-direction x triangle-edge products), every vertex projected on
 * every axis, no epsilon, everything in float. Kept as it is, to show what
 * isect says about ordinary float code: with --domain 2^-20:2^20 it holds
 * tolerant=64 (its float rounding stays inside the band); over every finite
 * float it does not (products of three inputs leave float's range).
 */
#include <math.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "float_sat"; }

static float dot3(const float* a, const float* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Whether axis a separates the centred triangle v from the box of half size h. */
static int separates(const float a[3], const float v[3][3], const float h[3]) {
    const float p0 = dot3(a, v[0]), p1 = dot3(a, v[1]), p2 = dot3(a, v[2]);
    const float r = h[0] * fabsf(a[0]) + h[1] * fabsf(a[1]) + h[2] * fabsf(a[2]);
    const float lo = fminf(p0, fminf(p1, p2)), hi = fmaxf(p0, fmaxf(p1, p2));
    return lo > r || hi < -r;
}

int isect_aabb_triangle(const float lo[3], const float hi[3], const float tri[9]) {
    float c[3], h[3], v[3][3], f[3][3];
    for (int i = 0; i < 3; ++i) {
        c[i] = 0.5f * (lo[i] + hi[i]);
        h[i] = 0.5f * (hi[i] - lo[i]);
        for (int k = 0; k < 3; ++k) v[k][i] = tri[3 * k + i] - c[i];
    }
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i) f[k][i] = v[(k + 1) % 3][i] - v[k][i];
    for (int i = 0; i < 3; ++i) {
        const float e[3] = {i == 0, i == 1, i == 2};
        if (separates(e, v, h)) return 0;
    }
    const float n[3] = {f[0][1] * f[1][2] - f[0][2] * f[1][1], f[0][2] * f[1][0] - f[0][0] * f[1][2],
                        f[0][0] * f[1][1] - f[0][1] * f[1][0]};
    if (separates(n, v, h)) return 0;
    for (int k = 0; k < 3; ++k) {
        const float* e = f[k];
        const float axes[3][3] = {{0, -e[2], e[1]}, {e[2], 0, -e[0]}, {-e[1], e[0], 0}};
        for (int i = 0; i < 3; ++i)
            if (separates(axes[i], v, h)) return 0;
    }
    return 1;
}
