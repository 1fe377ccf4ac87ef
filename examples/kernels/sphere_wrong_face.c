/* A ball-box test whose nearest point takes the far face when the centre
 * is below the box on an axis (the bug isect found in a real engine's
 * port): the nearest point is wrong, and the overlap built on it misses
 * balls that touch the low faces. A logic bug, so BROKEN inside any domain.
 */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "sphere_wrong_face"; }

int isect_sphere_aabb(const float lo[3], const float hi[3], const float c[3], float r, float closest[3],
                      int* contains) {
    float d2 = 0;
    *contains = 1;
    for (int i = 0; i < 3; ++i) {
        float q = c[i];
        if (c[i] < lo[i]) q = hi[i]; /* the bug: should be lo[i] */
        if (c[i] > hi[i]) q = hi[i];
        if (c[i] < lo[i] || c[i] > hi[i]) *contains = 0;
        closest[i] = q;
        d2 += (c[i] - q) * (c[i] - q);
    }
    return d2 <= r * r;
}
