// Reproducer written by `isect report` from lib-irrlicht_triangle_box-tolerant1-principal.case.
// Irrlicht 1.8 (libirrlicht-dev 1.8.5+ds2-1), triangle3d::isTotalOutsideBox: overlap where the exact answer is disjoint (separated by an edge axis (box direction x triangle edge)).
// It needs nothing but what the code below includes. Build and run it, for example:
//   g++ -std=c++17 -O2 lib-irrlicht_triangle_box-tolerant1-principal-repro.cpp && ./a.out
// It prints the answer beside the exact one and exits 1 while they differ.
#define ISECT_PLUGIN_EXPORT
#define ISECT_ABI_VERSION 2
#define ROW_irrlicht_triangle_box 1

// --- irrlicht.cpp ---
// Irrlicht 1.8 (Debian's libirrlicht-dev), core::aabbox3df, plane3df and
// triangle3df, called as they ship (inline templates in the package's
// headers). One plugin per function:
//   ROW_irrlicht_box_box        aabbox3df::intersectsWithBox(other)              aabb_aabb, yes/no
//   ROW_irrlicht_plane_relation aabbox3df::classifyPlaneRelation(plane3df(n, -d)) aabb_plane
//   ROW_irrlicht_triangle_box   !triangle3df::isTotalOutsideBox(box)             aabb_triangle
// plane3df(normal, D) is normal . x + D = 0, so isect's n . x = d is
// plane3df(n, -d), exactly. classifyPlaneRelation's answers map to
// aabb_plane's: ISREL3D_FRONT 1, ISREL3D_BACK -1, ISREL3D_CLIPPED 0.
// isTotalOutsideBox is documented as "true if triangle is outside the
// box": the wrapper answers meet when it is false.
#include <irrlicht/aabbox3d.h>
#include <irrlicht/plane3d.h>
#include <irrlicht/triangle3d.h>

namespace {
using namespace irr::core;
vector3df vec(const float* p) { return vector3df(p[0], p[1], p[2]); }
aabbox3df box(const float* lo, const float* hi) { return aabbox3df(vec(lo), vec(hi)); }
}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_irrlicht_box_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "irrlicht_aabbox3d_intersectsWithBox"; }
ISECT_PLUGIN_EXPORT int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                                        float out_lo[3], float out_hi[3]) {
    (void)out_lo, (void)out_hi;
    return box(a_lo, a_hi).intersectsWithBox(box(b_lo, b_hi)) ? 1 : 0;
}
#elif defined(ROW_irrlicht_plane_relation)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "irrlicht_aabbox3d_classifyPlaneRelation"; }
ISECT_PLUGIN_EXPORT int isect_aabb_plane(const float lo[3], const float hi[3], const float n[3], float d) {
    switch (box(lo, hi).classifyPlaneRelation(plane3df(vec(n), -d))) {
        case ISREL3D_FRONT: return 1;
        case ISREL3D_BACK: return -1;
        default: return 0;
    }
}
#elif defined(ROW_irrlicht_triangle_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "irrlicht_triangle3d_isTotalOutsideBox"; }
ISECT_PLUGIN_EXPORT int isect_aabb_triangle(const float lo[3], const float hi[3], const float tri[9]) {
    return triangle3df(vec(tri), vec(tri + 3), vec(tri + 6)).isTotalOutsideBox(box(lo, hi)) ? 0 : 1;
}
#endif

}  // extern "C"

// --- the input isect found ---
#include <cmath>
#include <cstdio>

int main() {
    const float box_lo[3] = {0x0p+0f, 0x0p+0f, 0x0p+0f};  // box.lo
    const float box_hi[3] = {0x1p+0f, 0x1p+0f, 0x1p+0f};  // box.hi
    const float tri[9] = {0x0p+0f, 0x0p+0f, -0x1p+0f, 0x1p+0f, 0x0p+0f, -0x1p+0f, -0x1p+0f, 0x0p+0f, 0x0p+0f};  // tri
    float out[1];
    for (float& x : out) x = NAN;  // what it does not write stays NaN
    const int ret = isect_aabb_triangle(box_lo, box_hi, tri);
    std::printf("returns %d   (exact: 0, disjoint)\n", ret);
    return ret != 0 ? 1 : 0;
}
