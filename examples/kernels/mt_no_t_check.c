/* Möller-Trumbore (in double, so that rounding plays no part) that forgets
 * the t >= 0 test: a ray hits triangles behind its origin. One bug, and
 * isect reports it as one failure class, "behind the origin", whether or not
 * a witness also grazes an edge (tests/domain_test.sh).
 *
 * Built with LINE (mt_line), it is glm's intersectLineTriangle: no tmax
 * either, the whole line. Right under `--convention line`, where t runs
 * over all reals; a ray's test that hits behind its origin without it
 * (tests/band_test.sh checks both).
 */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
#ifdef LINE
const char* isect_kernel_name(void) { return "mt_line"; }
#else
const char* isect_kernel_name(void) { return "mt_no_t_check"; }
#endif

static void sub(const float* a, const float* b, double* o) {
    for (int i = 0; i < 3; ++i) o[i] = (double)a[i] - b[i];
}
static void cross(const double* a, const double* b, double* o) {
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9], float* t, float* u,
                       float* v) {
    double e1[3], e2[3], p[3], s[3], q[3];
    const double d[3] = {dir[0], dir[1], dir[2]};
    sub(tri + 3, tri, e1);
    sub(tri + 6, tri, e2);
    cross(d, e2, p);
    const double det = dot(e1, p);
    if (det == 0) return 0;
    sub(org, tri, s);
    const double uu = dot(s, p) / det;
    if (uu < 0 || uu > 1) return 0;
    cross(s, e1, q);
    const double vv = dot(d, q) / det;
    if (vv < 0 || uu + vv > 1) return 0;
    const double tt = dot(e2, q) / det;
#ifdef LINE
    (void)tmax; /* a line has no end */
#else
    if (tt > tmax) return 0; /* the bug: no tt < 0 test */
#endif
    *t = (float)tt;
    *u = (float)uu;
    *v = (float)vv;
    return 1;
}
