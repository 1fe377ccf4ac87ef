/* A conservative float separating-axis test: as float_sat.c, but an axis
 * separates only when the gap exceeds a relative margin, 32 FLT_EPSILON
 * times the magnitudes that went into the projections, so float rounding
 * can never turn an overlap into a separation (never a false miss). With
 * --domain 2^-20:2^20 it holds conservative; below the domain the margin
 * itself underflows.
 */
#include <float.h>
#include <math.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "float_sat_conservative"; }

/* w[i] bounds |v_ki| and h[i] together: the size of what axis component i multiplies. */
static int separates(const float a[3], const float v[3][3], const float h[3], const float w[3]) {
    float p[3];
    for (int k = 0; k < 3; ++k) p[k] = a[0] * v[k][0] + a[1] * v[k][1] + a[2] * v[k][2];
    const float r = h[0] * fabsf(a[0]) + h[1] * fabsf(a[1]) + h[2] * fabsf(a[2]);
    const float margin = 32 * FLT_EPSILON * (fabsf(a[0]) * w[0] + fabsf(a[1]) * w[1] + fabsf(a[2]) * w[2]);
    const float lo = fminf(p[0], fminf(p[1], p[2])), hi = fmaxf(p[0], fmaxf(p[1], p[2]));
    return lo - r > margin || -r - hi > margin;
}

int isect_aabb_triangle(const float lo[3], const float hi[3], const float tri[9]) {
    for (int i = 0; i < 3; ++i) {  /* the face axes: float comparisons are exact */
        const float a = tri[i], b = tri[3 + i], c = tri[6 + i];
        if (fminf(a, fminf(b, c)) > hi[i] || fmaxf(a, fmaxf(b, c)) < lo[i]) return 0;
    }
    float c[3], h[3], v[3][3], f[3][3], w[3];
    for (int i = 0; i < 3; ++i) {
        c[i] = 0.5f * (lo[i] + hi[i]);
        h[i] = 0.5f * (hi[i] - lo[i]);
        w[i] = fmaxf(fabsf(lo[i]), fabsf(hi[i]));
        for (int k = 0; k < 3; ++k) {
            v[k][i] = tri[3 * k + i] - c[i];
            w[i] = fmaxf(w[i], fabsf(tri[3 * k + i]));
        }
        w[i] *= 2; /* |v| <= |t| + |c|, and h <= |lo| + |hi| */
    }
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i) f[k][i] = v[(k + 1) % 3][i] - v[k][i];
    const float n[3] = {f[0][1] * f[1][2] - f[0][2] * f[1][1], f[0][2] * f[1][0] - f[0][0] * f[1][2],
                        f[0][0] * f[1][1] - f[0][1] * f[1][0]};
    if (separates(n, v, h, w)) return 0;
    for (int k = 0; k < 3; ++k) {
        const float* e = f[k];
        const float axes[3][3] = {{0, -e[2], e[1]}, {e[2], 0, -e[0]}, {-e[1], e[0], 0}};
        for (int i = 0; i < 3; ++i)
            if (separates(axes[i], v, h, w)) return 0;
    }
    return 1;
}
