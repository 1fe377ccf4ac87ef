// Ranges of the command line's numbers: a flag outside its range is a usage
// error naming the flag and the range (exit 2), never a run that judges
// nothing or runs forever (`--cases -5` once wrapped to 2^64 - 5).
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace isect::tool {

/// A whole number in [lo, hi], written in decimal digits (a sign is not a
/// digit: -1 is refused, not wrapped).
inline CLI::Validator whole_in(uint64_t lo, uint64_t hi) {
    const std::string range = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return "'" + text + "' is not " + range;
            errno = 0;
            const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
            if (errno == ERANGE || v < lo || v > hi) return "'" + text + "' is not " + range;
            return "";
        },
        range);
}

/// A finite number in [lo, hi], or in (lo, hi] when lo_open: NaN and the
/// infinities are refused.
inline CLI::Validator real_in(double lo, double hi, bool lo_open = false) {
    char text_range[96];
    std::snprintf(text_range, sizeof text_range, "a number %s %g and at most %g", lo_open ? "above" : "of at least", lo, hi);
    const std::string range = text_range;
    return CLI::Validator(
        [lo, hi, lo_open, range](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !std::isfinite(v) || v > hi || (lo_open ? !(v > lo) : !(v >= lo)))
                return "'" + text + "' is not " + range;
            return "";
        },
        range);
}

}  // namespace isect::tool
