/* A plugin that dereferences a null pointer for boxes left of x = 0. */
#include <stddef.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }

int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                    float out_lo[3], float out_hi[3]) {
    volatile int* nothing = NULL;
    if (a_lo[0] < 0) return *nothing;
    for (int i = 0; i < 3; ++i) {
        if (a_lo[i] > b_hi[i] || b_lo[i] > a_hi[i]) return 0;
        out_lo[i] = a_lo[i] > b_lo[i] ? a_lo[i] : b_lo[i];
        out_hi[i] = a_hi[i] < b_hi[i] ? a_hi[i] : b_hi[i];
    }
    return 1;
}
