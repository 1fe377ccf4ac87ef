/* Box vs box with strict comparisons: boxes that only touch (a shared face,
 * edge or corner) are called disjoint. The exact answer is overlap (the
 * boxes are closed), but moving the inputs by any amount can part them, so
 * under tolerant=1 that is in band: at every scale, and for boxes of zero
 * size at the origin too (tests/domain_test.sh).
 */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "box_touch_disjoint"; }

int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3], float out_lo[3],
                    float out_hi[3]) {
    for (int i = 0; i < 3; ++i)
        if (!(a_lo[i] < b_hi[i] && b_lo[i] < a_hi[i])) return 0;
    for (int i = 0; i < 3; ++i) {
        out_lo[i] = a_lo[i] > b_lo[i] ? a_lo[i] : b_lo[i];
        out_hi[i] = a_hi[i] < b_hi[i] ? a_hi[i] : b_hi[i];
    }
    return 1;
}
