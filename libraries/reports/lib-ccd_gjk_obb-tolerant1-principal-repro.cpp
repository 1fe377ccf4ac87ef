// Reproducer written by `isect report` from lib-ccd_gjk_obb-tolerant1-principal.case.
// libccd 2.1 (libccd-dev 2.1-2+b1), ccdGJKIntersect (boxes): overlap where the exact answer is disjoint (separated by a face axis of a).
// It needs nothing but what the code below includes. Build and run it, for example:
//   g++ -std=c++17 -O2 lib-ccd_gjk_obb-tolerant1-principal-repro.cpp -lccd && ./a.out
// It prints the answer beside the exact one and exits 1 while they differ.
#define ISECT_PLUGIN_EXPORT
#define ISECT_ABI_VERSION 2
#define ROW_ccd_gjk_obb 1

// --- ccd.cpp ---
// libccd 2.1 (Debian's libccd-dev, double), GJK and MPR intersection tests
// on convex shapes given by support functions, as its README shows them
// used: the caller writes the support function, libccd decides. One plugin
// per test:
//   ROW_ccd_gjk_obb      ccdGJKIntersect(box a, box b)   obb_obb
//   ROW_ccd_mpr_obb      ccdMPRIntersect(box a, box b)   obb_obb
//   ROW_ccd_mpr_sphere   ccdMPRIntersect(ball, box)      sphere_aabb, yes/no
// The ccd_t is libccd's CCD_INIT with max_iterations 100, as the README's
// example sets it (CCD_INIT's default is no bound, and GJK can then spin).
// A box's support in direction v is c + sum_i sign(v . a_i) h_i a_i (its
// axes orthonormal: orthonormal_axes); a ball's is c + r v / |v|.
#include <ccd/ccd.h>
#include <ccd/vec3.h>
#include <cmath>

namespace {

struct Box {
    double c[3], axes[9], h[3];
};
struct Ball {
    double c[3], r;
};

void box_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
    const Box& b = *static_cast<const Box*>(obj);
    double p[3] = {b.c[0], b.c[1], b.c[2]};
    for (int i = 0; i < 3; ++i) {
        const double* a = b.axes + 3 * i;
        const double s = a[0] * dir->v[0] + a[1] * dir->v[1] + a[2] * dir->v[2] >= 0 ? b.h[i] : -b.h[i];
        for (int k = 0; k < 3; ++k) p[k] += s * a[k];
    }
    ccdVec3Set(out, p[0], p[1], p[2]);
}
void box_centre(const void* obj, ccd_vec3_t* out) {
    const Box& b = *static_cast<const Box*>(obj);
    ccdVec3Set(out, b.c[0], b.c[1], b.c[2]);
}
void ball_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
    const Ball& b = *static_cast<const Ball*>(obj);
    const double n = std::sqrt(dir->v[0] * dir->v[0] + dir->v[1] * dir->v[1] + dir->v[2] * dir->v[2]);
    const double k = n > 0 ? b.r / n : 0;
    ccdVec3Set(out, b.c[0] + k * dir->v[0], b.c[1] + k * dir->v[1], b.c[2] + k * dir->v[2]);
}
void ball_centre(const void* obj, ccd_vec3_t* out) {
    const Ball& b = *static_cast<const Ball*>(obj);
    ccdVec3Set(out, b.c[0], b.c[1], b.c[2]);
}

ccd_t solver(ccd_support_fn s1, ccd_center_fn c1, ccd_support_fn s2, ccd_center_fn c2) {
    ccd_t ccd;
    CCD_INIT(&ccd);
    ccd.support1 = s1, ccd.center1 = c1, ccd.support2 = s2, ccd.center2 = c2;
    ccd.max_iterations = 100;
    return ccd;
}

Box box_of(const float* c, const float* axes, const float* h) {
    Box b;
    for (int i = 0; i < 3; ++i) b.c[i] = c[i], b.h[i] = h[i];
    for (int i = 0; i < 9; ++i) b.axes[i] = axes[i];
    return b;
}

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_ccd_gjk_obb) || defined(ROW_ccd_mpr_obb)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) {
#if defined(ROW_ccd_gjk_obb)
    return "ccd_ccdGJKIntersect_boxes";
#else
    return "ccd_ccdMPRIntersect_boxes";
#endif
}
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "orthonormal_axes"; }
ISECT_PLUGIN_EXPORT int isect_obb_obb(const float a_c[3], const float a_axes[9], const float a_h[3], const float b_c[3],
                                      const float b_axes[9], const float b_h[3]) {
    const Box a = box_of(a_c, a_axes, a_h), b = box_of(b_c, b_axes, b_h);
    const ccd_t ccd = solver(box_support, box_centre, box_support, box_centre);
#if defined(ROW_ccd_gjk_obb)
    return ccdGJKIntersect(&a, &b, &ccd) ? 1 : 0;
#else
    return ccdMPRIntersect(&a, &b, &ccd) ? 1 : 0;
#endif
}
#elif defined(ROW_ccd_mpr_sphere)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ccd_ccdMPRIntersect_ball_box"; }
ISECT_PLUGIN_EXPORT int isect_sphere_aabb(const float lo[3], const float hi[3], const float c[3], float r, float closest[3],
                                          int* contains) {
    (void)closest, (void)contains;
    // The box as centre, axes and half sides, formed in double from floats
    // (exact inside the row's --domain 2^-10:2^10).
    Box box{};
    for (int i = 0; i < 3; ++i) {
        box.c[i] = (double(lo[i]) + hi[i]) / 2;
        box.h[i] = (double(hi[i]) - lo[i]) / 2;
        box.axes[4 * i] = 1;
    }
    const Ball ball{{c[0], c[1], c[2]}, r};
    const ccd_t ccd = solver(ball_support, ball_centre, box_support, box_centre);
    return ccdMPRIntersect(&ball, &box, &ccd) ? 1 : 0;
}
#endif

}  // extern "C"

// --- the input isect found ---
#include <cmath>
#include <cstdio>

int main() {
    const float a_c[3] = {0x0p+0f, 0x0p+0f, 0x0p+0f};  // a.c
    const float a_axes[9] = {0x1p+0f, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f};  // a.axes
    const float a_h[3] = {0x1p-16f, 0x1p-16f, 0x1p-16f};  // a.h
    const float b_c[3] = {0x1p-14f, 0x0p+0f, 0x0p+0f};  // b.c
    const float b_axes[9] = {0x1p+0f, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f, 0x0p+0f, 0x0p+0f, 0x0p+0f, -0x1p+0f};  // b.axes
    const float b_h[3] = {0x1p-16f, 0x1p-16f, 0x1p-16f};  // b.h
    float out[1];
    for (float& x : out) x = NAN;  // what it does not write stays NaN
    const int ret = isect_obb_obb(a_c, a_axes, a_h, b_c, b_axes, b_h);
    std::printf("returns %d   (exact: 0, disjoint)\n", ret);
    return ret != 0 ? 1 : 0;
}
