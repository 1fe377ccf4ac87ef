// obb_obb's zonotope reference: the body of reference/fast/obb_obb.hpp on
// exact numbers (CGAL's Mpzf: every value is a polynomial in the inputs).
#include "fast/obb_obb.hpp"
#include "isect/ref/obb_obb.hpp"

namespace isect::ref {

bool obb_obb_rational(const double* in) { return fast::detail::ObbBody<fast::detail::MpzfOps>::meet(in); }

ObbAxes obb_obb_axes(const double* in) {
    using namespace fast::detail;
    using Ops = MpzfOps;
    using Z = Zonotope<Ops>;
    const ObbInput<Ops> x(in);
    ObbAxes out;
    for (int i = 0; i < 6 && !out.spans; ++i)
        for (int j = i + 1; j < 6 && !out.spans; ++j)
            for (int k = j + 1; k < 6 && !out.spans; ++k) out.spans = Ops::sgn(dot(Z::pair(x.g, i, j, &x.pairs), x.g[k])) != 0;
    for (int p = 0; p < 6; ++p)
        for (int q = p + 1; q < 6; ++q) {
            const auto n = Z::pair(x.g, p, q, &x.pairs);
            CGAL::Mpzf gap = Z::abs_of(dot(n, x.d));
            for (int k = 0; k < 6; ++k) gap = gap - Z::abs_of(dot(n, x.g[k]));
            out.axes.push_back({p, q, to_rational(gap), to_rational(dot(n, n))});
        }
    return out;
}

}  // namespace isect::ref
