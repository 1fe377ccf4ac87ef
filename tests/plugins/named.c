/* A box-box test that calls touching boxes disjoint, named by
   isect_kernel_name() as KERNEL_NAME says: 300 characters, or none at all.
   Its witnesses must be saved under names any tool takes. */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return KERNEL_NAME; }

int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                    float out_lo[3], float out_hi[3]) {
    for (int i = 0; i < 3; ++i) {
        if (a_lo[i] >= b_hi[i] || b_lo[i] >= a_hi[i]) return 0;
        out_lo[i] = a_lo[i] > b_lo[i] ? a_lo[i] : b_lo[i];
        out_hi[i] = a_hi[i] < b_hi[i] ? a_hi[i] : b_hi[i];
    }
    return 1;
}
