// Exact inputs for the references: every float is a rational number, and the
// references decide the truth on those rationals.
#pragma once

#include <array>
#include <boost/multiprecision/gmp.hpp>

#include "isect/primitives.hpp"

namespace isect::ref {

/// An exact rational number (GMP's mpq_t behind Boost.Multiprecision).
using Rational = boost::multiprecision::mpq_rational;
/// An exact point or vector.
using Point = std::array<Rational, 3>;

/// A closed box with rational corners; empty when lo > hi on some axis.
struct ExactAabb {
    Point lo, hi;
};

/// The exact value of a float or a double (finite only; the caller checks).
inline Rational exact(double x) { return Rational(x); }

/// The exact values of three floats or doubles.
template <class T> Point exact(const std::array<T, 3>& p) { return {exact(double(p[0])), exact(double(p[1])), exact(double(p[2]))}; }

/// The exact box of a float or double box.
template <class T> ExactAabb exact(const BasicAabb<T>& b) { return {exact(b.lo), exact(b.hi)}; }

/// The box grown by delta on every side (shrunk when delta < 0; it may then
/// be empty).
inline ExactAabb grown(const ExactAabb& b, const Rational& delta) {
    ExactAabb g = b;
    for (int i = 0; i < 3; ++i) {
        g.lo[i] -= delta;
        g.hi[i] += delta;
    }
    return g;
}

/// Whether lo > hi on some axis.
inline bool is_empty(const ExactAabb& b) {
    return b.lo[0] > b.hi[0] || b.lo[1] > b.hi[1] || b.lo[2] > b.hi[2];
}

inline Rational dot(const Point& a, const Point& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline Point sub(const Point& a, const Point& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Point cross(const Point& a, const Point& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

/// A double within one ulp of r (GMP truncates towards zero).
inline double to_double(const Rational& r) { return r.convert_to<double>(); }

}  // namespace isect::ref
