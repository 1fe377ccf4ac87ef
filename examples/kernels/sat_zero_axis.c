/* A box vs triangle separating-axis test (in double, after tribox3's
 * layout: box centred, the nine edge axes, then the faces and the normal)
 * whose axis test is strict the wrong way round: it calls an axis separating
 * when the projections only touch (min >= r or max <= -r). An edge parallel
 * to a box direction gives a zero axis, where everything projects to 0 and
 * r = 0: such a triangle is never found to overlap. isect's witness is a
 * proper triangle with an axis-parallel edge, not zeros (tests/domain_test.sh).
 */
#include <math.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "sat_zero_axis"; }

static double min3(double a, double b, double c) { return fmin(a, fmin(b, c)); }
static double max3(double a, double b, double c) { return fmax(a, fmax(b, c)); }

/* Separated along an axis: the bug is ">=" and "<=" where ">" and "<" belong. */
static int separated(double p0, double p1, double p2, double r) {
    return min3(p0, p1, p2) >= r || max3(p0, p1, p2) <= -r;
}

int isect_aabb_triangle(const float lo[3], const float hi[3], const float tri[9]) {
    double c[3], h[3], v[3][3], e[3][3];
    for (int i = 0; i < 3; ++i) {
        c[i] = 0.5 * ((double)lo[i] + hi[i]);
        h[i] = 0.5 * ((double)hi[i] - lo[i]);
        for (int k = 0; k < 3; ++k) v[k][i] = tri[3 * k + i] - c[i];
    }
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i) e[k][i] = v[(k + 1) % 3][i] - v[k][i];
    for (int k = 0; k < 3; ++k) {
        for (int a = 0; a < 3; ++a) {
            /* axis = unit(a) x e[k] */
            double axis[3] = {0, 0, 0};
            const int b = (a + 1) % 3, d = (a + 2) % 3;
            axis[b] = -e[k][d];
            axis[d] = e[k][b];
            double p[3];
            for (int j = 0; j < 3; ++j) p[j] = axis[0] * v[j][0] + axis[1] * v[j][1] + axis[2] * v[j][2];
            const double r = h[0] * fabs(axis[0]) + h[1] * fabs(axis[1]) + h[2] * fabs(axis[2]);
            if (separated(p[0], p[1], p[2], r)) return 0;
        }
    }
    for (int i = 0; i < 3; ++i)
        if (min3(v[0][i], v[1][i], v[2][i]) > h[i] || max3(v[0][i], v[1][i], v[2][i]) < -h[i]) return 0;
    double n[3];
    n[0] = e[0][1] * e[1][2] - e[0][2] * e[1][1];
    n[1] = e[0][2] * e[1][0] - e[0][0] * e[1][2];
    n[2] = e[0][0] * e[1][1] - e[0][1] * e[1][0];
    double p[3];
    for (int j = 0; j < 3; ++j) p[j] = n[0] * v[j][0] + n[1] * v[j][1] + n[2] * v[j][2];
    const double r = h[0] * fabs(n[0]) + h[1] * fabs(n[1]) + h[2] * fabs(n[2]);
    return !(min3(p[0], p[1], p[2]) > r || max3(p[0], p[1], p[2]) < -r);
}
