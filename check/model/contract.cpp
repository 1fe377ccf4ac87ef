#include "check/model/contract.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace isect::check {

namespace {

/// str(), formatted.
std::string written(const Contract& c) {
    switch (c.kind) {
        case Contract::Kind::exact: return "exact";
        case Contract::Kind::conservative: return c.k > 0 ? "conservative=" + format_k(c.k) : "conservative";
        case Contract::Kind::tolerant: return "tolerant=" + format_k(c.k);
    }
    return "?";
}

}  // namespace

std::string Contract::str() const {
    // The last contract written, kept per thread: every violation's class
    // names its kernel's contract, and formatting K took a fortieth of a
    // broken kernel's run.
    thread_local Contract last{Kind::exact, -1};
    thread_local std::string text;
    if (last.kind == kind && last.k == k) return text;
    text = written(*this);
    last = *this;
    return text;
}

std::optional<Contract> Contract::parse(const std::string& text) {
    if (text == "exact") return Contract{Kind::exact, 0};
    if (text == "conservative") return Contract{Kind::conservative, 0};
    for (const Kind kind : {Kind::conservative, Kind::tolerant}) {
        const std::string prefix = kind == Kind::tolerant ? "tolerant=" : "conservative=";
        if (text.compare(0, prefix.size(), prefix) != 0 || text.size() == prefix.size()) continue;
        const char* begin = text.c_str() + prefix.size();
        char* end = nullptr;
        const double k = std::strtod(begin, &end);
        if (*end != '\0' || !std::isfinite(k) || k < 0) return std::nullopt;
        return Contract{kind, k};
    }
    return std::nullopt;
}

std::string format_k(double k) {
    if (k == 0) return "0";
    if (std::isinf(k)) return "inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", k);
    return buf;
}

}  // namespace isect::check
