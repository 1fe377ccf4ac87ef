// ray_aabb's and segment_aabb's rational reference: the slabs of
// reference/fast/slabs.hpp on exact numbers.
#include "fast/slabs.hpp"
#include "isect/ref/ray_aabb.hpp"

namespace isect::ref {

RayAabbExact ray_aabb_rational(const double* in, bool segment, bool line) {
    using namespace fast::detail;
    using Ops = RationalOutOps;
    using K = SlabKeys;
    const auto s = Slabs<Ops>::run(point_of<Ops>(in + K::org), in + K::dir, point_of<Ops>(in + K::lo),
                                   point_of<Ops>(in + K::hi), segment, CGAL::Mpzf(1), line);
    const auto value = [](const Frac<CGAL::Mpzf>& t) { return to_rational(t.num) / to_rational(t.den); };
    RayAabbExact r;
    for (size_t i = 0; i < 3; ++i)
        if (s.near[i]) r.near[i] = value(*s.near[i]);
    r.hit = s.hit;
    r.verdict = s.verdict;
    r.entered = s.entered;
    if (s.verdict != SlabVerdict::meets && s.verdict != SlabVerdict::apart) return r;
    r.t_enter = value(s.enter);
    r.exit_infinite = s.exit_infinite;
    if (!s.exit_infinite) r.t_exit = value(s.exit);
    return r;
}

}  // namespace isect::ref
