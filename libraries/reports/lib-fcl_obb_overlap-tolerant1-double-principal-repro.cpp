// Reproducer written by `isect report` from lib-fcl_obb_overlap-tolerant1-double-principal.case.
// FCL 0.7 (libfcl-dev 0.7.0-3+b1), OBB::overlap: overlap where the exact answer is disjoint (separated by a face axis of a).
// It needs nothing but what the code below includes. Build and run it, for example:
//   g++ -std=c++17 -O2 lib-fcl_obb_overlap-tolerant1-double-principal-repro.cpp -I/usr/include/eigen3 -lfcl && ./a.out
// It prints the answer beside the exact one and exits 1 while they differ.
#define ISECT_PLUGIN_EXPORT
#define ISECT_ABI_VERSION 2
#define ROW_fcl_obb_overlap 1

// --- fcl.cpp ---
// FCL 0.7 (Debian's libfcl-dev), called as it ships, in double (FCL's
// scalar; libfcl instantiates it). One plugin per function:
//   ROW_fcl_obb_overlap     OBB<double>(axis, To, extent).overlap(other)            obb_obb
//   ROW_fcl_aabb_overlap    AABB<double>(min, max).overlap(other)                   aabb_aabb, yes/no
//   ROW_fcl_aabb_part       AABB<double>::overlap(other, overlap_part)              aabb_aabb, the box
//   ROW_fcl_triangles       detail::Intersect<double>::intersect_Triangle(P1..Q3)   triangle_triangle, yes/no
//   ROW_fcl_seg_points      detail::TriangleDistance<double>::segPoints(P, A, Q, B, VEC, X, Y)  segment_segment
//   ROW_fcl_sphere_box      detail::sphereBoxIntersect(sphere, X_FS, box, X_FB, nullptr)       sphere_aabb, yes/no
// The first four take isect's numbers as they are: they are the double
// entries (--precision double). segPoints takes a segment as P + t A, and a
// Box is centred, with side lengths: the wrapper forms A = q - p, the
// centre (lo + hi) / 2 and the sides hi - lo in double from floats, exact
// inside the rows' --domain 2^-10:2^10, so those are float entries.
// An OBB's axes are the columns of `axis`, its half-extents `extent`;
// FCL's OBB code assumes them orthonormal (orthonormal_axes).
#include <fcl/math/bv/AABB.h>
#include <fcl/math/bv/OBB.h>
#include <fcl/narrowphase/detail/primitive_shape_algorithm/sphere_box.h>
#include <fcl/narrowphase/detail/primitive_shape_algorithm/triangle_distance.h>
#include <fcl/narrowphase/detail/traversal/collision/intersect.h>

namespace {
template <class T> fcl::Vector3d vec(const T* p) { return fcl::Vector3d(double(p[0]), double(p[1]), double(p[2])); }
}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_fcl_obb_overlap)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "fcl_OBB_overlap"; }
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "orthonormal_axes"; }
ISECT_PLUGIN_EXPORT int isect_obb_obb_d(const double a_c[3], const double a_axes[9], const double a_h[3], const double b_c[3],
                                        const double b_axes[9], const double b_h[3]) {
    const auto obb = [](const double* c, const double* axes, const double* h) {
        fcl::Matrix3d axis;
        for (int i = 0; i < 3; ++i)
            for (int r = 0; r < 3; ++r) axis(r, i) = axes[3 * i + r];
        return fcl::OBB<double>(axis, vec(c), vec(h));
    };
    return obb(a_c, a_axes, a_h).overlap(obb(b_c, b_axes, b_h)) ? 1 : 0;
}
#elif defined(ROW_fcl_aabb_overlap) || defined(ROW_fcl_aabb_part)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) {
#if defined(ROW_fcl_aabb_overlap)
    return "fcl_AABB_overlap";
#else
    return "fcl_AABB_overlap_part";
#endif
}
ISECT_PLUGIN_EXPORT int isect_aabb_aabb_d(const double a_lo[3], const double a_hi[3], const double b_lo[3],
                                          const double b_hi[3], double out_lo[3], double out_hi[3]) {
    const fcl::AABB<double> a(vec(a_lo), vec(a_hi)), b(vec(b_lo), vec(b_hi));
#if defined(ROW_fcl_aabb_overlap)
    (void)out_lo, (void)out_hi;
    return a.overlap(b) ? 1 : 0;
#else
    fcl::AABB<double> part;
    if (!a.overlap(b, part)) return 0;
    for (int i = 0; i < 3; ++i) out_lo[i] = part.min_[i], out_hi[i] = part.max_[i];
    return 1;
#endif
}
#elif defined(ROW_fcl_triangles)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "fcl_Intersect_intersect_Triangle"; }
ISECT_PLUGIN_EXPORT int isect_triangle_triangle_d(const double t1[9], const double t2[9], double seg_p[3], double seg_q[3]) {
    (void)seg_p, (void)seg_q;
    return fcl::detail::Intersect<double>::intersect_Triangle(vec(t1), vec(t1 + 3), vec(t1 + 6), vec(t2), vec(t2 + 3),
                                                               vec(t2 + 6))
               ? 1
               : 0;
}
#elif defined(ROW_fcl_seg_points)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "fcl_TriangleDistance_segPoints"; }
ISECT_PLUGIN_EXPORT int isect_segment_segment(const float p1[3], const float q1[3], const float p2[3], const float q2[3],
                                              float out[9]) {
    fcl::Vector3d between, x, y;
    fcl::detail::TriangleDistance<double>::segPoints(vec(p1), vec(q1) - vec(p1), vec(p2), vec(q2) - vec(p2), between, x, y);
    const double d2 = (x - y).squaredNorm();
    out[0] = float(d2);
    for (int i = 0; i < 3; ++i) out[3 + i] = float(x[i]), out[6 + i] = float(y[i]);
    return d2 == 0 ? 1 : 0;
}
#elif defined(ROW_fcl_sphere_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "fcl_sphereBoxIntersect"; }
ISECT_PLUGIN_EXPORT int isect_sphere_aabb(const float lo[3], const float hi[3], const float c[3], float r, float closest[3],
                                          int* contains) {
    (void)closest, (void)contains;
    const fcl::Vector3d l = vec(lo), h = vec(hi);
    const fcl::Boxd box(h - l);
    fcl::Transform3d at_box = fcl::Transform3d::Identity(), at_sphere = fcl::Transform3d::Identity();
    at_box.translation() = (l + h) / 2;
    at_sphere.translation() = vec(c);
    return fcl::detail::sphereBoxIntersect<double>(fcl::Sphered(r), at_sphere, box, at_box, nullptr) ? 1 : 0;
}
#endif

}  // extern "C"

// --- the input isect found ---
#include <cmath>
#include <cstdio>

int main() {
    const double a_c[3] = {0x0p+0, -0x1p-4, 0x0p+0};  // a.c
    const double a_axes[9] = {0x0p+0, 0x1p+0, 0x0p+0, 0x1p+0, 0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0, 0x1p+0};  // a.axes
    const double a_h[3] = {0x1p-4, 0x1p-4, 0x1p-4};  // a.h
    const double b_c[3] = {0x0p+0, -0x1.000008p-2, 0x0p+0};  // b.c
    const double b_axes[9] = {0x0p+0, 0x1p+0, 0x0p+0, 0x1p+0, 0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0, 0x1p+0};  // b.axes
    const double b_h[3] = {0x1p-3, 0x1p-4, 0x1p-4};  // b.h
    double out[1];
    for (double& x : out) x = NAN;  // what it does not write stays NaN
    const int ret = isect_obb_obb_d(a_c, a_axes, a_h, b_c, b_axes, b_h);
    std::printf("returns %d   (exact: 0, disjoint)\n", ret);
    return ret != 0 ? 1 : 0;
}
