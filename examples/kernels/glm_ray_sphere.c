/* glm 0.9.9's intersectRaySphere (gtx/intersect), the overload that returns
 * a distance, in float as an engine calls it: the geometric form. With
 * diff = c - o and t0 = diff . d (d normalised, the function's stated
 * precondition), the squared distance from c to the ray's line is
 * diff . diff - t0^2; a miss when it exceeds r^2; else t1 = sqrt(r^2 - that)
 * and the distance is t0 - t1 when t0 > t1 + FLT_EPSILON (the origin
 * outside), t0 + t1 otherwise (from inside the ball: the exit), a hit only
 * when that distance exceeds FLT_EPSILON. So it answers the sphere, not the
 * closed ball: declared with isect_conventions() "surface" and
 * isect_requires() "unit_direction". glm has no tmax; the caller here
 * drops a hit beyond it, as a bounded ray's caller does, and t_exit is left
 * unwritten (glm returns one distance; isect then judges t_enter alone).
 */
#include <float.h>
#include <math.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "glm_ray_sphere"; }
const char* isect_conventions(void) { return "surface"; }
const char* isect_requires(void) { return "unit_direction"; }

int isect_ray_sphere(const float org[3], const float dir[3], float tmax, const float c[3], float r, float* t_enter,
                     float* t_exit) {
    (void)t_exit;
    const float r2 = r * r;
    const float diff[3] = {c[0] - org[0], c[1] - org[1], c[2] - org[2]};
    const float t0 = diff[0] * dir[0] + diff[1] * dir[1] + diff[2] * dir[2];
    const float d2 = diff[0] * diff[0] + diff[1] * diff[1] + diff[2] * diff[2] - t0 * t0;
    if (d2 > r2) return 0;
    const float t1 = sqrtf(r2 - d2);
    const float distance = t0 > t1 + FLT_EPSILON ? t0 - t1 : t0 + t1;
    if (!(distance > FLT_EPSILON) || distance > tmax) return 0;
    *t_enter = distance;
    return 1;
}
