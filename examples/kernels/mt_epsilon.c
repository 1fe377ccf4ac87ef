/* Möller-Trumbore in float with the absolute determinant epsilon most
 * copies of it carry: |det| < 1e-6 is "parallel". At unit scale that
 * rejects every triangle whose legs are under about 1e-3 (det is a product
 * of three lengths), so rays miss small triangles they hit: BROKEN under
 * every contract, inside any domain.
 */
#include <math.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "mt_epsilon"; }

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
    const float det = dot(e1, p);
    if (det > -1e-6f && det < 1e-6f) return 0;
    const float inv = 1.0f / det;
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
