// Specimen: seed 001's triangle and polygon helpers, ported faithfully in
// float:
//   area |e1 x e2| / 2; barycentrics by signed areas (cross products dotted
//   with the normal, as the text describes); the circumcentre and radius of
//   caculateOutHeart, with its d3 as written (e3.z where e2.z is meant);
//   the distance q . n - d with the unnormalised n = e1 x e2; Newell's
//   normal, d as the average of p . n, and convexity by the sum of the
//   exterior angles (2 pi for a convex polygon; the text gives no tolerance,
//   so this port allows 1e-3). The seed has no notion of a degenerate
//   triangle: every triangle is "proper" here.
#include <cmath>

#include "isect/plugin.h"

namespace {

struct V {
    float x, y, z;
};
V sub(const float* a, const float* b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
V sub(V a, V b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V cross(V a, V b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
float dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V at(const float* p) { return {p[0], p[1], p[2]}; }

void caculateOutHeart(V v1, V v2, V v3, float& returnRadius, V& returnG) {
    const V e1 = sub(v3, v2), e2 = sub(v1, v3), e3 = sub(v2, v1);
    const float d1 = -(e2.x * e3.x + e2.y * e3.y + e2.z * e3.z);
    const float d2 = -(e3.x * e1.x + e3.y * e1.y + e3.z * e1.z);
    const float d3 = -(e1.x * e2.x + e1.y * e2.y + e1.z * e3.z);
    const float c1 = d2 * d3, c2 = d1 * d3, c3 = d1 * d2;
    const float c = c1 + c2 + c3, cc = 2 * c;
    returnG = {(c2 + c3) / cc, (c1 + c3) / cc, (c1 + c2) / cc};
    returnRadius = 0.5f * std::sqrt((d1 + d2) * (d2 + d3) * (d3 + d1) / c);
}

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "seed001_triangle"; }

ISECT_PLUGIN_EXPORT int isect_triangle_measures(const float tri[9], const float p[3], float out[8]) {
    const V a = at(tri), b = at(tri + 3), c = at(tri + 6), q = at(p);
    const V e1 = sub(b, a), e2 = sub(c, a);
    const V n = cross(e1, e2);
    const float nn = dot(n, n);
    out[0] = 0.5f * std::sqrt(nn);
    // Barycentrics: sub-triangle areas over the whole, signed along n.
    out[1] = dot(cross(sub(q, a), e2), n) / nn;
    out[2] = dot(cross(e1, sub(q, a)), n) / nn;
    float radius;
    V g;
    caculateOutHeart(a, b, c, radius, g);
    out[3] = g.x * a.x + g.y * b.x + g.z * c.x;
    out[4] = g.x * a.y + g.y * b.y + g.z * c.y;
    out[5] = g.x * a.z + g.y * b.z + g.z * c.z;
    out[6] = radius;
    out[7] = dot(q, n) - dot(a, n);  // q . n - d, n not unit
    return 1;
}

ISECT_PLUGIN_EXPORT int isect_polygon_measures(const float poly[15], const float q[3], float out[5]) {
    const int k = 5;
    V n{0, 0, 0};
    for (int i = 0; i < k; ++i) {
        const float* p1 = poly + 3 * i;
        const float* p2 = poly + 3 * ((i + 1) % k);
        n.x += (p1[2] + p2[2]) * (p1[1] - p2[1]);
        n.y += (p1[0] + p2[0]) * (p1[2] - p2[2]);
        n.z += (p1[1] + p2[1]) * (p1[0] - p2[0]);
    }
    float d = 0;
    for (int i = 0; i < k; ++i) d += dot(at(poly + 3 * i), n);
    d /= k;
    out[0] = n.x, out[1] = n.y, out[2] = n.z, out[3] = d;
    out[4] = dot(at(q), n) - d;
    // Convex iff the exterior angles sum to 2 pi.
    float sum = 0;
    for (int i = 0; i < k; ++i) {
        const V e0 = sub(poly + 3 * ((i + 1) % k), poly + 3 * i);
        const V e1 = sub(poly + 3 * ((i + 2) % k), poly + 3 * ((i + 1) % k));
        sum += std::acos(dot(e0, e1) / std::sqrt(dot(e0, e0) * dot(e1, e1)));
    }
    return std::fabs(sum - 2 * 3.14159265f) < 1e-3f;
}

}  // extern "C"
