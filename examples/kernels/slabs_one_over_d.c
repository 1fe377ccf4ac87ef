/* A ray vs box slab test written the way three.js's Ray.intersectBox writes
 * it: reciprocals of the direction, slab parameters multiplied by them, the
 * entry and exit narrowed axis by axis, a NaN from 0 * inf (a ray in a face's
 * plane) replaced by the next axis's value. Its documentation assumes a
 * normalised direction; with a zero direction every reciprocal is inf and
 * the answer is noise. With `--require nonzero_direction --domain
 * 2^-20:2^20` it holds tolerant=64 (tests/domain_test.sh). The numbers are
 * given in isect's convention (t_enter = 0 for an origin inside the box,
 * where three.js returns the exit point); the normal is not computed.
 */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "slabs_one_over_d"; }

/* The slab of one axis: the parameters where the ray enters and leaves it. */
static void slab(float lo, float hi, float o, float inv, float* t0, float* t1) {
    if (inv >= 0) {
        *t0 = (lo - o) * inv;
        *t1 = (hi - o) * inv;
    } else {
        *t0 = (hi - o) * inv;
        *t1 = (lo - o) * inv;
    }
}

int isect_ray_aabb(const float org[3], const float dir[3], const float lo[3], const float hi[3], float* t_enter,
                   float* t_exit, float normal[3]) {
    (void)normal;
    float tmin, tmax, t0, t1;
    slab(lo[0], hi[0], org[0], 1.0f / dir[0], &tmin, &tmax);
    for (int i = 1; i < 3; ++i) {
        slab(lo[i], hi[i], org[i], 1.0f / dir[i], &t0, &t1);
        if (tmin > t1 || t0 > tmax) return 0;
        if (t0 > tmin || tmin != tmin) tmin = t0;
        if (t1 < tmax || tmax != tmax) tmax = t1;
    }
    if (tmax < 0) return 0;
    *t_enter = tmin >= 0 ? tmin : 0;
    *t_exit = tmax;
    return 1;
}
