/* A plugin that answers 7 for a yes/no test, 2 for a side of a plane (the
 * ABI's sides are -1, 0, 1), and NaN for a ray's t. */
#include <math.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }

int isect_aabb_plane_overlap(const float lo[3], const float hi[3], const float n[3], float d) {
    (void)lo, (void)hi, (void)n, (void)d;
    return 7;
}

int isect_aabb_plane(const float lo[3], const float hi[3], const float n[3], float d) {
    (void)lo, (void)hi, (void)n, (void)d;
    return 2;
}

int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9], float* t, float* u,
                       float* v) {
    (void)org, (void)dir, (void)tmax, (void)tri;
    *t = NAN;
    *u = *v = 0;
    return 1;
}
