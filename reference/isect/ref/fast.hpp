// The fast exact oracles: each family's exact answer, and enclosures of its
// exact numbers, from interval arithmetic on doubles (CGAL's Interval_nt,
// the rounding mode set upward once per call and restored on return). Every
// decision is a sign of an interval: certain when the interval excludes 0,
// or is the point 0; where it straddles 0 the oracle returns nullopt and the
// rational references decide. Inputs are floats, so most of the arithmetic
// is exact in double (a difference of two floats of nearby exponents, a
// product of two floats) and the intervals are points: touching, coplanar
// and parallel inputs decide here too.
//
// Each function follows its rational reference (reference/*_rational.cpp)
// branch for branch, so that where it decides it gives the same answer and
// every enclosure contains the number the reference computes. The bodies
// are written once over a number policy, in reference/fast/FAMILY.hpp, with
// each family's band beside its body.
//
// Precondition: the input is in the family's domain (finite, lo <= hi...).
// The caller's floating-point environment is untouched on return.
#pragma once

#include <optional>
#include <vector>

namespace isect::ref::fast {

/// The exact answer (the family's answer index) and, per number the answer
/// carries, an enclosure [lo, hi] of its exact value (a NaN pair where the
/// reference gives NaN).
struct Result {
    int answer = 0;
    int count = 0;  ///< numbers enclosed
    double lo[12] = {}, hi[12] = {};
};

// The layouts are those of the families (check/families/FAMILY.cpp).
std::optional<Result> ray_triangle(const double* in, bool cull_back = false);  ///< cull_back: only the front face
std::optional<Result> ray_triangle_line(const double* in);  ///< the line convention: t the least, u, v
std::optional<Result> ray_aabb(const double* in, bool segment);
std::optional<Result> ray_aabb_line(const double* in);  ///< the line convention: t_enter, t_exit, normal
std::optional<Result> aabb_plane(const double* in, bool touching_straddles = false);  ///< back 0, straddle 1, front 2
std::optional<Result> aabb_plane_overlap(const double* in);
std::optional<Result> aabb_aabb(const double* in, bool volume = false);  ///< volume: the volume_overlap convention
std::optional<Result> sphere_aabb(const double* in, bool closest_on_surface = false);  ///< the convention of that name
std::optional<Result> moving_aabb(const double* in);
std::optional<Result> moving_aabb_plane(const double* in);
std::optional<Result> transformed_aabb(const double* in);
std::optional<Result> triangle_measures(const double* in);
std::optional<Result> polygon_measures(const double* in);
std::optional<Result> triangle_triangle(const double* in);  ///< the segment's ends p, q (NaN without one)
std::optional<Result> obb_obb(const double* in);
std::optional<Result> ray_sphere(const double* in, bool surface = false);
std::optional<Result> ray_sphere_line(const double* in);  ///< the line convention: t_enter, t_exit, the roots  ///< t_enter, t_exit; surface: the sphere's crossings
std::optional<Result> segment_segment(const double* in);  ///< dist2, s, t, c1, c2
std::optional<Result> point_triangle(const double* in);   ///< the region; dist2, q, v, w

/// A family's band: whether moving each input number i by at most
/// delta[i] could make an answer other than exact_answer the exact one.
/// delta[i] = K u S_i, K the contract's, u = 2^-24 for float inputs or
/// 2^-53 for doubles, S_i the scale of the number's role (layout.hpp's
/// moves_with_positions: the largest position magnitude M, or the key's own
/// magnitude); the engine computes it (check/model's band_deltas). Written
/// once per family over a number policy (reference/fast/FAMILY.hpp) and
/// instantiated:
///   fast:  intervals, then Mpzf where they cannot decide (exact wherever it
///          answers; nullopt where a band has no exact fast stage);
///   exact: GMP rationals, no interval stage;
///   wrong: plain double rounding to nearest, a planted wrong band for the
///          property that holds `fast` to `exact`.
/// Every delta[i] is finite and >= 0 (0 for a non-finite number).
/// A band written to first order (slope.hpp) also says where it looks:
///   directions: moves (per input number a share of its delta, in [-1, 1];
///          most are signs) that carry the input towards another answer
///          fastest, one per deciding function (and per pair of them that
///          must hold together), from its partials in plain double. The
///          witnessed-K search starts there.
using Direction = std::vector<double>;
using Directions = std::vector<Direction>;
struct Band {
    std::optional<bool> (*fast)(const double* in, int exact_answer, const double* delta) = nullptr;
    bool (*exact)(const double* in, int exact_answer, const double* delta) = nullptr;
    bool (*wrong)(const double* in, int exact_answer, const double* delta) = nullptr;
    Directions (*directions)(const double* in, int exact_answer, const double* delta) = nullptr;
};
Band ray_triangle_band(bool cull_back = false);
Band ray_aabb_band(bool segment);
Band ray_aabb_line_band();
Band aabb_plane_band();  ///< aabb_plane and aabb_plane_overlap: the same margins decide both
Band aabb_aabb_band(bool volume = false);
Band sphere_aabb_band();
Band moving_aabb_band();
Band moving_aabb_plane_band();
Band triangle_measures_band();
Band polygon_measures_band();
Band triangle_triangle_band();
Band obb_obb_band();
Band ray_sphere_band(bool surface = false);
Band ray_sphere_line_band();
Band ray_triangle_line_band();
Band segment_segment_band();
Band point_triangle_band();
/// The exact answer on the box grown or shrunk by delta differs
/// (reference/fast/aabb_triangle.hpp: the separating-axis test).
Band aabb_triangle_band();

/// Planted wrong oracles, one per family, for the properties that must
/// catch them: every sign decided in plain double (aabb_aabb, which needs no
/// arithmetic: touching boxes called disjoint). Never used to judge.
namespace wrong {
Result ray_triangle(const double* in, bool cull_back = false);
Result ray_triangle_line(const double* in);
Result ray_aabb(const double* in, bool segment);
Result ray_aabb_line(const double* in);
Result aabb_plane(const double* in, bool touching_straddles = false);
Result aabb_plane_overlap(const double* in);
Result aabb_aabb(const double* in, bool volume = false);
Result sphere_aabb(const double* in, bool closest_on_surface = false);
Result moving_aabb(const double* in);
Result moving_aabb_plane(const double* in);
Result transformed_aabb(const double* in);
Result triangle_measures(const double* in);
Result polygon_measures(const double* in);
Result triangle_triangle(const double* in);
Result obb_obb(const double* in);
Result ray_sphere(const double* in, bool surface = false);
Result ray_sphere_line(const double* in);
Result segment_segment(const double* in);
Result point_triangle(const double* in);
}  // namespace wrong

}  // namespace isect::ref::fast
