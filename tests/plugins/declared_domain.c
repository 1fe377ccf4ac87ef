/* A plugin that declares its own domain through isect_domain(): a correct
 * box-box test, meant for magnitudes 2^-10..2^10. */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }

void isect_domain(double* lo, double* hi) {
    *lo = 1.0 / 1024;
    *hi = 1024;
}

int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                    float out_lo[3], float out_hi[3]) {
    for (int i = 0; i < 3; ++i) {
        if (a_lo[i] > b_hi[i] || b_lo[i] > a_hi[i]) return 0;
        out_lo[i] = a_lo[i] > b_lo[i] ? a_lo[i] : b_lo[i];
        out_hi[i] = a_hi[i] < b_hi[i] ? a_hi[i] : b_hi[i];
    }
    return 1;
}
