// triangle_triangle's rational reference: the body of
// reference/fast/triangle_triangle.hpp on GMP rationals, every sign and every
// crossing point exact.
#include "fast/triangle_triangle.hpp"
#include "isect/ref/triangle_triangle.hpp"

namespace isect::ref {

TriangleTriangleExact triangle_triangle_rational(const double* in) {
    using Ops = fast::detail::RationalOps;
    const auto out = fast::detail::TriTriBody<Ops>::run_on(in);
    TriangleTriangleExact r;
    r.meet = out.meet;
    r.has_segment = out.has_segment;
    if (!out.has_segment) return r;
    for (size_t c = 0; c < 3; ++c) {
        r.p[c] = Rational((out.p.num[c] / out.p.den).backend());
        r.q[c] = Rational((out.q.num[c] / out.q.den).backend());
    }
    return r;
}

}  // namespace isect::ref
