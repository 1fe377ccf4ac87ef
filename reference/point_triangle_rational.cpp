// point_triangle's rational reference: core's point_triangle_minimum, the
// body of reference/fast/point_triangle.hpp, on exact numbers.
#include "fast/point_triangle.hpp"
#include "isect/ref/point_triangle.hpp"

namespace isect::ref {

PointTriangleExact point_triangle_rational(const double* in) {
    using namespace fast::detail;
    using K = PointTriangleKeys;
    const auto m = point_triangle_minimum_of<RationalOutOps>(in);
    const Rational v = to_rational(m.v_num) / to_rational(m.den), w = to_rational(m.w_num) / to_rational(m.den);
    PointTriangleExact out;
    out.dist2 = to_rational(m.d_num) / to_rational(m.d_den);
    out.shape = int(m.shape);
    for (size_t i = 0; i < 3; ++i) {
        const Rational a(in[K::tri + i]);
        out.q[i] = a + v * (Rational(in[K::tri + 3 + i]) - a) + w * (Rational(in[K::tri + 6 + i]) - a);
    }
    return out;
}

}  // namespace isect::ref
