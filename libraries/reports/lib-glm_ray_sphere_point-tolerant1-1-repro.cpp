// Reproducer written by `isect report` from lib-glm_ray_sphere_point-tolerant1-1.case.
// glm 0.9.9 (libglm-dev 0.9.9.8+ds-6), intersectRaySphere, position and normal (vec3): miss where the exact answer is hit (enters through the sphere).
// It needs nothing but what the code below includes. Build and run it, for example:
//   g++ -std=c++17 -O2 lib-glm_ray_sphere_point-tolerant1-1-repro.cpp && ./a.out
// It prints the answer beside the exact one and exits 1 while they differ.
#define ISECT_PLUGIN_EXPORT
#define ISECT_ABI_VERSION 2
#define ROW_glm_ray_sphere_point 1

// --- glm.cpp ---
// glm 0.9.9 (Debian's libglm-dev), gtx/intersect, called as it ships, on
// glm::vec3 (isect_FAMILY) and glm::dvec3 (isect_FAMILY_d). One plugin per
// function:
//   ROW_glm_ray_triangle          intersectRayTriangle(orig, dir, v0, v1, v2, bary, distance)
//   ROW_glm_ray_sphere_distance   intersectRaySphere(start, normalizedDir, centre, radius^2, distance)
//   ROW_glm_ray_sphere_point      intersectRaySphere(start, normalizedDir, centre, radius, position, normal)
// glm's functions take no tmax: their rays have no end, so each row
// requires unbounded_tmax (tmax = +inf); bary is (u, v) of v1, v2, isect's
// u and v. intersectRaySphere's documentation asks for a normalised
// direction (unit_direction) and answers the sphere's surface: from inside
// the ball, the exit (convention surface); it returns one distance, so
// t_exit is left unwritten and not judged. The position overload returns a
// point, not a t: only its yes/no is judged. intersectLineTriangle and
// intersectLineSphere take lines (t of any sign), which no family is.
#include <glm/glm.hpp>
#include <glm/gtx/intersect.hpp>

namespace {

template <class V, class T> V vec(const T* p) { return V(p[0], p[1], p[2]); }

#if defined(ROW_glm_ray_triangle)
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

#if defined(ROW_glm_ray_triangle)
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

// --- the input isect found ---
#include <cmath>
#include <cstdio>

int main() {
    const float org[3] = {0x1p-12f, -0x1p+0f, 0x0p+0f};  // org
    const float dir[3] = {0x1.fffffep-1f, 0x1p-12f, 0x0p+0f};  // dir
    const float tmax = INFINITY;  // tmax
    const float c[3] = {0x1p+12f, 0x0p+0f, 0x0p+0f};  // c
    const float r = 0x1p-1f;  // r
    float out[2];
    for (float& x : out) x = NAN;  // what it does not write stays NaN
    const int ret = isect_ray_sphere(org, dir, tmax, c, r, &out[0], &out[1]);
    std::printf("returns %d   (exact: 1, hit)\n", ret);
    const char* const name[] = {"t_enter", "t_exit"};
    const double exact[] = {0x1.ffeffffff8p+11, 0x1.0008000004p+12};
    for (int i = 0; i < 2; ++i)
        if (!std::isnan(out[i])) std::printf("%-12s %.9g   (exact %.17g)\n", name[i], double(out[i]), exact[i]);
    return ret != 1 ? 1 : 0;
}
