// moving_aabb's and moving_aabb_plane's rational references: the bodies of
// reference/fast/slabs.hpp and reference/fast/aabb_plane.hpp on exact
// numbers.
#include "fast/aabb_plane.hpp"
#include "fast/slabs.hpp"
#include "isect/ref/moving_aabb.hpp"

namespace isect::ref {

ExactAabb minkowski_difference(const ExactAabb& s, const ExactAabb& m) {
    ExactAabb out;
    for (int i = 0; i < 3; ++i) {
        out.lo[i] = s.lo[i] - m.hi[i];
        out.hi[i] = s.hi[i] - m.lo[i];
    }
    return out;
}

namespace {
template <template <class> class Body> std::optional<Rational> contact(const double* in) {
    const fast::detail::ExactResult r = Body<fast::detail::RationalOutOps>::run(in);
    if (r.answer != 1) return std::nullopt;
    return r.values[0];
}
}  // namespace

std::optional<Rational> moving_aabb_rational(const double* in) { return contact<fast::detail::MovingAabbBody>(in); }

SlabVerdict moving_aabb_verdict(const double* in) {
    return fast::detail::MovingAabbBody<fast::detail::RationalOutOps>::slabs(in).verdict;
}

std::optional<Rational> moving_aabb_plane_rational(const double* in) {
    return contact<fast::detail::MovingAabbPlaneBody>(in);
}

}  // namespace isect::ref
