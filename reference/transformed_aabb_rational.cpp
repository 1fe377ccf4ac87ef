#include "isect/ref/transformed_aabb.hpp"

namespace isect::ref {

ExactAabb transformed_aabb_rational(const ExactAabb& box, const ExactAffine& a) {
    ExactAabb out;
    for (int i = 0; i < 3; ++i) {
        out.lo[i] = out.hi[i] = a.t[i];
        for (int j = 0; j < 3; ++j) {
            const Rational p = a.m[i][j] * box.lo[j], q = a.m[i][j] * box.hi[j];
            out.lo[i] += p < q ? p : q;
            out.hi[i] += p < q ? q : p;
        }
    }
    return out;
}

}  // namespace isect::ref
