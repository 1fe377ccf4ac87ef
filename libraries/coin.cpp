// Coin3D 4.0 (Debian's libcoin-dev), the Open Inventor API, called as it
// ships: SbBox3f (floats). One plugin per function:
//   ROW_coin_box_closest   SbBox3f::getClosestPoint(p), SbBox3f::intersect(p)   sphere_aabb, closest and contains
//   ROW_coin_box_intersect SbBox3f::intersect(box)                              aabb_aabb, yes/no
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
#elif defined(ROW_coin_box_intersect)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "coin_SbBox3f_intersect_SbBox3f"; }
ISECT_PLUGIN_EXPORT int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                                        float out_lo[3], float out_hi[3]) {
    (void)out_lo, (void)out_hi;  // a yes/no: the meet is not computed
    const SbBox3f a(a_lo[0], a_lo[1], a_lo[2], a_hi[0], a_hi[1], a_hi[2]);
    const SbBox3f b(b_lo[0], b_lo[1], b_lo[2], b_hi[0], b_hi[1], b_hi[2]);
    return a.intersect(b) ? 1 : 0;
}
#endif

}  // extern "C"
