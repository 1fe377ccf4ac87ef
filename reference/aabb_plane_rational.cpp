// aabb_plane's and aabb_plane_overlap's rational references: the bodies of
// reference/fast/aabb_plane.hpp on exact numbers.
#include "fast/aabb_plane.hpp"
#include "isect/ref/aabb_plane.hpp"

namespace isect::ref {

void aabb_plane_extent(const ExactAabb& box, const Point& n, Rational& min_d, Rational& max_d) {
    min_d = max_d = 0;
    for (int i = 0; i < 3; ++i) {
        const Rational lo = n[i] * box.lo[i], hi = n[i] * box.hi[i];
        min_d += lo < hi ? lo : hi;
        max_d += lo < hi ? hi : lo;
    }
}

void aabb_plane_margins(const double* in, Rational& least, Rational& greatest) {
    CGAL::Mpzf lo, hi;
    fast::detail::margins<fast::detail::RationalOutOps>(in, lo, hi);
    least = fast::detail::to_rational(lo);
    greatest = fast::detail::to_rational(hi);
}

int aabb_plane_classify_rational(const double* in, bool touching_straddles) {
    // The body answers back 0, straddle 1, front 2.
    using Ops = fast::detail::RationalOutOps;
    return (touching_straddles ? fast::detail::AabbPlaneTouchingBody<Ops>::run(in) : fast::detail::AabbPlaneBody<Ops>::run(in)).answer - 1;
}

bool aabb_plane_overlap_rational(const double* in) {
    return fast::detail::AabbPlaneOverlapBody<fast::detail::RationalOutOps>::run(in).answer == 1;
}

}  // namespace isect::ref
