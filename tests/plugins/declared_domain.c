/* A plugin that declares its own domain through isect_domain(): a correct
 * box-box test, meant for magnitudes 2^-10..2^10. Built again with
 * DOMAIN_LO and DOMAIN_HI set: (0, 0), which is no domain, and 1e39..1e40,
 * which holds no float. */
#include "isect/plugin.h"

#ifndef DOMAIN_LO
#define DOMAIN_LO (1.0 / 1024)
#define DOMAIN_HI 1024
#endif

int isect_abi_version(void) { return ISECT_ABI_VERSION; }

void isect_domain(double* lo, double* hi) {
    *lo = DOMAIN_LO;
    *hi = DOMAIN_HI;
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
