// Reproducer written by `isect report` from lib-ode_box_box-tolerant1-1.case.
// ODE 0.16 (libode-dev 2:0.16.2-1), dCollide(box, box): disjoint where the exact answer is overlap (overlapping).
// It needs nothing but what the code below includes. Build and run it, for example:
//   g++ -std=c++17 -O2 lib-ode_box_box-tolerant1-1-repro.cpp -lode && ./a.out
// It prints the answer beside the exact one and exits 1 while they differ.
#define ISECT_PLUGIN_EXPORT
#define ISECT_ABI_VERSION 2
#define ROW_ode_box_box 1

// --- ode.cpp ---
// ODE 0.16 (Debian's libode-dev, double precision), dCollide on geoms, as a
// simulation calls it. One plugin per pair:
//   ROW_ode_ray_sphere   dCollide(ray, sphere)   ray_sphere (contact depth: t_enter)
//   ROW_ode_ray_box      dCollide(ray, box)      ray_aabb, yes/no
//   ROW_ode_sphere_box   dCollide(sphere, box)   sphere_aabb, yes/no
//   ROW_ode_box_box      dCollide(box, box)      obb_obb
// A ray geom is a start, a direction ODE normalises (unit_direction) and a
// length (tmax; dInfinity for ray_aabb's unbounded ray). A sphere geom of
// radius 0 aborts in ODE's own checks (positive_radius). ODE's ray against a
// sphere from inside it reports the exit (convention surface). A box geom
// is centred, with side lengths and a rotation whose columns are its axes:
// an axis-aligned box's centre (lo + hi) / 2 and sides hi - lo are formed
// in double from floats, exact inside the rows' --domain 2^-10:2^10; an
// oriented box's sides are 2 h, exactly (orthonormal_axes). A contact
// count above 0 is a meeting.
#include <ode/ode.h>
#include <cmath>

namespace {

struct Ode {
    Ode() { dInitODE2(0); }
};

void place_box(dGeomID g, const float* lo, const float* hi) {
    dGeomBoxSetLengths(g, dReal(hi[0]) - lo[0], dReal(hi[1]) - lo[1], dReal(hi[2]) - lo[2]);
    dGeomSetPosition(g, (dReal(lo[0]) + hi[0]) / 2, (dReal(lo[1]) + hi[1]) / 2, (dReal(lo[2]) + hi[2]) / 2);
}

int contacts(dGeomID a, dGeomID b, dContactGeom* first) {
    dContactGeom c[8];
    const int n = dCollide(a, b, 8, c, sizeof(dContactGeom));
    if (n > 0 && first) *first = c[0];
    return n;
}

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_ode_ray_sphere)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ode_dCollide_ray_sphere"; }
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "unit_direction,positive_radius"; }
ISECT_PLUGIN_EXPORT const char* isect_conventions(void) { return "surface"; }
ISECT_PLUGIN_EXPORT int isect_ray_sphere(const float org[3], const float dir[3], float tmax, const float c[3], float r,
                                         float* t_enter, float* t_exit) {
    (void)t_exit;
    static Ode ode;
    static dGeomID ray = dCreateRay(nullptr, 1), sphere = dCreateSphere(nullptr, 1);
    dGeomRaySetLength(ray, std::isinf(tmax) ? dInfinity : tmax);
    dGeomRaySet(ray, org[0], org[1], org[2], dir[0], dir[1], dir[2]);
    dGeomSphereSetRadius(sphere, r);
    dGeomSetPosition(sphere, c[0], c[1], c[2]);
    dContactGeom hit;
    if (contacts(ray, sphere, &hit) == 0) return 0;
    *t_enter = float(hit.depth);
    return 1;
}
#elif defined(ROW_ode_ray_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ode_dCollide_ray_box"; }
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "unit_direction"; }
ISECT_PLUGIN_EXPORT int isect_ray_aabb(const float org[3], const float dir[3], const float lo[3], const float hi[3],
                                       float* t_enter, float* t_exit, float normal[3]) {
    (void)t_enter, (void)t_exit, (void)normal;
    static Ode ode;
    static dGeomID ray = dCreateRay(nullptr, dInfinity), box = dCreateBox(nullptr, 1, 1, 1);
    dGeomRaySet(ray, org[0], org[1], org[2], dir[0], dir[1], dir[2]);
    place_box(box, lo, hi);
    return contacts(ray, box, nullptr) > 0 ? 1 : 0;
}
#elif defined(ROW_ode_sphere_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ode_dCollide_sphere_box"; }
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "positive_radius"; }
ISECT_PLUGIN_EXPORT int isect_sphere_aabb(const float lo[3], const float hi[3], const float c[3], float r, float closest[3],
                                          int* contains) {
    (void)closest, (void)contains;
    static Ode ode;
    static dGeomID sphere = dCreateSphere(nullptr, 1), box = dCreateBox(nullptr, 1, 1, 1);
    dGeomSphereSetRadius(sphere, r);
    dGeomSetPosition(sphere, c[0], c[1], c[2]);
    place_box(box, lo, hi);
    return contacts(sphere, box, nullptr) > 0 ? 1 : 0;
}
#elif defined(ROW_ode_box_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ode_dCollide_box_box"; }
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "orthonormal_axes"; }
ISECT_PLUGIN_EXPORT int isect_obb_obb(const float a_c[3], const float a_axes[9], const float a_h[3], const float b_c[3],
                                      const float b_axes[9], const float b_h[3]) {
    static Ode ode;
    static dGeomID a = dCreateBox(nullptr, 1, 1, 1), b = dCreateBox(nullptr, 1, 1, 1);
    const auto place = [](dGeomID g, const float* c, const float* axes, const float* h) {
        dGeomBoxSetLengths(g, 2 * dReal(h[0]), 2 * dReal(h[1]), 2 * dReal(h[2]));
        dGeomSetPosition(g, c[0], c[1], c[2]);
        dMatrix3 rot = {0};
        for (int r = 0; r < 3; ++r)
            for (int i = 0; i < 3; ++i) rot[4 * r + i] = axes[3 * i + r];
        dGeomSetRotation(g, rot);
    };
    place(a, a_c, a_axes, a_h);
    place(b, b_c, b_axes, b_h);
    return contacts(a, b, nullptr) > 0 ? 1 : 0;
}
#endif

}  // extern "C"

// --- the input isect found ---
#include <cmath>
#include <cstdio>

int main() {
    const float a_c[3] = {0x0p+0f, 0x0p+0f, 0x1p+2f};  // a.c
    const float a_axes[9] = {-0x1.99998p-1f, -0x1.33338p-1f, 0x0p+0f, 0x1.33334p-1f, -0x1.99998p-1f, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f};  // a.axes
    const float a_h[3] = {0x1p-1f, 0x1p-1f, 0x1.8p+1f};  // a.h
    const float b_c[3] = {0x0p+0f, 0x0p+0f, 0x1p-1f};  // b.c
    const float b_axes[9] = {-0x1.99998p-1f, -0x1.33334p-1f, 0x0p+0f, 0x1.33334p-1f, -0x1.99998p-1f, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f};  // b.axes
    const float b_h[3] = {0x1p-1f, 0x1p-1f, 0x1p+0f};  // b.h
    float out[1];
    for (float& x : out) x = NAN;  // what it does not write stays NaN
    const int ret = isect_obb_obb(a_c, a_axes, a_h, b_c, b_axes, b_h);
    std::printf("returns %d   (exact: 1, overlap)\n", ret);
    return ret != 1 ? 1 : 0;
}
