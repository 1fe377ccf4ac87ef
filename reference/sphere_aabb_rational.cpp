#include "isect/ref/sphere_aabb.hpp"

namespace isect::ref {

SphereAabbExact sphere_aabb_rational(const ExactAabb& box, const Point& c, const Rational& r) {
    SphereAabbExact out;
    out.contains = true;
    for (int i = 0; i < 3; ++i) {
        out.closest[i] = c[i] < box.lo[i] ? box.lo[i] : (c[i] > box.hi[i] ? box.hi[i] : c[i]);
        if (out.closest[i] != c[i]) out.contains = false;
        const Rational d = c[i] - out.closest[i];
        out.dist2 += d * d;
    }
    out.overlap = out.dist2 <= r * r;
    return out;
}

}  // namespace isect::ref
