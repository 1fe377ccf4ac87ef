// Exact inputs for the references: every float is a rational number, and the
// references decide the truth on those rationals.
#pragma once

#include <array>
#include <boost/multiprecision/gmp.hpp>

namespace isect::ref {

/// An exact rational number (GMP's mpq_t behind Boost.Multiprecision).
using Rational = boost::multiprecision::mpq_rational;
/// An exact point or vector.
using Point = std::array<Rational, 3>;

/// The exact value of a float (finite only; the caller checks).
inline Rational exact(float x) { return Rational(double(x)); }

/// The exact values of three floats.
inline Point exact(const std::array<float, 3>& p) { return {exact(p[0]), exact(p[1]), exact(p[2])}; }

}  // namespace isect::ref
