// The fast exact oracles and the bands of every family (fast.hpp): the
// bodies of reference/fast/FAMILY.hpp, written once over a number policy
// (reference/fast/policies.hpp), instantiated here. An oracle runs its body on
// CGAL's Interval_nt in one Upward scope (Interval_nt<false> needs the
// rounding mode upward for all its operations, and plain double arithmetic
// inside the scope rounds upward too, so every number computed there is an
// interval; whatever must round to nearest, such as a band's delta, comes in
// from outside). Where intervals straddle, the same body runs again on CGAL's
// Mpzf, an exact multiprecision float with its limbs on the stack: exact
// signs, and enclosures of its exact numbers, several times cheaper than the
// rational references (Mpzf converts doubles exactly and computes in
// integers, so the rounding mode does not matter to it). A band runs the same
// two stages, and once more on GMP rationals as its exact instantiation.
#include "isect/ref/fast.hpp"

#include "fast/aabb_aabb.hpp"
#include "fast/aabb_plane.hpp"
#include "fast/aabb_triangle.hpp"
#include "fast/policies.hpp"
#include "fast/obb_obb.hpp"
#include "fast/point_triangle.hpp"
#include "fast/ray_sphere.hpp"
#include "fast/ray_triangle.hpp"
#include "fast/segment_segment.hpp"
#include "fast/slabs.hpp"
#include "fast/sphere_aabb.hpp"
#include "fast/transformed_aabb.hpp"
#include "fast/triangle_measures.hpp"
#include "fast/triangle_triangle.hpp"

namespace isect::ref::fast {

using namespace detail;

namespace {

/// A band body's three instantiations (fast, exact, wrong).
template <template <class> class Body> Band instantiated_band() {
    Band b;
    b.fast = [](const double* in, int exact_answer, const double* delta) -> std::optional<bool> {
        return fast_band<Body>(in, exact_answer, delta);
    };
    b.exact = exact_band<Body>;
    b.wrong = double_band<Body>;
    return b;
}

/// A band written to first order (fast/slope.hpp): its exact instantiation
/// on Mpzf (exact for the ring operations a slope needs, and an order of
/// magnitude faster than GMP's rationals, which cost triangle_triangle's 18
/// numbers 40 ms a call); with its directions where it gives them.
template <template <class> class Body> Band slope_band() {
    Band b = instantiated_band<Body>();
    b.exact = [](const double* in, int exact_answer, const double* delta) { return Body<MpzfOps>::run(in, exact_answer, delta); };
    return b;
}
/// A band with the directions it gives the witnessed-K search (Body's
/// directions on plain double).
template <template <class> class Body> Band with_directions(Band b) {
    b.directions = band_directions<Body>;
    return b;
}
template <template <class> class Body> Band directed_band() { return with_directions<Body>(instantiated_band<Body>()); }
template <template <class> class Body> Band first_order_band() { return with_directions<Body>(slope_band<Body>()); }

template <bool Segment, bool Line = false> struct RayAabb {
    template <class Ops> using Body = typename RayAabbBody<Segment, Line>::template Body<Ops>;
    template <class Ops> using Band = typename RayAabbBand<Segment, Line>::template Body<Ops>;
};

}  // namespace

std::optional<Result> ray_aabb(const double* in, bool segment) {
    return segment ? two_stage<Result, RayAabb<true>::Body>(in) : two_stage<Result, RayAabb<false>::Body>(in);
}
Band ray_aabb_band(bool segment) { return segment ? directed_band<RayAabb<true>::Band>() : directed_band<RayAabb<false>::Band>(); }
std::optional<Result> ray_aabb_line(const double* in) { return two_stage<Result, RayAabb<false, true>::Body>(in); }
Band ray_aabb_line_band() { return directed_band<RayAabb<false, true>::Band>(); }

std::optional<Result> moving_aabb(const double* in) { return two_stage<Result, MovingAabbBody>(in); }
Band moving_aabb_band() { return instantiated_band<MovingAabbBand>(); }

std::optional<Result> aabb_plane(const double* in, bool touching_straddles) {
    return touching_straddles ? two_stage<Result, AabbPlaneTouchingBody>(in) : two_stage<Result, AabbPlaneBody>(in);
}
std::optional<Result> aabb_plane_overlap(const double* in) { return two_stage<Result, AabbPlaneOverlapBody>(in); }
Band aabb_plane_band() { return instantiated_band<AabbPlaneBand>(); }

std::optional<Result> moving_aabb_plane(const double* in) { return two_stage<Result, MovingAabbPlaneBody>(in); }
Band moving_aabb_plane_band() { return instantiated_band<MovingAabbPlaneBand>(); }

std::optional<Result> aabb_aabb(const double* in, bool volume) {
    // Comparisons and min / max of floats: exact with no intervals at all.
    return volume ? AabbAabbVolumeBody<DoubleOps>::run(in) : AabbAabbBody<DoubleOps>::run(in);
}
Band aabb_aabb_band(bool volume) {
    if (volume) {
        Band b = instantiated_band<AabbAabbVolumeBand>();
        b.wrong = nullptr;  // as the default's: nothing for plain double to get wrong
        return b;
    }
    // Differences and comparisons of the inputs only: in plain double the
    // body is exact but where a difference rounds onto 2 delta, so it has no
    // planted wrong band to catch.
    Band b = instantiated_band<AabbAabbBand>();
    b.wrong = nullptr;
    return b;
}

std::optional<Result> sphere_aabb(const double* in, bool closest_on_surface) {
    return closest_on_surface ? two_stage<Result, SphereSurfaceBody>(in) : two_stage<Result, SphereBody>(in);
}
Band sphere_aabb_band() { return instantiated_band<SphereBand>(); }

std::optional<Result> transformed_aabb(const double* in) { return two_stage<Result, TransformedBody>(in); }

std::optional<Result> ray_triangle(const double* in, bool cull_back) {
    return cull_back ? two_stage<Result, RayTriangleCullBody>(in) : two_stage<Result, RayTriangleBody>(in);
}
std::optional<Result> ray_triangle_line(const double* in) { return two_stage<Result, RayTriangleLineBody>(in); }
Band ray_triangle_line_band() { return first_order_band<RayTriangleLineBand>(); }
Band ray_triangle_band(bool cull_back) { return cull_back ? first_order_band<RayTriangleCullBand>() : first_order_band<RayTriangleBand>(); }

std::optional<Result> triangle_measures(const double* in) { return two_stage<Result, TriangleBody>(in); }
Band triangle_measures_band() { return instantiated_band<TriangleBand>(); }

std::optional<Result> polygon_measures(const double* in) { return two_stage<Result, PolygonBody>(in); }
Band polygon_measures_band() { return slope_band<PolygonBand>(); }

std::optional<Result> triangle_triangle(const double* in) { return two_stage<Result, TriTriBody>(in); }
Band triangle_triangle_band() { return first_order_band<TriTriBand>(); }

std::optional<Result> obb_obb(const double* in) { return two_stage<Result, ObbBody>(in); }
Band obb_obb_band() { return directed_band<ObbBand>(); }

std::optional<Result> ray_sphere(const double* in, bool surface) {
    return surface ? two_stage<Result, RaySphereSurfaceBody>(in) : two_stage<Result, RaySphereBody>(in);
}
std::optional<Result> ray_sphere_line(const double* in) { return two_stage<Result, RaySphereLineBody>(in); }
Band ray_sphere_line_band() { return first_order_band<RaySphereLineBand>(); }
Band ray_sphere_band(bool surface) { return surface ? first_order_band<RaySphereSurfaceBand>() : first_order_band<RaySphereBand>(); }

std::optional<Result> segment_segment(const double* in) { return two_stage<Result, SegmentSegmentBody>(in); }
Band segment_segment_band() { return instantiated_band<SegmentSegmentBand>(); }

std::optional<Result> point_triangle(const double* in) { return two_stage<Result, PointTriangleBody>(in); }
Band point_triangle_band() { return first_order_band<PointTriangleBand>(); }
Band aabb_triangle_band() {
    Band b = instantiated_band<AabbTriangleBand>();
    b.directions = band_directions<AabbTriangleBand>;
    return b;
}

// --- The planted wrong oracles ---------------------------------------------------------

namespace wrong {

namespace {
template <template <class> class Body> Result plain(const double* in) { return Body<DoubleOps>::run(in); }
}  // namespace

Result ray_triangle(const double* in, bool cull_back) {
    return cull_back ? plain<RayTriangleCullBody>(in) : plain<RayTriangleBody>(in);
}
Result ray_triangle_line(const double* in) { return plain<RayTriangleLineBody>(in); }
Result ray_aabb(const double* in, bool segment) {
    return segment ? plain<RayAabb<true>::Body>(in) : plain<RayAabb<false>::Body>(in);
}
Result ray_aabb_line(const double* in) { return plain<RayAabb<false, true>::Body>(in); }
Result aabb_plane(const double* in, bool touching_straddles) {
    return touching_straddles ? plain<AabbPlaneTouchingBody>(in) : plain<AabbPlaneBody>(in);
}
Result aabb_plane_overlap(const double* in) { return plain<AabbPlaneOverlapBody>(in); }
Result aabb_aabb(const double* in, bool volume) {
    // Under volume_overlap, touching boxes called overlapping (the default's
    // body: the closed boxes' answer).
    if (volume) return *fast::aabb_aabb(in);
    // Touching boxes called disjoint: a strict comparison (no arithmetic here
    // for plain double to get wrong).
    Result r = *fast::aabb_aabb(in);
    constexpr size_t a_lo = aabb_aabb_input.at("a.lo"), a_hi = aabb_aabb_input.at("a.hi");
    constexpr size_t b_lo = aabb_aabb_input.at("b.lo"), b_hi = aabb_aabb_input.at("b.hi");
    for (int i = 0; i < 3; ++i)
        if (in[a_lo + i] == in[b_hi + i] || in[b_lo + i] == in[a_hi + i]) return Result{};
    return r;
}
Result sphere_aabb(const double* in, bool closest_on_surface) {
    return closest_on_surface ? plain<SphereSurfaceBody>(in) : plain<SphereBody>(in);
}
Result moving_aabb(const double* in) { return plain<MovingAabbBody>(in); }
Result moving_aabb_plane(const double* in) { return plain<MovingAabbPlaneBody>(in); }
Result transformed_aabb(const double* in) { return plain<TransformedBody>(in); }
Result triangle_measures(const double* in) { return plain<TriangleBody>(in); }
Result polygon_measures(const double* in) { return plain<PolygonBody>(in); }
Result triangle_triangle(const double* in) { return plain<TriTriBody>(in); }
Result obb_obb(const double* in) { return plain<ObbBody>(in); }
Result ray_sphere(const double* in, bool surface) {
    return surface ? plain<RaySphereSurfaceBody>(in) : plain<RaySphereBody>(in);
}
Result ray_sphere_line(const double* in) { return plain<RaySphereLineBody>(in); }
Result segment_segment(const double* in) { return plain<SegmentSegmentBody>(in); }
Result point_triangle(const double* in) { return plain<PointTriangleBody>(in); }

}  // namespace wrong

}  // namespace isect::ref::fast
