// The declared domain of a check: the input magnitudes a user's kernel is
// meant for. Every nonzero finite input x of a judged case has
// lo <= |x| <= hi; zeros (of either sign) are always in, and so are the
// exact degeneracies built from them. The default is every finite float.
//
// A domain narrows what is generated, fuzzed and minimised; it never widens
// a contract: the band stays relative to the largest input magnitude, so an
// input mixing scales inside [lo, hi] is judged as strictly as before.
#pragma once

#include <optional>
#include <string>

namespace isect::check {

struct Family;

struct Domain {
    double lo = 0;      ///< least nonzero magnitude (0: subnormals included)
    double hi = 0x1.fffffep127;  ///< greatest magnitude (FLT_MAX: every finite float)

    /// Whether this is the default, every finite float.
    bool everything() const;
    /// Whether one value is in: zero and non-finite values always are (the
    /// family's own domain decides the latter), others by magnitude.
    bool contains(float x) const;
    /// Empty when every input of f is in the domain, else which is not
    /// ("dir: '1e-45' is below the domain's 2^-20").
    std::string outside(const Family& f, const float* in) const;
    /// "2^-20:2^20", or "every finite float".
    std::string str() const;

    /// Reads "LO:HI", each a decimal or 2^k ("2^-20:2^20", "1e-6:1e6");
    /// nullopt with a reason when it is not one, or LO > HI, or a bound is
    /// not positive and finite.
    static std::optional<Domain> parse(const std::string& text, std::string& why);
};

}  // namespace isect::check
