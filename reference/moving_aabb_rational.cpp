#include "isect/ref/moving_aabb.hpp"
#include "isect/ref/ray_aabb.hpp"

namespace isect::ref {

ExactAabb minkowski_difference(const ExactAabb& s, const ExactAabb& m) {
    ExactAabb out;
    for (int i = 0; i < 3; ++i) {
        out.lo[i] = s.lo[i] - m.hi[i];
        out.hi[i] = s.hi[i] - m.lo[i];
    }
    return out;
}

std::optional<Rational> moving_aabb_rational(const ExactAabb& s, const ExactAabb& m, const Point& d) {
    const RayAabbExact r = ray_aabb_rational(Point{0, 0, 0}, d, minkowski_difference(s, m), Rational(1));
    if (!r.hit) return std::nullopt;
    return r.t_enter;
}

std::optional<Rational> moving_aabb_plane_rational(const ExactAabb& box, const ExactPlane& p, const Point& dir) {
    Rational a, b;
    aabb_plane_extent(box, p.n, a, b);
    a -= p.d;
    b -= p.d;
    const Rational s = dot(p.n, dir);
    if (a <= 0 && 0 <= b) return Rational(0);
    if (a > 0 && s < 0) return Rational(-a / s);
    if (b < 0 && s > 0) return Rational(-b / s);
    return std::nullopt;
}

}  // namespace isect::ref
