// Reproducer written by `isect report` from lib-eigen_transform-tolerant1-1.case.
// Eigen 3.4 (libeigen3-dev 3.4.0-4), AlignedBox::transform(Affine3f): box.lo.y is -0.125 where the exact value is -0.12500001.
// It needs nothing but what the code below includes. Build and run it, for example:
//   g++ -std=c++17 -O2 lib-eigen_transform-tolerant1-1-repro.cpp -I/usr/include/eigen3 && ./a.out
// It prints the answer beside the exact one and exits 1 while they differ.
#define ISECT_PLUGIN_EXPORT
#define ISECT_ABI_VERSION 2
#define ROW_eigen_transform 1

// --- eigen.cpp ---
// Eigen 3.4 (Debian's libeigen3-dev), Geometry/AlignedBox, called as it
// ships, on AlignedBox3f (floats, as a renderer or a physics engine keeps
// its bounds). One plugin per function:
//   ROW_eigen_intersects    a.intersects(b)                              aabb_aabb, yes/no
//   ROW_eigen_intersection  a.intersection(b), met when !isEmpty()       aabb_aabb, the box
//   ROW_eigen_transform     box.transform(Affine3f)                      transformed_aabb
//   ROW_eigen_sphere        box.squaredExteriorDistance(c) <= r * r,
//                           box.contains(c)                              sphere_aabb (yes/no, contains)
// AlignedBox is closed: intersects() compares with <=, and isEmpty() is
// "some min > max", so touching boxes meet. The sphere row is how a caller
// tests a ball with Eigen (there is no ball type); the nearest point is not
// Eigen's to give, so it is left unwritten and not judged.
#include <Eigen/Geometry>

namespace {
Eigen::Vector3f vec(const float* p) { return {p[0], p[1], p[2]}; }
Eigen::AlignedBox3f box(const float* lo, const float* hi) { return Eigen::AlignedBox3f(vec(lo), vec(hi)); }
void put(const Eigen::Vector3f& v, float* out) { out[0] = v.x(), out[1] = v.y(), out[2] = v.z(); }
}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_eigen_intersects) || defined(ROW_eigen_intersection)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) {
#if defined(ROW_eigen_intersects)
    return "eigen_AlignedBox_intersects";
#else
    return "eigen_AlignedBox_intersection";
#endif
}
ISECT_PLUGIN_EXPORT int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                                        float out_lo[3], float out_hi[3]) {
#if defined(ROW_eigen_intersects)
    (void)out_lo, (void)out_hi;
    return box(a_lo, a_hi).intersects(box(b_lo, b_hi)) ? 1 : 0;
#else
    const Eigen::AlignedBox3f i = box(a_lo, a_hi).intersection(box(b_lo, b_hi));
    if (i.isEmpty()) return 0;
    put(i.min(), out_lo);
    put(i.max(), out_hi);
    return 1;
#endif
}
#elif defined(ROW_eigen_transform)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "eigen_AlignedBox_transform"; }
ISECT_PLUGIN_EXPORT void isect_transformed_aabb(const float lo[3], const float hi[3], const float m[9], const float t[3],
                                                float out_lo[3], float out_hi[3]) {
    Eigen::Affine3f a = Eigen::Affine3f::Identity();
    a.linear() << m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8];
    a.translation() = vec(t);
    Eigen::AlignedBox3f b = box(lo, hi);
    b.transform(a);
    put(b.min(), out_lo);
    put(b.max(), out_hi);
}
#elif defined(ROW_eigen_sphere)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "eigen_AlignedBox_squaredExteriorDistance"; }
ISECT_PLUGIN_EXPORT int isect_sphere_aabb(const float lo[3], const float hi[3], const float c[3], float r, float closest[3],
                                          int* contains) {
    (void)closest;
    const Eigen::AlignedBox3f b = box(lo, hi);
    *contains = b.contains(vec(c)) ? 1 : 0;
    return b.squaredExteriorDistance(vec(c)) <= r * r ? 1 : 0;
}
#endif

}  // extern "C"

// --- the input isect found ---
#include <cmath>
#include <cstdio>

int main() {
    const float box_lo[3] = {0x0p+0f, 0x0p+0f, 0x0p+0f};  // box.lo
    const float box_hi[3] = {0x1p-14f, 0x1p-12f, 0x1p-14f};  // box.hi
    const float m[9] = {0x0p+0f, 0x0p+0f, 0x0p+0f, 0x0p+0f, -0x1p-14f, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x0p+0f};  // m
    const float t[3] = {0x0p+0f, -0x1p-3f, 0x0p+0f};  // t
    float out[6];
    for (float& x : out) x = NAN;  // what it does not write stays NaN
    isect_transformed_aabb(box_lo, box_hi, m, t, out, out + 3);
    const char* const name[] = {"box.lo.x", "box.lo.y", "box.lo.z", "box.hi.x", "box.hi.y", "box.hi.z"};
    const double exact[] = {0x0p+0, -0x1.000002p-3, 0x0p+0, 0x0p+0, -0x1p-3, 0x0p+0};
    for (int i = 0; i < 6; ++i)
        if (!std::isnan(out[i])) std::printf("%-12s %.9g   (exact %.17g)\n", name[i], double(out[i]), exact[i]);
    std::printf("box.lo.y may cut the exact box by %.3g (the band of tolerant=1)\n", 0x1.0004030017ffap-27);
    return false || double(out[1]) - exact[1] > 0x1.0004030017ffap-27 ? 1 : 0;
}
