// glm 0.9.9 (Debian's libglm-dev), gtx/intersect, called as it ships, on
// glm::vec3 (isect_FAMILY) and glm::dvec3 (isect_FAMILY_d). One plugin per
// function:
//   ROW_glm_ray_triangle          intersectRayTriangle(orig, dir, v0, v1, v2, bary, distance)
//   ROW_glm_line_triangle         intersectLineTriangle(orig, dir, v0, v1, v2, position)
//   ROW_glm_ray_sphere_distance   intersectRaySphere(start, normalizedDir, centre, radius^2, distance)
//   ROW_glm_ray_sphere_point      intersectRaySphere(start, normalizedDir, centre, radius, position, normal)
// glm's functions take no tmax: their rays have no end, so each row
// requires unbounded_tmax (tmax = +inf); bary is (u, v) of v1, v2, isect's
// u and v. intersectRaySphere's documentation asks for a normalised
// direction (unit_direction) and answers the sphere's surface: from inside
// the ball, the exit (convention surface); it returns one distance, so
// t_exit is left unwritten and not judged. The position overload returns a
// point, not a t: only its yes/no is judged. intersectLineTriangle takes a
// line (t of any sign: isect's `line` convention) and returns (t, u, v) in
// position. intersectLineSphere takes a line through two points, a form
// isect has not yet: no row.
#include <glm/glm.hpp>
#include <glm/gtx/intersect.hpp>
#include "isect/plugin.h"

namespace {

template <class V, class T> V vec(const T* p) { return V(p[0], p[1], p[2]); }

#if defined(ROW_glm_line_triangle)
template <class V, class T> int line_triangle(const T* org, const T* dir, const T* tri, T* t, T* u, T* v) {
    V position;
    if (!glm::intersectLineTriangle(vec<V>(org), vec<V>(dir), vec<V>(tri), vec<V>(tri + 3), vec<V>(tri + 6), position))
        return 0;
    *t = position.x, *u = position.y, *v = position.z;
    return 1;
}
#elif defined(ROW_glm_ray_triangle)
template <class V, class T> int ray_triangle(const T* org, const T* dir, T tmax, const T* tri, T* t, T* u, T* v) {
    glm::vec<2, T, glm::defaultp> bary;
    T distance = 0;
    (void)tmax;  // +inf: unbounded_tmax
    if (!glm::intersectRayTriangle(vec<V>(org), vec<V>(dir), vec<V>(tri), vec<V>(tri + 3), vec<V>(tri + 6), bary, distance))
        return 0;
    *t = distance, *u = bary.x, *v = bary.y;
    return 1;
}
#else
template <class V, class T> int ray_sphere(const T* org, const T* dir, T tmax, const T* c, T r, T* t_enter) {
#if defined(ROW_glm_ray_sphere_distance)
    (void)tmax;  // +inf: unbounded_tmax
    T distance = 0;
    if (!glm::intersectRaySphere(vec<V>(org), vec<V>(dir), vec<V>(c), r * r, distance)) return 0;
    *t_enter = distance;
    return 1;
#else
    (void)tmax, (void)t_enter;
    V position, normal;
    return glm::intersectRaySphere(vec<V>(org), vec<V>(dir), vec<V>(c), r, position, normal) ? 1 : 0;
#endif
}
#endif

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_glm_line_triangle)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "glm_intersectLineTriangle"; }
ISECT_PLUGIN_EXPORT const char* isect_conventions(void) { return "line"; }
ISECT_PLUGIN_EXPORT int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9], float* t,
                                           float* u, float* v) {
    (void)tmax;  // a line has no end
    return line_triangle<glm::vec3>(org, dir, tri, t, u, v);
}
ISECT_PLUGIN_EXPORT int isect_ray_triangle_d(const double org[3], const double dir[3], double tmax, const double tri[9],
                                             double* t, double* u, double* v) {
    (void)tmax;
    return line_triangle<glm::dvec3>(org, dir, tri, t, u, v);
}
#elif defined(ROW_glm_ray_triangle)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "glm_intersectRayTriangle"; }
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "unbounded_tmax"; }
ISECT_PLUGIN_EXPORT int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9], float* t,
                                           float* u, float* v) {
    return ray_triangle<glm::vec3>(org, dir, tmax, tri, t, u, v);
}
ISECT_PLUGIN_EXPORT int isect_ray_triangle_d(const double org[3], const double dir[3], double tmax, const double tri[9],
                                             double* t, double* u, double* v) {
    return ray_triangle<glm::dvec3>(org, dir, tmax, tri, t, u, v);
}
#else
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) {
#if defined(ROW_glm_ray_sphere_distance)
    return "glm_intersectRaySphere_distance";
#else
    return "glm_intersectRaySphere_point";
#endif
}
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "unit_direction,unbounded_tmax"; }
ISECT_PLUGIN_EXPORT const char* isect_conventions(void) { return "surface"; }
ISECT_PLUGIN_EXPORT int isect_ray_sphere(const float org[3], const float dir[3], float tmax, const float c[3], float r,
                                         float* t_enter, float* t_exit) {
    (void)t_exit;
    return ray_sphere<glm::vec3>(org, dir, tmax, c, r, t_enter);
}
ISECT_PLUGIN_EXPORT int isect_ray_sphere_d(const double org[3], const double dir[3], double tmax, const double c[3], double r,
                                           double* t_enter, double* t_exit) {
    (void)t_exit;
    return ray_sphere<glm::dvec3>(org, dir, tmax, c, r, t_enter);
}
#endif

}  // extern "C"
