/* A correct box-box batch entry that keeps its lanes in a scratch array of
   ISECT_BATCH_MAX, as SIMD kernels size theirs by the header's promise: a
   call with more inputs than that aborts. Built with BATCH_DEPENDS, it
   answers its last lane wrongly (7, none of the family's answers) in a
   batch of more than one and properly alone: an answer that depends on the
   batch, which isect asks again with n = 1. Built with BATCH_SLOW, each
   input costs 1.2 ms (as a slow kernel's would): a batch of ISECT_BATCH_MAX
   takes 1.2 s. */
#include <stdlib.h>
#include <time.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }

static int meet(const float* const* in, int i, float* const* out) {
    for (int a = 0; a < 3; ++a) {
        const float a_lo = in[a][i], a_hi = in[3 + a][i], b_lo = in[6 + a][i], b_hi = in[9 + a][i];
        if (a_lo > b_hi || b_lo > a_hi) return 0;
        out[a][i] = a_lo > b_lo ? a_lo : b_lo;
        out[3 + a][i] = a_hi < b_hi ? a_hi : b_hi;
    }
    return 1;
}

ISECT_BATCH(aabb_aabb) {
    int lanes[ISECT_BATCH_MAX];
    if (n < 1 || n > ISECT_BATCH_MAX) abort();
    for (int i = 0; i < n; ++i) lanes[i] = meet(in, i, out);
#ifdef BATCH_DEPENDS
    if (n > 1) lanes[n - 1] = 7;
#endif
#ifdef BATCH_SLOW
    const struct timespec wait = {0, 1200000L * n};
    nanosleep(&wait, NULL);
#endif
    for (int i = 0; i < n; ++i) ret[i] = lanes[i];
}
