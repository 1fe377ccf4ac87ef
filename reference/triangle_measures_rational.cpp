// triangle_measures' and polygon_measures' rational references: the bodies
// of reference/fast/triangle_measures.hpp on exact numbers, each root (an
// area, a radius, a distance) as its square and sign.
#include <boost/multiprecision/mpfr.hpp>

#include "fast/triangle_measures.hpp"
#include "isect/ref/triangle_measures.hpp"

namespace isect::ref {

double sqrt_to_double(const Rational& x, int sign) {
    using Mp = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<120>>;
    const Mp num(boost::multiprecision::numerator(x)), den(boost::multiprecision::denominator(x));
    const double root = Mp(sqrt(num / den)).convert_to<double>();
    return sign < 0 ? -root : root;
}

TriangleMeasuresExact triangle_measures_rational(const double* in) {
    using namespace fast::detail;
    const ExactResult r = TriangleBody<RationalOutOps>::run(in);
    TriangleMeasuresExact m;
    m.degenerate = r.answer == 0;
    if (m.degenerate) return m;  // its area is 0: every cross product vanishes
    m.area2 = r.values[0];
    m.u = r.values[1];
    m.v = r.values[2];
    for (size_t i = 0; i < 3; ++i) m.centre[i] = r.values[3 + i];
    m.radius2 = r.values[6];
    m.distance2 = r.values[7];
    m.distance_sign = r.sign[7];
    return m;
}

PolygonExact polygon_rational(const double* in) {
    using namespace fast::detail;
    const ExactResult r = PolygonBody<RationalOutOps>::run(in);
    PolygonExact out;
    for (size_t i = 0; i < 3; ++i) out.normal[i] = r.values[i];
    out.offset = r.values[3];
    out.convex = r.answer == 1;
    if (r.known[4]) {
        out.distance2 = r.values[4];
        out.distance_sign = r.sign[4];
    }
    return out;
}

}  // namespace isect::ref
