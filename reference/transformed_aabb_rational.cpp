// transformed_aabb's rational reference: the body of reference/fast/
// transformed_aabb.hpp on exact numbers.
#include "fast/transformed_aabb.hpp"
#include "isect/ref/transformed_aabb.hpp"

namespace isect::ref {

ExactAabb transformed_aabb_rational(const double* in) {
    const fast::detail::ExactResult r = fast::detail::TransformedBody<fast::detail::RationalOutOps>::run(in);
    ExactAabb out;
    for (size_t i = 0; i < 3; ++i) {
        out.lo[i] = r.values[i];
        out.hi[i] = r.values[3 + i];
    }
    return out;
}

}  // namespace isect::ref
