// Reproducer written by `isect report` from lib-embree_robust-tolerant1-1.case.
// Embree 3 (libembree-dev 3.13.5+dfsg-2), rtcIntersect1, RTC_SCENE_FLAG_ROBUST: v is -0 where the exact value is 1 (at a vertex).
// It needs nothing but what the code below includes. Build and run it, for example:
//   g++ -std=c++17 -O2 lib-embree_robust-tolerant1-1-repro.cpp -lembree3 && ./a.out
// It prints the answer beside the exact one and exits 1 while they differ.
#define ISECT_PLUGIN_EXPORT
#define ISECT_ABI_VERSION 2
#define ROW_embree_robust 1

// --- embree.cpp ---
// Embree 3 (Debian's libembree-dev), as a renderer calls it: a scene of one
// triangle, rtcIntersect1 on one ray. Built twice: the default scene
// (ROW_embree_intersect1) and RTC_SCENE_FLAG_ROBUST (ROW_embree_robust),
// which Embree documents as "avoid optimizations that reduce arithmetic
// accuracy". Nothing of Embree's is copied: it is called as it ships.
//
// Conventions (Embree 3 manual, RTCRay and RTC_GEOMETRY_TYPE_TRIANGLE): a
// hit is a t in [tnear, tfar] (here [0, tmax]); u and v are the barycentrics
// of v1 and v2, isect's u (of b) and v (of c); triangles are two-sided unless
// Embree is built with EMBREE_BACKFACE_CULLING, which Debian's is not; the
// direction need not be normalised. Preconditions: "the ray direction and
// origin must be finite" and rays with a zero direction or degenerate
// triangles are not documented as handled, so the wrapper declares
// nonzero_direction and proper_triangle. Embree is written for float
// coordinates of ordinary magnitudes: the table's row gives --domain.
#include <embree3/rtcore.h>
#include <cmath>

namespace {

struct Scene {
    RTCDevice device = rtcNewDevice(nullptr);
    RTCScene scene = rtcNewScene(device);
    RTCGeometry triangle = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
    float* vertices = nullptr;
    Scene() {
#if defined(ROW_embree_robust)
        rtcSetSceneFlags(scene, RTC_SCENE_FLAG_ROBUST);
#endif
        vertices = static_cast<float*>(
            rtcSetNewGeometryBuffer(triangle, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float), 3));
        auto* index = static_cast<unsigned*>(
            rtcSetNewGeometryBuffer(triangle, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(unsigned), 1));
        index[0] = 0, index[1] = 1, index[2] = 2;
        rtcAttachGeometry(scene, triangle);
    }
};

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) {
#if defined(ROW_embree_robust)
    return "embree_robust";
#else
    return "embree_intersect1";
#endif
}
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "nonzero_direction,proper_triangle"; }

ISECT_PLUGIN_EXPORT int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9], float* t,
                                           float* u, float* v) {
    static Scene s;  // the worker process keeps one scene; each call rebuilds it
    for (int i = 0; i < 9; ++i) s.vertices[i] = tri[i];
    rtcUpdateGeometryBuffer(s.triangle, RTC_BUFFER_TYPE_VERTEX, 0);
    rtcCommitGeometry(s.triangle);
    rtcCommitScene(s.scene);
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    RTCRayHit rh{};
    rh.ray.org_x = org[0], rh.ray.org_y = org[1], rh.ray.org_z = org[2];
    rh.ray.dir_x = dir[0], rh.ray.dir_y = dir[1], rh.ray.dir_z = dir[2];
    rh.ray.tnear = 0;
    rh.ray.tfar = tmax;
    rh.ray.mask = ~0u;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(s.scene, &context, &rh);
    if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID) return 0;
    *t = rh.ray.tfar;
    *u = rh.hit.u;
    *v = rh.hit.v;
    return 1;
}

}  // extern "C"

// --- the input isect found ---
#include <cmath>
#include <cstdio>

int main() {
    const float org[3] = {0x0p+0f, 0x1p-19f, 0x1.fp-19f};  // org
    const float dir[3] = {0x1p-19f, 0x0p+0f, 0x0p+0f};  // dir
    const float tmax = INFINITY;  // tmax
    const float tri[9] = {0x0p+0f, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p-19f, 0x1p-18f, 0x0p+0f, 0x1p-19f, 0x1.fp-19f};  // tri
    float out[3];
    for (float& x : out) x = NAN;  // what it does not write stays NaN
    const int ret = isect_ray_triangle(org, dir, tmax, tri, &out[0], &out[1], &out[2]);
    std::printf("returns %d   (exact: 1, hit)\n", ret);
    const char* const name[] = {"t", "u", "v"};
    const double exact[] = {0x0p+0, 0x0p+0, 0x1p+0};
    for (int i = 0; i < 3; ++i)
        if (!std::isnan(out[i])) std::printf("%-12s %.9g   (exact %.17g)\n", name[i], double(out[i]), exact[i]);
    std::printf("allowed for v: %.3g (16 x u S)\n", 0x1.a896c57ecef15p-11);
    return ret != 1 || !(std::fabs(double(out[2]) - exact[2]) <= 0x1.a896c57ecef15p-11) ? 1 : 0;
}
