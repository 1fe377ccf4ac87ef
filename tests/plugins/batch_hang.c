/* hang.c through the batch entry only: a batch holding a triangle whose
   first x is above 1 never returns. isect must stop at the first hang and
   name its input, as with hang.c. */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }

ISECT_BATCH(aabb_triangle) {
    volatile int spin = 1;
    for (int i = 0; i < n; ++i)
        while (in[6][i] > 1 && spin) {
        }
    for (int i = 0; i < n; ++i) ret[i] = in[0][i] <= in[3][i];
}
