// OGRE 1.12 (Debian's libogre-1.12-dev), Real = float as Debian builds it,
// called as it ships. One plugin per function:
//   ROW_ogre_box_box       AxisAlignedBox::intersects(AxisAlignedBox)          aabb_aabb, yes/no
//   ROW_ogre_sphere_box    Math::intersects(Sphere, AxisAlignedBox)            sphere_aabb, yes/no
//   ROW_ogre_plane_box     Plane::getSide(AxisAlignedBox)                      aabb_plane
//   ROW_ogre_ray_box       Math::intersects(Ray, AxisAlignedBox, &d1, &d2)     ray_aabb, t_enter and t_exit
//   ROW_ogre_ray_sphere    Math::intersects(Ray, Sphere)                       ray_sphere, t_enter
//   ROW_ogre_ray_triangle  Math::intersects(Ray, a, b, c, true, true)          ray_triangle, t
// A box is AxisAlignedBox(min, max), a finite box (OGRE asserts min <= max
// in debug builds; flat boxes are boxes). A Ray is an origin and a nonzero
// direction, with no end: the ray rows require nonzero_direction, and the
// ray_sphere and ray_triangle rows unbounded_tmax (ray_aabb's has none).
// Plane(normal, constant) is isect's n . x = d as it is, its positive side
// isect's front (1). getSide forms the box's centre and half-size itself
// (OgrePlane.h), OGRE's arithmetic, not the wrapper's, and calls a box that
// touches the plane BOTH_SIDE (the convention touching_straddles).
#include <OGRE/OgreAxisAlignedBox.h>
#include <OGRE/OgreMath.h>
#include <OGRE/OgrePlane.h>
#include <OGRE/OgreRay.h>
#include <OGRE/OgreSphere.h>
#include "isect/plugin.h"

namespace {

Ogre::Vector3 v(const float* p) { return Ogre::Vector3(p[0], p[1], p[2]); }
Ogre::AxisAlignedBox box(const float* lo, const float* hi) { return Ogre::AxisAlignedBox(v(lo), v(hi)); }

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_ogre_box_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ogre_AxisAlignedBox_intersects"; }
ISECT_PLUGIN_EXPORT int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                                        float out_lo[3], float out_hi[3]) {
    (void)out_lo, (void)out_hi;  // a yes/no: the meet is not computed
    return box(a_lo, a_hi).intersects(box(b_lo, b_hi)) ? 1 : 0;
}
#elif defined(ROW_ogre_sphere_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ogre_Math_intersects_Sphere_AxisAlignedBox"; }
ISECT_PLUGIN_EXPORT int isect_sphere_aabb(const float lo[3], const float hi[3], const float c[3], float r, float closest[3],
                                          int* contains) {
    (void)closest, (void)contains;  // a yes/no
    return Ogre::Math::intersects(Ogre::Sphere(v(c), r), box(lo, hi)) ? 1 : 0;
}
#elif defined(ROW_ogre_plane_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ogre_Plane_getSide_AxisAlignedBox"; }
ISECT_PLUGIN_EXPORT const char* isect_conventions(void) { return "touching_straddles"; }
ISECT_PLUGIN_EXPORT int isect_aabb_plane(const float lo[3], const float hi[3], const float n[3], float d) {
    const Ogre::Plane plane(v(n), d);  // OGRE's (normal, constant): n . x = constant
    switch (plane.getSide(box(lo, hi))) {
        case Ogre::Plane::POSITIVE_SIDE: return 1;
        case Ogre::Plane::NEGATIVE_SIDE: return -1;
        case Ogre::Plane::BOTH_SIDE: return 0;
        default: return 2;  // NO_SIDE: a null box, which a finite one never is (isect reports it as garbage)
    }
}
#elif defined(ROW_ogre_ray_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ogre_Math_intersects_Ray_AxisAlignedBox"; }
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "nonzero_direction"; }
ISECT_PLUGIN_EXPORT int isect_ray_aabb(const float org[3], const float dir[3], const float lo[3], const float hi[3],
                                       float* t_enter, float* t_exit, float normal[3]) {
    (void)normal;  // OGRE gives no face
    return Ogre::Math::intersects(Ogre::Ray(v(org), v(dir)), box(lo, hi), t_enter, t_exit) ? 1 : 0;
}
#elif defined(ROW_ogre_ray_sphere)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ogre_Math_intersects_Ray_Sphere"; }
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "nonzero_direction,unbounded_tmax"; }
ISECT_PLUGIN_EXPORT int isect_ray_sphere(const float org[3], const float dir[3], float tmax, const float c[3], float r,
                                         float* t_enter, float* t_exit) {
    (void)tmax, (void)t_exit;  // OGRE gives the first distance only
    const Ogre::RayTestResult hit = Ogre::Math::intersects(Ogre::Ray(v(org), v(dir)), Ogre::Sphere(v(c), r));
    if (hit.first) *t_enter = hit.second;
    return hit.first ? 1 : 0;
}
#elif defined(ROW_ogre_ray_triangle)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ogre_Math_intersects_Ray_triangle"; }
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "nonzero_direction,unbounded_tmax"; }
ISECT_PLUGIN_EXPORT int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9], float* t,
                                           float* u, float* v_out) {
    (void)tmax, (void)u, (void)v_out;  // OGRE gives the distance only
    const Ogre::RayTestResult hit =
        Ogre::Math::intersects(Ogre::Ray(v(org), v(dir)), v(tri), v(tri + 3), v(tri + 6), true, true);
    if (hit.first) *t = hit.second;
    return hit.first ? 1 : 0;
}
#endif

}  // extern "C"
