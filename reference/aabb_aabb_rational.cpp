// aabb_aabb's rational reference: the body of reference/fast/aabb_aabb.hpp
// on exact numbers.
#include "fast/aabb_aabb.hpp"
#include "isect/ref/aabb_aabb.hpp"

namespace isect::ref {

std::optional<ExactAabb> aabb_aabb_rational(const double* in, bool volume) {
    using Ops = fast::detail::RationalOutOps;
    const fast::detail::ExactResult r =
        volume ? fast::detail::AabbAabbVolumeBody<Ops>::run(in) : fast::detail::AabbAabbBody<Ops>::run(in);
    if (r.answer != 1) return std::nullopt;
    ExactAabb out;
    for (size_t i = 0; i < 3; ++i) {
        out.lo[i] = r.values[i];
        out.hi[i] = r.values[3 + i];
    }
    return out;
}

}  // namespace isect::ref
