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
// every enclosure contains the number the reference computes. The band
// functions likewise follow the band of check/FAMILY.cpp: they answer only
// where the rational band computation would certainly answer the same.
//
// Precondition: the input is in the family's domain (finite, lo <= hi...).
// The caller's floating-point environment is untouched on return.
#pragma once

#include <optional>

namespace isect::ref::fast {

/// The exact answer (the family's answer index) and, per number the answer
/// carries, an enclosure [lo, hi] of its exact value (a NaN pair where the
/// reference gives NaN).
struct Result {
    int answer = 0;
    int count = 0;  ///< numbers enclosed
    double lo[8] = {}, hi[8] = {};
};

// The layouts are those of the families (check/FAMILY.cpp).
std::optional<Result> ray_triangle(const double* in);
std::optional<Result> ray_aabb(const double* in, bool segment);
std::optional<Result> aabb_plane(const double* in);          ///< back 0, straddle 1, front 2
std::optional<Result> aabb_plane_overlap(const double* in);
std::optional<Result> aabb_aabb(const double* in);
std::optional<Result> sphere_aabb(const double* in);
std::optional<Result> moving_aabb(const double* in);
std::optional<Result> moving_aabb_plane(const double* in);
std::optional<Result> transformed_aabb(const double* in);
std::optional<Result> triangle_measures(const double* in);
std::optional<Result> polygon_measures(const double* in);

/// The bands, ku > 0, with delta = ku M, ku = K u (u = 2^-24 for float
/// inputs, 2^-53 for doubles): true or false where the
/// family's rational band computation certainly says so, else nullopt.
/// exact_answer is the exact answer's index (some bands depend on it).
std::optional<bool> ray_triangle_in_band(const double* in, double ku);
std::optional<bool> ray_aabb_in_band(const double* in, bool segment, double ku);
std::optional<bool> aabb_plane_in_band(const double* in, double ku);
std::optional<bool> aabb_aabb_in_band(const double* in, int exact_answer, double ku);
std::optional<bool> sphere_aabb_in_band(const double* in, double ku);
std::optional<bool> moving_aabb_in_band(const double* in, double ku);
std::optional<bool> moving_aabb_plane_in_band(const double* in, double ku);
std::optional<bool> triangle_measures_in_band(const double* in, int exact_answer, double ku);
std::optional<bool> polygon_measures_in_band(const double* in, double ku);

/// Planted wrong oracles, one per family, for the properties that must
/// catch them: every sign decided in plain double (aabb_aabb, which needs no
/// arithmetic: touching boxes called disjoint). Never used to judge.
namespace wrong {
Result ray_triangle(const double* in);
Result ray_aabb(const double* in, bool segment);
Result aabb_plane(const double* in);
Result aabb_plane_overlap(const double* in);
Result aabb_aabb(const double* in);
Result sphere_aabb(const double* in);
Result moving_aabb(const double* in);
Result moving_aabb_plane(const double* in);
Result transformed_aabb(const double* in);
Result triangle_measures(const double* in);
Result polygon_measures(const double* in);
}  // namespace wrong

}  // namespace isect::ref::fast
