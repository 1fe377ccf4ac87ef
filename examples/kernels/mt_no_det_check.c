/* Möller-Trumbore as bx writes intersect(Ray, Triangle): the reciprocal of
 * det is taken without asking whether det is 0, and the barycentric tests
 * are comparisons a NaN passes. For a ray in the triangle's plane (det = 0)
 * it then reports a hit whose t is -inf or NaN and whose u, v are NaN: one
 * cause, which isect files as one class, "non-finite numbers".
 */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "mt_no_det_check"; }

static void sub(const float* a, const float* b, float* o) {
    for (int i = 0; i < 3; ++i) o[i] = a[i] - b[i];
}
static void cross(const float* a, const float* b, float* o) {
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
static float dot(const float* a, const float* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9], float* t, float* u,
                       float* v) {
    float e1[3], e2[3], p[3], s[3], q[3];
    sub(tri + 3, tri, e1);
    sub(tri + 6, tri, e2);
    cross(dir, e2, p);
    const float inv = 1.0f / dot(e1, p);
    sub(org, tri, s);
    const float uu = dot(s, p) * inv;
    if (uu < 0 || uu > 1) return 0;
    cross(s, e1, q);
    const float vv = dot(dir, q) * inv;
    if (vv < 0 || uu + vv > 1) return 0;
    const float tt = dot(e2, q) * inv;
    if (tt < 0 || tt > tmax) return 0;
    *t = tt;
    *u = uu;
    *v = vv;
    return 1;
}
