// Numbers as text: how isect writes a float or a double (shortest form
// that names it exactly), and what reading one back relies on.
#include "check/model/number_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include <mpfr.h>

#include "check/model/family.hpp"

namespace isect::check {

/// Whether the number a token writes is exactly the float or double x it
/// was read as: MPFR reads the decimal (or hexfloat) at `bits` of precision
/// (24 or 53) and says whether it had to round, and the value must be x
/// itself (a subnormal has fewer bits than that precision).
bool names_exactly(const std::string& token, double x, int bits) {
    mpfr_t v;
    mpfr_init2(v, bits);
    char* end = nullptr;
    const int rounded = mpfr_strtofr(v, token.c_str(), &end, 0, MPFR_RNDN);
    const bool exact = rounded == 0 && end && *end == '\0' && mpfr_get_d(v, MPFR_RNDN) == x;
    mpfr_clear(v);
    return exact;
}

/// The significant digits of a decimal, without sign, point, exponent, or
/// leading and trailing zeros: "-0.012300e5" -> "123".
std::string significant_digits(const std::string& token) {
    std::string digits;
    for (char c : token) {
        if (c == 'e' || c == 'E') break;
        if (c >= '0' && c <= '9' && !(digits.empty() && c == '0')) digits += c;
    }
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    return digits;
}

namespace {

/// The shortest decimal that reads back as x, unless it is short and not x
/// exactly (5.59544): that one a reader cannot tell from a person's decimal,
/// so it gets all the digits (5.59543991).
template <class T> std::string format_as(T x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    const std::string s = shortest(x);
    if (names_exactly(s, x, Digits<T>::bits) || int(significant_digits(s).size()) >= Digits<T>::enough ||
        std::fabs(x) < std::numeric_limits<T>::min())
        return s;
    return full_digits(x);
}

}  // namespace

std::string format_float(float x) { return format_as(x); }
std::string format_double(double x) { return format_as(x); }

std::string format_number(double x) {
    return precision() == Precision::single ? format_float(float(x)) : format_double(x);
}

}  // namespace isect::check
