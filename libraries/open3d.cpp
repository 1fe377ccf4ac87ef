// Open3D 0.16 (Debian's libopen3d-dev), geometry::IntersectionTest called as
// it ships, in double (Eigen::Vector3d). One plugin per function:
//   ROW_open3d_box_box       IntersectionTest::AABBAABB(min0, max0, min1, max1)     aabb_aabb, yes/no
//   ROW_open3d_triangle_box  IntersectionTest::TriangleAABB(centre, half, v0..v2)   aabb_triangle
// AABBAABB takes isect's numbers as they are: a double entry (--precision
// double). TriangleAABB takes a box by centre and half-size:
// the wrapper forms (lo + hi) / 2 and (hi - lo) / 2 in double from floats (a
// float entry), exact inside the row's --domain 2^-10:2^10, as the FCL and
// ODE box rows do.
#include <open3d/geometry/IntersectionTest.h>
#include "isect/plugin.h"

namespace {

template <class T> Eigen::Vector3d v(const T* p) { return Eigen::Vector3d(double(p[0]), double(p[1]), double(p[2])); }

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

using open3d::geometry::IntersectionTest;

#if defined(ROW_open3d_box_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "open3d_IntersectionTest_AABBAABB"; }
ISECT_PLUGIN_EXPORT int isect_aabb_aabb_d(const double a_lo[3], const double a_hi[3], const double b_lo[3],
                                          const double b_hi[3], double out_lo[3], double out_hi[3]) {
    (void)out_lo, (void)out_hi;  // a yes/no
    return IntersectionTest::AABBAABB(v(a_lo), v(a_hi), v(b_lo), v(b_hi)) ? 1 : 0;
}
#elif defined(ROW_open3d_triangle_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "open3d_IntersectionTest_TriangleAABB"; }
ISECT_PLUGIN_EXPORT int isect_aabb_triangle(const float lo[3], const float hi[3], const float tri[9]) {
    const Eigen::Vector3d l = v(lo), h = v(hi);
    return IntersectionTest::TriangleAABB((l + h) / 2, (h - l) / 2, v(tri), v(tri + 3), v(tri + 6)) ? 1 : 0;
}
#endif

}  // extern "C"
