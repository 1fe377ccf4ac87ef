// obb_obb's zonotope reference: the body of reference/fast/obb_obb.hpp on
// exact numbers (CGAL's Mpzf: every value is a polynomial in the inputs).
#include "fast/obb_obb.hpp"
#include "isect/ref/obb_obb.hpp"

namespace isect::ref {

bool obb_obb_rational(const double* in) { return fast::detail::ObbBody<fast::detail::ExactOps>::meet(in); }

}  // namespace isect::ref
