// What reading and writing numbers as text share (number_text.cpp);
// format_float, format_double and format_number are declared in family.hpp.
#pragma once

#include <charconv>
#include <cstdio>
#include <string>

namespace isect::check {

/// What the text form of a float or a double depends on: its mantissa bits,
/// the digits that always name it (%.9g, %.17g), and the digits from which
/// its shortest round-trip form is taken as naming it.
template <class T> struct Digits;
template <> struct Digits<float> {
    static constexpr int bits = 24, full = 9, enough = 7;
};
template <> struct Digits<double> {
    static constexpr int bits = 53, full = 17, enough = 15;
};

template <class T> std::string shortest(T x) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, r.ptr);
}
template <class T> std::string full_digits(T x) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.*g", Digits<T>::full, double(x));
    return buf;
}

/// Whether the number a token writes is exactly x (MPFR reads it at `bits`
/// of precision, 24 or 53, and says whether it had to round).
bool names_exactly(const std::string& token, double x, int bits);

/// The significant digits of a decimal, without sign, point, exponent, or
/// leading and trailing zeros: "-0.012300e5" -> "123".
std::string significant_digits(const std::string& token);

}  // namespace isect::check
