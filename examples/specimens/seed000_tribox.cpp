// Specimen: seed 000's C++ box-triangle test (IntersectAABBWithTriangle),
// ported faithfully with glm's operations written out in float: the box as
// centre and size, both moved to the origin, 13 axes each normalised (a
// zero axis becomes NaN and then never separates), the triangle normal from
// normalize(cross(p2 - p1, p3 - p1)), strict comparisons (touching meets).
// Do not fix it: isect check reports what it gets wrong.
#include <cmath>

#include "isect/plugin.h"

namespace {

struct V {
    float x, y, z;
};
V sub(V a, V b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V cross(V a, V b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
float dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V normalize(V a) {
    const float l = 1.0f / std::sqrt(dot(a, a));  // glm: v * inversesqrt(dot(v, v))
    return {a.x * l, a.y * l, a.z * l};
}

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "seed000_tribox"; }

ISECT_PLUGIN_EXPORT int isect_aabb_triangle(const float lo[3], const float hi[3], const float tri[9]) {
    // The seed's AABB is a centre and a size.
    const V center{(lo[0] + hi[0]) * 0.5f, (lo[1] + hi[1]) * 0.5f, (lo[2] + hi[2]) * 0.5f};
    const V size{hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    // Move the triangle with the box to the origin (glm::translate by -center).
    const V p1 = sub(V{tri[0], tri[1], tri[2]}, center);
    const V p2 = sub(V{tri[3], tri[4], tri[5]}, center);
    const V p3 = sub(V{tri[6], tri[7], tri[8]}, center);
    const V normal = normalize(cross(sub(p2, p1), sub(p3, p1)));
    const V axes_box[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const V edges[3] = {sub(p2, p1), sub(p3, p2), sub(p1, p3)};
    V axes[13];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) axes[i * 3 + j] = normalize(cross(axes_box[i], edges[j]));
    axes[9] = normal;
    for (int i = 0; i < 3; ++i) axes[10 + i] = axes_box[i];
    const V half{0.5f * size.x, 0.5f * size.y, 0.5f * size.z};
    for (const V& it : axes) {
        const float a = dot(it, p1), b = dot(it, p2), c = dot(it, p3);
        const float r = half.x * std::abs(dot(axes_box[0], it)) + half.y * std::abs(dot(axes_box[1], it)) +
                        half.z * std::abs(dot(axes_box[2], it));
        const float min_p = std::min(std::min(a, b), c), max_p = std::max(std::max(a, b), c);
        if (min_p > r || max_p < -r) return 0;
    }
    return 1;
}

}  // extern "C"
