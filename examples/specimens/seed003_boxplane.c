/* Specimen: seed 003's box-plane test (TestAABBPlane), ported faithfully in
 * float: centre and extents, r = e . |n|, s = n . c - d, |s| <= r. */
#include <math.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "seed003_boxplane"; }

int isect_aabb_plane_overlap(const float lo[3], const float hi[3], const float n[3], float d) {
    float c[3], e[3];
    for (int i = 0; i < 3; ++i) {
        c[i] = (hi[i] + lo[i]) * 0.5f;
        e[i] = hi[i] - c[i];
    }
    const float r = e[0] * fabsf(n[0]) + e[1] * fabsf(n[1]) + e[2] * fabsf(n[2]);
    const float s = n[0] * c[0] + n[1] * c[1] + n[2] * c[2] - d;
    return fabsf(s) <= r;
}
