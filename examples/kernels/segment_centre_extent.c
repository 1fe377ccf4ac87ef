/* Segment vs box by slabs about the box's centre, in the manner of Bullet's
 * btRayAabb: the box as a centre and half extents, the segment's start and
 * end relative to the centre, each slab's crossing as (-s - h) / r. Where
 * the start lies on a face, the exact entry is 0 and this computes it from
 * a rounded centre and half extent: a t of about 2^-24 rather than 0. That
 * is one rounding of the inputs, inside what moving them by an ulp does to
 * t, so it holds tolerant with E = 2: its numbers are judged against their
 * condition, not against |t| (tests/domain_test.sh).
 */
#include <math.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "segment_centre_extent"; }

int isect_segment_aabb(const float org[3], const float delta[3], const float lo[3], const float hi[3],
                       float* t_enter, float* t_exit, float normal[3]) {
    float enter = 0, exit = 1;
    int axis = -1;
    for (int i = 0; i < 3; ++i) {
        const float h = (hi[i] - lo[i]) * 0.5f, c = (hi[i] + lo[i]) * 0.5f;
        const float s = org[i] - c;
        if (delta[i] == 0) {
            if (s < -h || s > h) return 0;
            continue;
        }
        const float sign = delta[i] > 0 ? 1.0f : -1.0f;
        const float near = (-s - h * sign) / delta[i], far = (-s + h * sign) / delta[i];
        if (near > enter) {
            enter = near;
            axis = i;
        }
        if (far < exit) exit = far;
    }
    if (enter > exit) return 0;
    *t_enter = enter;
    *t_exit = exit;
    for (int i = 0; i < 3; ++i) normal[i] = 0;
    if (axis >= 0) normal[axis] = delta[axis] > 0 ? -1.0f : 1.0f;
    return 1;
}
