// Contracts: what a kernel promises about its disagreements with the exact
// answer of a yes/no test.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

namespace isect::check {

/// exact: never differs. conservative: never a false miss. tolerant=K: may
/// differ only where moving the inputs by delta = K u M (M the largest
/// input magnitude) could flip the exact answer; each family says which
/// inputs move. conservative=K: false hits anywhere, false misses only
/// inside tolerant=K's band (a test padded against its own rounding, whose
/// padding is not bounded by any K, but whose misses are).
struct Contract {
    enum class Kind { exact, conservative, tolerant };
    Kind kind = Kind::exact;
    double k = 0;  ///< the band's multiplier: tolerant=K, conservative=K (0: none)

    /// tolerant=K or conservative=K with K > 0: some differences are
    /// allowed inside the band of K.
    bool has_band() const { return kind != Kind::exact && k > 0; }

    /// "exact", "conservative", "conservative=K" or "tolerant=K", as the command line takes it.
    std::string str() const;
    static Contract exact() { return {}; }
    static Contract tolerant(double k) { return {Kind::tolerant, k}; }
    static Contract conservative(double k = 0) { return {Kind::conservative, k}; }

    /// Parses str()'s forms; nullopt on anything else (K must be finite, >= 0).
    static std::optional<Contract> parse(const std::string& text);
};

/// K formatted the way reports and case files show it: 0, inf, or three
/// significant digits.
std::string format_k(double k);

}  // namespace isect::check
