/* A plugin built against ABI version 1: it returns 1 and exports float
 * functions only. ABI 2 readers must load it unchanged. */
#include "isect/plugin.h"

int isect_abi_version(void) { return 1; }
const char* isect_kernel_name(void) { return "abi_v1"; }

int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3], float out_lo[3],
                    float out_hi[3]) {
    for (int i = 0; i < 3; ++i) {
        if (a_lo[i] > b_hi[i] || b_lo[i] > a_hi[i]) return 0;
        out_lo[i] = a_lo[i] > b_lo[i] ? a_lo[i] : b_lo[i];
        out_hi[i] = a_hi[i] < b_hi[i] ? a_hi[i] : b_hi[i];
    }
    return 1;
}
