/* A plugin whose kernel turns on flush-to-zero in the middle of a call and
 * leaves it on (as code that sets MXCSR for a SIMD loop and forgets to put
 * it back does): isect must restore the state after each call, keep its
 * truth out of it, and say so in the report. */
#include <xmmintrin.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }

int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3], float out_lo[3],
                    float out_hi[3]) {
    _mm_setcsr(_mm_getcsr() | 0x8000); /* FTZ */
    for (int i = 0; i < 3; ++i) {
        if (a_lo[i] > b_hi[i] || b_lo[i] > a_hi[i]) return 0;
        out_lo[i] = a_lo[i] > b_lo[i] ? a_lo[i] : b_lo[i];
        out_hi[i] = a_hi[i] < b_hi[i] ? a_hi[i] : b_hi[i];
    }
    return 1;
}
