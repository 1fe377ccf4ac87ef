// Bullet 3 (Debian's libbullet-dev), LinearMath/btAabbUtil2.h, called as it
// ships: inline functions, so the package's header is the code under test.
// One plugin per function:
//   ROW_bullet_ray_aabb2      btRayAabb2(from, 1/dir, sign, bounds, tmin, 0, +inf)   ray_aabb, yes/no
//   ROW_bullet_ray_aabb       btRayAabb(from, to, min, max, param = 1, normal)      segment_aabb
//   ROW_bullet_aabb_aabb      TestAabbAgainstAabb2(min1, max1, min2, max2)          aabb_aabb, yes/no
//   ROW_bullet_triangle_aabb  TestTriangleAgainstAabb2(vertices, min, max)          aabb_triangle
//   ROW_bullet_transform_aabb btTransformAabb(min, max, margin = 0, transform, ...) transformed_aabb
// btRayAabb2's callers compute the inverse direction and its signs, as
// btDbvt and the broadphase do; its lambda range is the ray's [0, +inf).
// btRayAabb takes the segment's two ends: the wrapper forms to = from +
// delta, so that row uses Bullet as Debian also ships it with double
// scalars (libbullet-float64's headers, BT_USE_DOUBLE_PRECISION), where the
// sum of two floats is exact inside the row's --domain 2^-10:2^10.
#include <LinearMath/btAabbUtil2.h>
#include <LinearMath/btTransform.h>
#include <cmath>
#include "isect/plugin.h"

namespace {
btVector3 vec(const float* p) { return btVector3(btScalar(p[0]), btScalar(p[1]), btScalar(p[2])); }
}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_bullet_ray_aabb2)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "bullet_btRayAabb2"; }
ISECT_PLUGIN_EXPORT int isect_ray_aabb(const float org[3], const float dir[3], const float lo[3], const float hi[3],
                                       float* t_enter, float* t_exit, float normal[3]) {
    (void)t_enter, (void)t_exit, (void)normal;
    const btVector3 inv(btScalar(1) / dir[0], btScalar(1) / dir[1], btScalar(1) / dir[2]);
    const unsigned sign[3] = {inv[0] < 0, inv[1] < 0, inv[2] < 0};
    const btVector3 bounds[2] = {vec(lo), vec(hi)};
    btScalar tmin = 0;
    return btRayAabb2(vec(org), inv, sign, bounds, tmin, 0, btScalar(INFINITY)) ? 1 : 0;
}
#elif defined(ROW_bullet_ray_aabb)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "bullet_btRayAabb_double"; }
// btRayAabb's hitNormal is the entry face's normal pointing into the box
// (btAabbUtil2.h: -1 on the axis where the segment enters through the
// high face): isect's inward_normal convention.
ISECT_PLUGIN_EXPORT const char* isect_conventions(void) { return "inward_normal"; }
ISECT_PLUGIN_EXPORT int isect_segment_aabb(const float org[3], const float delta[3], const float lo[3], const float hi[3],
                                           float* t_enter, float* t_exit, float normal[3]) {
    (void)t_exit;
    const btVector3 from = vec(org), to = from + vec(delta);
    btScalar param = 1;
    btVector3 n(0, 0, 0);
    if (!btRayAabb(from, to, vec(lo), vec(hi), param, n)) return 0;
    *t_enter = float(param);
    for (int i = 0; i < 3; ++i) normal[i] = float(n[i]);
    return 1;
}
#elif defined(ROW_bullet_aabb_aabb)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "bullet_TestAabbAgainstAabb2"; }
ISECT_PLUGIN_EXPORT int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                                        float out_lo[3], float out_hi[3]) {
    (void)out_lo, (void)out_hi;
    return TestAabbAgainstAabb2(vec(a_lo), vec(a_hi), vec(b_lo), vec(b_hi)) ? 1 : 0;
}
#elif defined(ROW_bullet_triangle_aabb)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "bullet_TestTriangleAgainstAabb2"; }
ISECT_PLUGIN_EXPORT int isect_aabb_triangle(const float lo[3], const float hi[3], const float tri[9]) {
    const btVector3 v[3] = {vec(tri), vec(tri + 3), vec(tri + 6)};
    return TestTriangleAgainstAabb2(v, vec(lo), vec(hi)) ? 1 : 0;
}
#elif defined(ROW_bullet_transform_aabb)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "bullet_btTransformAabb"; }
ISECT_PLUGIN_EXPORT void isect_transformed_aabb(const float lo[3], const float hi[3], const float m[9], const float t[3],
                                                float out_lo[3], float out_hi[3]) {
    const btTransform trans(btMatrix3x3(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]), vec(t));
    btVector3 mn, mx;
    btTransformAabb(vec(lo), vec(hi), 0, trans, mn, mx);
    for (int i = 0; i < 3; ++i) out_lo[i] = float(mn[i]), out_hi[i] = float(mx[i]);
}
#endif

}  // extern "C"
