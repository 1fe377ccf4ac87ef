// triangle_triangle's rational reference: the body of
// reference/fast/triangle_triangle.hpp on exact numbers, every sign and
// every crossing point exact. Every value the body forms is a polynomial in
// the inputs (the crossings are fractions it keeps as numerator and
// denominator), so it runs on CGAL's Mpzf, exact dyadic numbers without the
// gcd that makes GMP's rationals ten times slower; only the crossings'
// quotients are taken in GMP rationals at the end.
#include "fast/triangle_triangle.hpp"
#include "isect/ref/triangle_triangle.hpp"

#include <CGAL/Gmpq.h>

namespace isect::ref {

TriangleTriangleExact triangle_triangle_rational(const double* in) {
    using Ops = fast::detail::MpzfOps;
    const auto out = fast::detail::TriTriBody<Ops>::run_on(in);
    TriangleTriangleExact r;
    r.meet = out.meet;
    r.has_segment = out.has_segment;
    r.proper = out.proper;
    for (size_t i = 0; i < 3; ++i) {
        r.side_a[i] = out.sa[i];
        r.side_b[i] = out.sb[i];
    }
    if (!out.has_segment) return r;
    const auto rational = [](const CGAL::Mpzf& x) { return Rational(CGAL::Gmpq(x).mpq()); };
    for (size_t c = 0; c < 3; ++c) {
        r.p[c] = rational(out.p.num[c]) / rational(out.p.den);
        r.q[c] = rational(out.q.num[c]) / rational(out.q.den);
    }
    return r;
}

}  // namespace isect::ref
