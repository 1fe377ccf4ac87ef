#include "isect/ref/aabb_aabb.hpp"

namespace isect::ref {

std::optional<ExactAabb> aabb_aabb_rational(const ExactAabb& a, const ExactAabb& b) {
    ExactAabb r;
    for (int i = 0; i < 3; ++i) {
        r.lo[i] = a.lo[i] > b.lo[i] ? a.lo[i] : b.lo[i];
        r.hi[i] = a.hi[i] < b.hi[i] ? a.hi[i] : b.hi[i];
        if (r.lo[i] > r.hi[i]) return std::nullopt;
    }
    return r;
}

}  // namespace isect::ref
