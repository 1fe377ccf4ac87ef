// The condition scale of a slab extremum (an entry or exit parameter of a
// ray or a moving box against a box's slabs), for ray_aabb, segment_aabb
// and moving_aabb. Private to check/families/.
#pragma once

#include <algorithm>
#include <cmath>

#include "check/model/family.hpp"

namespace isect::check::detail {

/// One candidate of a slab extremum: t_i = (face_i - o_i) / d_i, and its
/// scale, how far it moves in units of u when the inputs it is made of
/// move by their own ulps: to first order (|lo_i| + |hi_i| + |o_i|) / |d_i|
/// + |t_i|. Both faces of the slab count, not only the one crossed: a
/// kernel may build the slab from its centre and half extent (Bullet's
/// btRayAabb), each a rounding of both faces.
struct SlabCandidate {
    double t = 0, scale = 0;
    SlabCandidate() = default;
    SlabCandidate(double face, double other_face, double o, double d)
        : t((face - o) / d),
          scale((std::fabs(face) + std::fabs(other_face) + std::fabs(o)) / std::fabs(d) + std::fabs((face - o) / d)) {}
};

/// The condition scale S of a slab extremum t (an entry max(0, max_i t_i),
/// an exit min(T, min_i t_i)): the exact t moves with the candidates that
/// can be the extremum once the inputs move by an ulp, those within 8 of
/// their own scales (in u) of t; a clamp at 0 or at T does not move. |t| is
/// the floor. So a kernel whose t is one rounding of its inputs away from
/// the exact one is within E = 1 or 2 (Bullet's centre-and-extent slabs at
/// t = 0 among them), and a wrong formula stays far outside.
inline double slab_extremum_scale(double t, const SlabCandidate* c, int n) {
    double s = std::fabs(t);
    for (int i = 0; i < n; ++i)
        if (std::isfinite(c[i].t) && std::isfinite(c[i].scale) && std::fabs(c[i].t - t) <= 8 * unit_roundoff() * c[i].scale)
            s = std::max(s, c[i].scale);
    return s;
}

}  // namespace isect::check::detail
