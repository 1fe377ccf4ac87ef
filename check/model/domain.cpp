#include "check/model/domain.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "check/model/family.hpp"

namespace isect::check {

namespace {

/// "2^k" when x is a power of two, else the shortest decimal.
std::string bound_str(double x) {
    int e;
    if (std::frexp(x, &e) == 0.5) return "2^" + std::to_string(e - 1);
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);  // the shortest decimal that reads back as x
    return std::string(buf, r.ptr);
}

std::optional<double> parse_bound(const std::string& text) {
    if (text.rfind("2^", 0) == 0) {
        char* end = nullptr;
        const long k = std::strtol(text.c_str() + 2, &end, 10);
        if (end == text.c_str() + 2 || *end != '\0' || k < -1074 || k > 1023) return std::nullopt;
        return std::ldexp(1.0, int(k));
    }
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !std::isfinite(x) || !(x > 0)) return std::nullopt;
    return x;
}

}  // namespace

bool Domain::everything() const {
    const bool single = precision() == Precision::single;
    return lo <= (single ? 0x1p-149 : 0x1p-1074) &&
           hi >= (single ? double(std::numeric_limits<float>::max()) : std::numeric_limits<double>::max());
}

std::string Domain::holds_none(Precision p) const {
    const PrecisionScope scope(p);
    // The least number of the precision at or above lo (lo itself, or the
    // next one up when lo is not one).
    double x = lo <= 0 ? 0x1p-1074 : to_precision(lo);
    if (x < lo) x = next_in_precision(x, INFINITY);
    if (x == 0) x = next_in_precision(0.0, INFINITY);
    if (std::isfinite(x) && x <= greatest_finite() && x <= hi) return {};
    const char* name = precision_name(p);
    const double least = next_in_precision(0.0, INFINITY);
    if (hi < least)
        return str() + " holds no " + name + ": the least is " + bound_str(least) + ", so every nonzero input would be 0";
    if (lo > greatest_finite())
        return str() + " holds no " + name + ": the greatest is " + format_number(greatest_finite());
    return str() + " holds no " + name + ": none lies between its bounds";
}

bool Domain::contains(double x) const {
    if (x == 0 || !std::isfinite(x)) return true;
    const double m = std::fabs(double(x));
    return m >= lo && m <= hi;
}

bool Domain::covers(const Family& f, const double* in) const {
    if (!everything()) {
        size_t at = 0;
        for (const InputKey& k : f.inputs) {
            if (k.role != Role::parameter)
                for (int i = 0; i < k.count; ++i)
                    if (!contains(in[at + size_t(i)])) return false;
            at += size_t(k.count);
        }
    }
    for (const std::string& name : required)
        for (const Precondition& p : f.preconditions)
            if (p.name == name && !p.holds(in)) return false;
    return true;
}

bool Domain::judges(const Family& f, const double* in) const { return f.in_domain(in, nullptr) && covers(f, in); }

std::string Domain::outside(const Family& f, const double* in) const {
    if (!everything()) {
        size_t at = 0;
        for (const InputKey& k : f.inputs)
            for (int i = 0; i < k.count; ++i, ++at)
                if (k.role != Role::parameter && !contains(in[at]))
                    return k.key + ": '" + format_number(in[at]) + "' is " +
                           (std::fabs(double(in[at])) < lo ? "below" : "above") + " the domain " + str();
    }
    for (const std::string& name : required)
        for (const Precondition& p : f.preconditions)
            if (p.name == name && !p.holds(in)) return "misses --require " + name + " (which asks " + p.says + ")";
    return {};
}

std::string Domain::requires_str(const Family& f) const {
    std::string out;
    for (const std::string& name : required)
        for (const Precondition& p : f.preconditions)
            if (p.name == name) out += (out.empty() ? "" : ", ") + name;
    return out.empty() ? "none" : out;
}

std::string Domain::str() const {
    if (everything()) return std::string("every finite ") + precision_name(precision());
    return bound_str(lo) + ":" + bound_str(hi);
}

std::string Domain::str_with_requirements() const {
    std::string out = str();
    for (size_t i = 0; i < required.size(); ++i) out += (i ? ", " : " requiring ") + required[i];
    return out;
}

std::optional<Domain> Domain::declared(const char* text) {
    if (!text) return std::nullopt;
    std::string why;
    std::optional<Domain> d = parse(text, why);
    if (!d) throw std::logic_error("a built-in kernel's declared domain: " + why);
    return d;
}

std::optional<Domain> Domain::parse(const std::string& text, std::string& why) {
    const size_t colon = text.find(':');
    if (colon == std::string::npos) {
        why = "'" + text + "' is not LO:HI (say 2^-20:2^20 or 1e-6:1e6)";
        return std::nullopt;
    }
    const auto lo = parse_bound(text.substr(0, colon)), hi = parse_bound(text.substr(colon + 1));
    if (!lo || !hi) {
        why = "'" + text + "': each bound must be a positive finite decimal or 2^k (k in -1074..1023)";
        return std::nullopt;
    }
    if (*lo > *hi) {
        why = "'" + text + "': LO is above HI";
        return std::nullopt;
    }
    Domain d;
    d.lo = *lo;
    d.hi = *hi;
    return d;
}

}  // namespace isect::check
