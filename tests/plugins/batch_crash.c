/* crash.c through the batch entry only: a batch holding a box left of x = 0
   dereferences a null pointer. isect must pin each crash on its own input
   (the batch run again one input at a time), so a check finds what it finds
   with crash.c. */
#include <stddef.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }

ISECT_BATCH(aabb_aabb) {
    volatile int* nothing = NULL;
    for (int i = 0; i < n; ++i)
        if (in[0][i] < 0) ret[i] = *nothing;
    for (int i = 0; i < n; ++i) {
        ret[i] = 1;
        for (int a = 0; a < 3; ++a) {
            const float a_lo = in[a][i], a_hi = in[3 + a][i], b_lo = in[6 + a][i], b_hi = in[9 + a][i];
            if (a_lo > b_hi || b_lo > a_hi) {
                ret[i] = 0;
                break;
            }
            out[a][i] = a_lo > b_lo ? a_lo : b_lo;
            out[3 + a][i] = a_hi < b_hi ? a_hi : b_hi;
        }
    }
}
