/* Specimen: seed 004's ray-triangle test (DirectX SDK Pick), ported
 * faithfully in float: det > 0 kept by flipping T, det < 0.0001 rejected as
 * parallel, u and v tested against det, t scaled by 1 / det in double. The
 * seed is a ray (t >= 0); tmax is honoured here so that only the seed's own
 * code is on trial. */
#include "isect/plugin.h"

static void sub(const float* a, const float* b, float* r) {
    for (int i = 0; i < 3; ++i) r[i] = a[i] - b[i];
}
static void cross(const float* a, const float* b, float* r) {
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}
static float dot(const float* a, const float* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "seed004_raytri"; }

int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9], float* t_out,
                       float* u_out, float* v_out) {
    float e1[3], e2[3], p[3], q[3], t[3];
    sub(tri + 3, tri, e1);
    sub(tri + 6, tri, e2);
    cross(dir, e2, p);
    float det = dot(e1, p);
    if (det > 0) {
        sub(org, tri, t);
    } else {
        sub(tri, org, t);
        det = -det;
    }
    if (det < 0.0001f) return 0;
    float u = dot(t, p);
    if (u < 0.0 || u > det) return 0;
    cross(t, e1, q);
    float v = dot(dir, q);
    if (v < 0.0 || u + v > det) return 0;
    float tt = dot(e2, q);
    const double inv_det = 1.0f / det;
    tt *= inv_det;
    u *= inv_det;
    v *= inv_det;
    if (tt < 0) return 0;
    if (tt > tmax) return 0;
    *t_out = tt;
    *u_out = u;
    *v_out = v;
    return 1;
}
