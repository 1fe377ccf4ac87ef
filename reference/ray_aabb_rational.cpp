#include "isect/ref/ray_aabb.hpp"

namespace isect::ref {

RayAabbExact ray_aabb_rational(const Point& o, const Point& d, const ExactAabb& box,
                               const std::optional<Rational>& tmax) {
    RayAabbExact r;
    if (is_empty(box)) return r;
    Rational t0 = 0;
    std::optional<Rational> t1 = tmax;  // nullopt: +inf
    for (int i = 0; i < 3; ++i) {
        if (d[i] == 0) {
            if (o[i] < box.lo[i] || o[i] > box.hi[i]) return r;
            continue;
        }
        Rational tn = (box.lo[i] - o[i]) / d[i], tf = (box.hi[i] - o[i]) / d[i];
        if (d[i] < 0) std::swap(tn, tf);
        r.near[i] = tn;
        if (tn > t0) t0 = tn;
        if (!t1 || tf < *t1) t1 = tf;
    }
    if (t1 && t0 > *t1) return r;
    r.hit = true;
    r.t_enter = t0;
    if (t1) r.t_exit = *t1;
    else r.exit_infinite = true;
    return r;
}

}  // namespace isect::ref
