// sphere_aabb's rational reference: the body of reference/fast/
// sphere_aabb.hpp on exact numbers; the squared distance is that of the
// nearest point it gives (zero for a centre in the box, whichever point the
// closest_on_surface convention reports).
#include "fast/sphere_aabb.hpp"
#include "isect/ref/sphere_aabb.hpp"

namespace isect::ref {

SphereAabbExact sphere_aabb_rational(const double* in, bool closest_on_surface) {
    using namespace fast::detail;
    const ExactResult r = closest_on_surface ? SphereSurfaceBody<RationalOutOps>::run(in) : SphereBody<RationalOutOps>::run(in);
    SphereAabbExact out;
    out.overlap = r.answer == 1;
    out.contains = r.values[3] == 1;
    for (size_t i = 0; i < 3; ++i) {
        out.closest[i] = r.values[i];
        const Rational d = Rational(in[SphereKeys::c + i]) - out.closest[i];
        out.closest_dist2 += d * d;
    }
    out.dist2 = out.contains ? Rational(0) : out.closest_dist2;
    return out;
}

}  // namespace isect::ref
