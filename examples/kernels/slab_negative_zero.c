/* The slab test as pbrt-v4 writes Bounds3::IntersectP: 1 / d for each
 * axis, the two plane parameters swapped when they come out in the wrong
 * order, and comparisons that let a NaN through. A ray lying in a face's
 * plane (o_i on the face, d_i = 0) makes 0 x inf = NaN there. With d_i = +0
 * the other plane's parameter is +inf and the ray hits; with d_i = -0 it is
 * -inf, t1 drops below t0, and the ray misses the box it runs along. The
 * sign of a zero decides: isect names the class "-0 in dir". pbrt widens
 * tFar by 1 + 2 gamma(3) for its own rounding; so does this.
 */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "slab_negative_zero"; }

int isect_ray_aabb(const float org[3], const float dir[3], const float lo[3], const float hi[3], float* t_enter,
                   float* t_exit, float normal[3]) {
    const float gamma3 = 3 * 0x1p-24f / (1 - 3 * 0x1p-24f);
    float t0 = 0, t1 = __builtin_inff();
    for (int i = 0; i < 3; ++i) {
        const float inv = 1 / dir[i];
        float near = (lo[i] - org[i]) * inv, far = (hi[i] - org[i]) * inv;
        if (near > far) {
            const float x = near;
            near = far;
            far = x;
        }
        far *= 1 + 2 * gamma3;
        t0 = near > t0 ? near : t0;
        t1 = far < t1 ? far : t1;
        if (t0 > t1) return 0;
    }
    (void)t_enter;
    (void)t_exit;
    (void)normal;
    return 1;
}
