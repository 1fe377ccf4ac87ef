/* Arvo's transformed box in float, rounded to nearest as almost everyone
 * writes it: each face may cut the exact image by an ulp or so. Under
 * exact and conservative that breaks containment; under tolerant=K a cut
 * inside the band is allowed, and with --domain 2^-20:2^20 it holds
 * tolerant=64.
 */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "transform_nearest"; }

void isect_transformed_aabb(const float lo[3], const float hi[3], const float m[9], const float t[3], float out_lo[3],
                            float out_hi[3]) {
    for (int i = 0; i < 3; ++i) {
        float a = t[i], b = t[i];
        for (int j = 0; j < 3; ++j) {
            const float p = m[3 * i + j] * lo[j], q = m[3 * i + j] * hi[j];
            a += p < q ? p : q;
            b += p < q ? q : p;
        }
        out_lo[i] = a;
        out_hi[i] = b;
    }
}
