/* The user's kernel with a bug: the radius is compared unsquared, so balls
 * of radius other than 0 or 1 are judged wrong at every scale. The CI gate
 * built from the README's snippet must fail on it. */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }

const char* isect_kernel_name(void) { return "my_sphere_box"; }

int isect_sphere_aabb(const float lo[3], const float hi[3], const float c[3], float r, float closest[3],
                      int* contains) {
    double d2 = 0;
    *contains = 1;
    for (int i = 0; i < 3; ++i) {
        closest[i] = c[i] < lo[i] ? lo[i] : (c[i] > hi[i] ? hi[i] : c[i]);
        if (closest[i] != c[i]) *contains = 0;
        const double d = (double)c[i] - closest[i];
        d2 += d * d;
    }
    return d2 <= (double)r;
}
