// Floating-point helpers shared by the isect kernels.
//
// Error bounds follow Higham's notation, as pbrt-v4 does: a computation with
// n roundings in double precision is off by at most gamma(n) times the sum of
// the magnitudes it combined, where gamma(n) = n*u / (1 - n*u) and u = 2^-53.
// Kernels take floats and compute in double: a product of three values of
// float range (|x| <= 2^128, |x| >= 2^-149 unless zero) lies between 2^-447
// and 2^387, so it neither overflows nor underflows in double, and the
// relative error model holds for every finite float input.
#pragma once

#include <array>
#include <cmath>
#include <limits>

namespace isect {

/// Three floats: a point or a vector, as callers store them.
using Vec3f = std::array<float, 3>;
/// Three doubles: what kernels compute in.
using Vec3d = std::array<double, 3>;

/// Unit roundoff of double precision, 2^-53.
inline constexpr double kDoubleUnitRoundoff = std::numeric_limits<double>::epsilon() * 0.5;

/// gamma(n) = n u / (1 - n u): the relative error bound of n chained double
/// roundings. Rounded up by one more ulp factor so the constant itself is an
/// upper bound even after its own rounding.
constexpr double gamma(int n) {
    return (n * kDoubleUnitRoundoff) / (1 - n * kDoubleUnitRoundoff) * (1 + 2 * kDoubleUnitRoundoff);
}

/// The vector from a to b, in double.
inline Vec3d sub(const Vec3f& b, const Vec3f& a) {
    return {double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
}

/// The vector from a to b, in double (rounded once per component).
inline Vec3d sub(const Vec3d& b, const Vec3d& a) { return {b[0] - a[0], b[1] - a[1], b[2] - a[2]}; }

/// Cross product in double; each component is a difference of two products.
inline Vec3d cross(const Vec3d& a, const Vec3d& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

/// Dot product in double, summed left to right (three roundings of the sum).
inline double dot(const Vec3d& a, const Vec3d& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/// The permanents of cross and dot: every product's magnitude, summed. A
/// sum of products computed in double is within gamma(n) of its permanent.
inline Vec3d abs_cross(const Vec3d& a, const Vec3d& b) {
    return {std::fabs(a[1] * b[2]) + std::fabs(a[2] * b[1]), std::fabs(a[2] * b[0]) + std::fabs(a[0] * b[2]),
            std::fabs(a[0] * b[1]) + std::fabs(a[1] * b[0])};
}
inline double abs_dot(const Vec3d& a, const Vec3d& b) {
    return std::fabs(a[0] * b[0]) + std::fabs(a[1] * b[1]) + std::fabs(a[2] * b[2]);
}

/// Smaller and larger of two values, as one minsd/maxsd each. With a NaN the
/// comparison is false and the second operand wins: outside the finite domain
/// callers get a value, not a promise.
template <class T> inline T min2(T a, T b) { return a < b ? a : b; }
template <class T> inline T max2(T a, T b) { return a > b ? a : b; }
template <class T> inline T min3(T a, T b, T c) { return min2(min2(a, b), c); }
template <class T> inline T max3(T a, T b, T c) { return max2(max2(a, b), c); }

}  // namespace isect
