// Pieces the family files share: reading primitives out of a flat input,
// domain messages, the band's delta as an exact rational, and how a value's
// error is measured. Private to check/.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "isect/check/case_file.hpp"
#include "isect/check/family.hpp"
#include "isect/primitives.hpp"
#include "isect/ref/exact.hpp"

namespace isect::check::detail {

inline Vec3f vec_at(const float* p) { return {p[0], p[1], p[2]}; }
inline Aabb box_at(const float* p) { return {vec_at(p), vec_at(p + 3)}; }
inline Triangle tri_at(const float* p) { return {{vec_at(p), vec_at(p + 3), vec_at(p + 6)}}; }

/// The first non-finite input, as a domain message naming its key; empty
/// when every input is finite.
inline std::string first_non_finite(const Family& f, const float* in) {
    size_t at = 0;
    for (const InputKey& k : f.inputs)
        for (int i = 0; i < k.count; ++i, ++at)
            if (!std::isfinite(in[at]))
                return k.key + ": '" + format_float(in[at]) + "' is outside the domain of " + f.name +
                       " (finite values only)";
    return {};
}

/// A message when the box at key_lo / key_hi has lo > hi on some axis.
inline std::string box_order(const Family& f, const std::string& key_lo, const std::string& key_hi,
                             const float* in) {
    const Aabb b{vec_at(in + f.offset(key_lo)), vec_at(in + f.offset(key_hi))};
    for (int i = 0; i < 3; ++i)
        if (b.lo[i] > b.hi[i])
            return key_hi + ": '" + format_float(b.hi[i]) + "' is below " + key_lo + " '" + format_float(b.lo[i]) +
                   "' on axis " + "xyz"[i] + " (lo <= hi required)";
    return {};
}

/// delta = K 2^-24 M for the whole input, as an exact rational.
inline ref::Rational exact_delta(const Family& f, const float* in, double k) {
    return ref::Rational(band_delta(Floats(in, in + f.size()), k));
}

/// Error of one output in units of 2^-24 S; NaN output or a NaN scale is
/// +inf. S = 0 (an exact output) makes any difference +inf.
inline double units(double got, double exact, double scale) {
    if (std::isnan(got)) return std::numeric_limits<double>::infinity();
    const double diff = std::fabs(got - exact);
    if (diff == 0) return 0;
    if (!(scale > 0)) return std::numeric_limits<double>::infinity();
    return diff / std::ldexp(scale, -24);
}

/// Keeps the worst output.
inline void worst(ValueError& e, double units_, const std::string& output) {
    if (units_ > e.e || std::isnan(units_)) {
        e.e = std::isnan(units_) ? std::numeric_limits<double>::infinity() : units_;
        e.output = output;
    }
}

/// The answer index of a bool (answers are {no, yes}).
inline int yes(bool b) { return b ? 1 : 0; }

}  // namespace isect::check::detail
