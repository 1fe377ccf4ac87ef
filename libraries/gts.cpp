// GTS 0.7 (Debian's libgts-dev), the GNU Triangulated Surface library,
// called as it ships, in double (gdouble): the double entries (--precision
// double). One plugin per function:
//   ROW_gts_box_box       gts_bboxes_are_overlapping(bb1, bb2)    aabb_aabb, yes/no
//   ROW_gts_box_triangle  gts_bbox_overlaps_triangle(bb, t)       aabb_triangle
// A box is gts_bbox_new(class, NULL, x1, y1, z1, x2, y2, z2); a triangle is
// three vertices joined by three edges, as GTS builds one, made once per
// plugin and moved to each input (gts_point_set). GTS documents the box test
// as "TRUE if bb and t are overlapping" (Akenine-Möller's separating axes).
#include <gts.h>
#include "isect/plugin.h"

namespace {

GtsBBox* box(const double* lo, const double* hi) {
    return gts_bbox_new(gts_bbox_class(), nullptr, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
}

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }

#if defined(ROW_gts_box_box)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "gts_bboxes_are_overlapping"; }
ISECT_PLUGIN_EXPORT int isect_aabb_aabb_d(const double a_lo[3], const double a_hi[3], const double b_lo[3],
                                          const double b_hi[3], double out_lo[3], double out_hi[3]) {
    (void)out_lo, (void)out_hi;  // a yes/no
    GtsBBox *a = box(a_lo, a_hi), *b = box(b_lo, b_hi);
    const int overlap = gts_bboxes_are_overlapping(a, b) ? 1 : 0;
    gts_object_destroy(GTS_OBJECT(a));
    gts_object_destroy(GTS_OBJECT(b));
    return overlap;
}
#elif defined(ROW_gts_box_triangle)
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "gts_bbox_overlaps_triangle"; }
ISECT_PLUGIN_EXPORT int isect_aabb_triangle_d(const double lo[3], const double hi[3], const double tri[9]) {
    static GtsVertex* p[3] = {gts_vertex_new(gts_vertex_class(), 0, 0, 0), gts_vertex_new(gts_vertex_class(), 1, 0, 0),
                              gts_vertex_new(gts_vertex_class(), 0, 1, 0)};
    static GtsTriangle* t = [] {
        GtsEdge* ab = gts_edge_new(gts_edge_class(), p[0], p[1]);
        GtsEdge* bc = gts_edge_new(gts_edge_class(), p[1], p[2]);
        GtsEdge* ca = gts_edge_new(gts_edge_class(), p[2], p[0]);
        return gts_triangle_new(gts_triangle_class(), ab, bc, ca);
    }();
    for (int i = 0; i < 3; ++i) gts_point_set(GTS_POINT(p[i]), tri[3 * i], tri[3 * i + 1], tri[3 * i + 2]);
    GtsBBox* b = box(lo, hi);
    const int overlap = gts_bbox_overlaps_triangle(b, t) ? 1 : 0;
    gts_object_destroy(GTS_OBJECT(b));
    return overlap;
}
#endif

}  // extern "C"
