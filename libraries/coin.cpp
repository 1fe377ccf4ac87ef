// Coin3D 4.0 (Debian's libcoin-dev), the Open Inventor API, called as it
// ships: SbBox3f (floats). One plugin per function:
//   ROW_coin_box_closest   SbBox3f::getClosestPoint(p), SbBox3f::intersect(p)   sphere_aabb, closest and contains
// getClosestPoint is documented as "the point on the box closest to the
// given point"; for a point inside, Coin moves it onto a face (the box's
// surface), so the row declares closest_on_surface. Coin has no ball-box
// test: the wrapper answers overlap from Coin's own point, contains or
// |c - q|^2 <= r^2 in double (a wrong point then shows as a wrong answer
// too), which is exact in its differences inside the row's 2^-20:2^20 and
// rounds in the squares and their sum, as isect's tolerant=1 overlap does.
#include <Inventor/SbBox3f.h>
#include "isect/plugin.h"

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_coin_box_closest)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "coin_SbBox3f_getClosestPoint"; }
ISECT_PLUGIN_EXPORT const char* isect_conventions(void) { return "closest_on_surface"; }
ISECT_PLUGIN_EXPORT int isect_sphere_aabb(const float lo[3], const float hi[3], const float c[3], float r, float closest[3],
                                          int* contains) {
    const SbBox3f box(lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
    const SbVec3f p(c[0], c[1], c[2]);
    const SbVec3f q = box.getClosestPoint(p);
    *contains = box.intersect(p) ? 1 : 0;
    double d2 = 0;
    for (int i = 0; i < 3; ++i) {
        closest[i] = q[i];
        const double d = double(c[i]) - q[i];
        d2 += d * d;
    }
    return *contains || d2 <= double(r) * r ? 1 : 0;
}
#endif

}  // extern "C"
