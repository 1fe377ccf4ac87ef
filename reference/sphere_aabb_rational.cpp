// sphere_aabb's rational reference: the body of reference/fast/
// sphere_aabb.hpp on exact numbers; the squared distance is that of the
// nearest point it gives.
#include "fast/sphere_aabb.hpp"
#include "isect/ref/sphere_aabb.hpp"

namespace isect::ref {

SphereAabbExact sphere_aabb_rational(const double* in) {
    using namespace fast::detail;
    const ExactResult r = SphereBody<RationalOutOps>::run(in);
    SphereAabbExact out;
    out.overlap = r.answer == 1;
    out.contains = r.values[3] == 1;
    for (size_t i = 0; i < 3; ++i) {
        out.closest[i] = r.values[i];
        const Rational d = Rational(in[SphereKeys::c + i]) - out.closest[i];
        out.dist2 += d * d;
    }
    return out;
}

}  // namespace isect::ref
