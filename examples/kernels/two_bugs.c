/* A box-box test with two bugs of different kinds: touching boxes count as
 * disjoint (a strict comparison), and the intersection box's high corner
 * takes the larger of the two highs instead of the smaller. isect reports
 * them as two failure classes.
 */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "two_bugs"; }

int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                    float out_lo[3], float out_hi[3]) {
    for (int i = 0; i < 3; ++i)
        if (!(a_lo[i] < b_hi[i] && b_lo[i] < a_hi[i])) return 0; /* bug 1: touching is disjoint */
    for (int i = 0; i < 3; ++i) {
        out_lo[i] = a_lo[i] > b_lo[i] ? a_lo[i] : b_lo[i];
        out_hi[i] = a_hi[i] > b_hi[i] ? a_hi[i] : b_hi[i]; /* bug 2: max, not min */
    }
    return 1;
}
