/* A correct box-box test that prints a debug line on every call, as a
   plugin under development does: isect keeps what it prints whole in a log
   beside the findings and says it in one line, never in the terminal. */
#include <stdio.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }

int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                    float out_lo[3], float out_hi[3]) {
    printf("debug: aabb_aabb called\n");
    fprintf(stderr, "debug: on stderr too\n");
    for (int i = 0; i < 3; ++i) {
        if (a_lo[i] > b_hi[i] || b_lo[i] > a_hi[i]) return 0;
        out_lo[i] = a_lo[i] > b_lo[i] ? a_lo[i] : b_lo[i];
        out_hi[i] = a_hi[i] < b_hi[i] ? a_hi[i] : b_hi[i];
    }
    return 1;
}
