// OpenSceneGraph 3.6 (Debian's libopenscenegraph-dev), called as it ships:
// osg::BoundingBox (floats), osg::Plane (doubles, OSG's default) and
// osg::LineSegment (doubles). One plugin per function:
//   ROW_osg_box_intersects   BoundingBox::intersects(bb)                   aabb_aabb, yes/no
//   ROW_osg_box_intersect    BoundingBox::intersect(bb), met by intersects aabb_aabb, the box
//   ROW_osg_plane_box        Plane(a, b, c, -d).intersect(bb) == 0         aabb_plane_overlap
//   ROW_osg_segment_box      LineSegment(s, e).intersect(bb)               segment_aabb, yes/no
//   ROW_osg_segment_ratios   LineSegment::intersectAndComputeRatios(bb, r1, r2)  segment_aabb, t_enter, t_exit
// Plane(a, b, c, d) is a x + b y + c z + d = 0, so isect's n . x = d is
// Plane(n, -d), exactly; intersect(bb) is documented as 1 above, -1 below,
// 0 "intersects". A LineSegment takes two ends: the wrapper forms e = s +
// delta in double, exact for floats inside the rows' --domain 2^-10:2^10;
// LineSegment::valid() asks s != e (nonzero_direction).
#include <osg/BoundingBox>
#include <osg/LineSegment>
#include <osg/Plane>
#include "isect/plugin.h"

namespace {
osg::BoundingBox box(const float* lo, const float* hi) { return osg::BoundingBox(lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]); }
}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_osg_box_intersects) || defined(ROW_osg_box_intersect)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) {
#if defined(ROW_osg_box_intersects)
    return "osg_BoundingBox_intersects";
#else
    return "osg_BoundingBox_intersect";
#endif
}
ISECT_PLUGIN_EXPORT int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                                        float out_lo[3], float out_hi[3]) {
    const osg::BoundingBox a = box(a_lo, a_hi), b = box(b_lo, b_hi);
    if (!a.intersects(b)) return 0;
#if defined(ROW_osg_box_intersect)
    const osg::BoundingBox i = a.intersect(b);
    for (int k = 0; k < 3; ++k) out_lo[k] = i._min[k], out_hi[k] = i._max[k];
#else
    (void)out_lo, (void)out_hi;
#endif
    return 1;
}
#elif defined(ROW_osg_plane_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "osg_Plane_intersect_BoundingBox"; }
ISECT_PLUGIN_EXPORT int isect_aabb_plane_overlap(const float lo[3], const float hi[3], const float n[3], float d) {
    const osg::Plane plane(n[0], n[1], n[2], -double(d));
    return plane.intersect(box(lo, hi)) == 0 ? 1 : 0;
}
#elif defined(ROW_osg_segment_box) || defined(ROW_osg_segment_ratios)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) {
#if defined(ROW_osg_segment_box)
    return "osg_LineSegment_intersect_BoundingBox";
#else
    return "osg_LineSegment_intersectAndComputeRatios";
#endif
}
ISECT_PLUGIN_EXPORT const char* isect_requires(void) { return "nonzero_direction"; }
ISECT_PLUGIN_EXPORT int isect_segment_aabb(const float org[3], const float delta[3], const float lo[3], const float hi[3],
                                           float* t_enter, float* t_exit, float normal[3]) {
    (void)normal;
    const osg::Vec3d s(org[0], org[1], org[2]), e = s + osg::Vec3d(delta[0], delta[1], delta[2]);
    osg::ref_ptr<osg::LineSegment> segment = new osg::LineSegment(s, e);
#if defined(ROW_osg_segment_box)
    (void)t_enter, (void)t_exit;
    return segment->intersect(box(lo, hi)) ? 1 : 0;
#else
    double r1 = 0, r2 = 0;
    if (!segment->intersectAndComputeRatios(box(lo, hi), r1, r2)) return 0;
    *t_enter = float(r1);
    *t_exit = float(r2);
    return 1;
#endif
}
#endif

}  // extern "C"
