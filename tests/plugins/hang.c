/* A plugin that never returns when the triangle's first x is above 1. */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }

int isect_aabb_triangle(const float lo[3], const float hi[3], const float tri[9]) {
    volatile int spin = 1;
    while (tri[0] > 1 && spin) {
    }
    return lo[0] <= hi[0];
}
