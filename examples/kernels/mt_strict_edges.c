/* Möller-Trumbore in float with strict edge tests (u > 0, v > 0, u + v < 1),
 * as code that means to leave the edges to the neighbour writes it. A ray
 * exactly through an edge two triangles share then misses both: a leak.
 * Every such miss is a hit on the triangle's boundary, inside the band of
 * tolerant=1, so no contract catches it; `--relation watertight` does
 * (tests/relations_test.sh).
 */
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "mt_strict_edges"; }

int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9], float* t, float* u,
                       float* v) {
    const float e1[3] = {tri[3] - tri[0], tri[4] - tri[1], tri[5] - tri[2]};
    const float e2[3] = {tri[6] - tri[0], tri[7] - tri[1], tri[8] - tri[2]};
    const float p[3] = {dir[1] * e2[2] - dir[2] * e2[1], dir[2] * e2[0] - dir[0] * e2[2], dir[0] * e2[1] - dir[1] * e2[0]};
    float det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    float s[3] = {org[0] - tri[0], org[1] - tri[1], org[2] - tri[2]};
    if (det < 0) {
        det = -det;
        s[0] = -s[0];
        s[1] = -s[1];
        s[2] = -s[2];
    }
    if (!(det > 0)) return 0;
    const float uu = s[0] * p[0] + s[1] * p[1] + s[2] * p[2];
    if (uu <= 0 || uu >= det) return 0;
    const float q[3] = {s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]};
    const float vv = dir[0] * q[0] + dir[1] * q[1] + dir[2] * q[2];
    if (vv <= 0 || uu + vv >= det) return 0;
    const float tt = e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2];
    if (tt < 0 || tt > tmax * det) return 0;
    *t = tt / det;
    *u = uu / det;
    *v = vv / det;
    return 1;
}
