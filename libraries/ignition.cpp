// Ignition Math 6 (Debian's libignition-math-dev, the library gz-math
// continues), called as it ships, in double (its Vector3d and
// AxisAlignedBox): the double entries (--precision double). One plugin per
// function:
//   ROW_ignition_box_box    AxisAlignedBox::Intersects(AxisAlignedBox)            aabb_aabb, yes/no
//   ROW_ignition_plane_box  Planed::Side(AxisAlignedBox)                          aabb_plane
//   ROW_ignition_segment_box  AxisAlignedBox::Intersect(Line3d)                   segment_aabb, yes/no
// A box is AxisAlignedBox(min, max). Planed(normal, offset) is isect's
// n . x = d as it is (Distance(p) = n . p - offset), its POSITIVE_SIDE
// isect's front (1); Side forms the box's centre and size itself and calls a
// box that touches the plane BOTH_SIDE (touching_straddles). Its ray tests
// (IntersectCheck(origin, dir, min, max)) clip the segment from
// origin + min dir to origin + max dir, so they take no unbounded ray; the
// segment test takes a Line3d of two points: the wrapper forms the end
// org + delta in double from floats (a float entry), exact inside the row's
// --domain 2^-10:2^10, as OpenSceneGraph's segment rows do.
#include <ignition/math/AxisAlignedBox.hh>
#include <ignition/math/Line3.hh>
#include <ignition/math/Plane.hh>
#include <ignition/math/Vector3.hh>
#include <tuple>
#include "isect/plugin.h"

namespace {

ignition::math::Vector3d v(const double* p) { return ignition::math::Vector3d(p[0], p[1], p[2]); }
ignition::math::AxisAlignedBox box(const double* lo, const double* hi) { return ignition::math::AxisAlignedBox(v(lo), v(hi)); }

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_ignition_box_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ignition_AxisAlignedBox_Intersects"; }
ISECT_PLUGIN_EXPORT int isect_aabb_aabb_d(const double a_lo[3], const double a_hi[3], const double b_lo[3],
                                          const double b_hi[3], double out_lo[3], double out_hi[3]) {
    (void)out_lo, (void)out_hi;  // a yes/no
    return box(a_lo, a_hi).Intersects(box(b_lo, b_hi)) ? 1 : 0;
}
#elif defined(ROW_ignition_plane_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ignition_Planed_Side_AxisAlignedBox"; }
ISECT_PLUGIN_EXPORT const char* isect_conventions(void) { return "touching_straddles"; }
ISECT_PLUGIN_EXPORT int isect_aabb_plane_d(const double lo[3], const double hi[3], const double n[3], double d) {
    const ignition::math::Planed plane(v(n), d);
    switch (plane.Side(box(lo, hi))) {
        case ignition::math::Planed::POSITIVE_SIDE: return 1;
        case ignition::math::Planed::NEGATIVE_SIDE: return -1;
        case ignition::math::Planed::BOTH_SIDE: return 0;
        default: return 2;  // NO_SIDE, which a box never is (isect reports it as garbage)
    }
}
#elif defined(ROW_ignition_segment_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "ignition_AxisAlignedBox_Intersect_Line3d"; }
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "nonzero_direction"; }
ISECT_PLUGIN_EXPORT int isect_segment_aabb(const float org[3], const float delta[3], const float lo[3], const float hi[3],
                                           float* t_enter, float* t_exit, float normal[3]) {
    (void)t_enter, (void)t_exit, (void)normal;  // a yes/no (its distance is along the segment, not its parameter)
    const double o[3] = {org[0], org[1], org[2]}, q[3] = {double(org[0]) + delta[0], double(org[1]) + delta[1],
                                                          double(org[2]) + delta[2]};
    const double l[3] = {lo[0], lo[1], lo[2]}, h[3] = {hi[0], hi[1], hi[2]};
    return std::get<0>(box(l, h).Intersect(ignition::math::Line3d(v(o), v(q)))) ? 1 : 0;
}
#endif

}  // extern "C"
