// OpenVDB 10 (Debian's libopenvdb-dev), its templates math::Ray and
// math::BBox, called as they ship, in float (Vec3s). One plugin per function:
//   ROW_openvdb_box_box     BBox<Vec3s>::hasOverlap(other)                   aabb_aabb, yes/no
//   ROW_openvdb_ray_box     Ray<float>::intersects(BBox, t0, t1)             ray_aabb, t_enter and t_exit
//   ROW_openvdb_ray_sphere  Ray<float>::intersects(center, radius, t0, t1)   ray_sphere, t_enter and t_exit
// A Ray is built as Ray(eye, dir, 0): its time span from 0 to the default
// std::numeric_limits<float>::max(), which no hit inside the rows'
// 2^-20:2^20 reaches (their t stay below 2^41), so the ray_sphere row
// requires unbounded_tmax. OpenVDB's default start is Delta<float> = 1e-5,
// a start parameter isect cannot declare yet (issue 43's tnear); 0 is what
// isect's families take. Both tests clip the times they report to the span,
// so a start inside the box or ball is entered at 0, as isect's are.
#include <limits>
#include <openvdb/math/BBox.h>
#include <openvdb/math/Ray.h>
#include <openvdb/math/Vec3.h>
#include "isect/plugin.h"

namespace {

using Vec = openvdb::math::Vec3s;
using Ray = openvdb::math::Ray<float>;
using Box = openvdb::math::BBox<Vec>;

Vec v(const float* p) { return Vec(p[0], p[1], p[2]); }

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_openvdb_box_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "openvdb_BBox_hasOverlap"; }
ISECT_PLUGIN_EXPORT int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                                        float out_lo[3], float out_hi[3]) {
    (void)out_lo, (void)out_hi;  // a yes/no
    return Box(v(a_lo), v(a_hi)).hasOverlap(Box(v(b_lo), v(b_hi))) ? 1 : 0;
}
#elif defined(ROW_openvdb_ray_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "openvdb_Ray_intersects_BBox"; }
ISECT_PLUGIN_EXPORT int isect_ray_aabb(const float org[3], const float dir[3], const float lo[3], const float hi[3],
                                       float* t_enter, float* t_exit, float normal[3]) {
    (void)normal;  // OpenVDB gives no face
    return Ray(v(org), v(dir), 0).intersects(Box(v(lo), v(hi)), *t_enter, *t_exit) ? 1 : 0;
}
#elif defined(ROW_openvdb_ray_sphere)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "openvdb_Ray_intersects_sphere"; }
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "nonzero_direction,unbounded_tmax"; }
ISECT_PLUGIN_EXPORT int isect_ray_sphere(const float org[3], const float dir[3], float tmax, const float c[3], float r,
                                         float* t_enter, float* t_exit) {
    (void)tmax;
    return Ray(v(org), v(dir), 0).intersects(v(c), r, *t_enter, *t_exit) ? 1 : 0;
}
#endif

}  // extern "C"
