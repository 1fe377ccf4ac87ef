// The declared domain of a check: the input magnitudes a user's kernel is
// meant for. Every nonzero finite input x of a judged case has
// lo <= |x| <= hi, but a parameter's (a ray's tmax: FLT_MAX is how engines
// say "unbounded", and its magnitude is not the geometry's); zeros (of
// either sign) are always in, and so are the exact degeneracies built from
// them. The default is every finite number of the run's precision (float or
// double).
//
// A domain narrows what is generated, fuzzed and minimised; it never widens
// a contract: the band stays relative to the largest input magnitude, so an
// input mixing scales inside [lo, hi] is judged as strictly as before.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace isect::check {

struct Family;
enum class Precision;

struct Domain {
    double lo = 0;      ///< least nonzero magnitude (0: subnormals included)
    double hi = HUGE_VAL;  ///< greatest magnitude (+inf: every finite number)
    /// Declared preconditions (--require; preconditions.hpp), by name: a
    /// family judges the inputs that meet those it has.
    std::vector<std::string> required;
    /// Declared conventions (--convention; Family::conventions), by name:
    /// each changes the truth of the families that have it (declared_family).
    std::vector<std::string> conventions;

    /// Whether the magnitudes are the default, every finite number of the
    /// precision.
    bool everything() const;
    /// Whether it narrows anything: magnitudes or preconditions.
    bool narrows() const { return !everything() || !required.empty(); }
    /// The preconditions f has among the required ones, as a list
    /// ("nonzero_direction, proper_triangle"), or "none".
    std::string requires_str(const Family& f) const;
    /// Empty when some nonzero finite number of precision p has a magnitude
    /// in [lo, hi]; else why not ("2^-160:2^-150 holds no float: the least
    /// is 2^-149"). A domain that holds none would judge zeros only, and
    /// every kernel would hold on them.
    std::string holds_none(Precision p) const;
    /// Whether one value is in: zero and non-finite values always are (the
    /// family's own domain decides the latter), others by magnitude.
    bool contains(double x) const;
    /// Empty when every input of f is in the domain and meets every
    /// required precondition f has, else which is not ("dir: '1e-45' is
    /// below the domain 2^-20:2^20", "misses --require nonzero_direction
    /// (which asks dir != 0)").
    std::string outside(const Family& f, const double* in) const;
    /// Whether every input of f is in the domain and meets every required
    /// precondition f has: outside(f, in).empty() without building why.
    bool covers(const Family& f, const double* in) const;
    /// Whether an input is judged at all: inside f's own domain (the one
    /// its references decide) and inside this one. The one in-domain test
    /// of the generators, the minimiser and the commands.
    bool judges(const Family& f, const double* in) const;
    /// "2^-20:2^20", or "every finite float" ("double").
    std::string str() const;
    /// str() and the required preconditions: "2^-20:2^20 requiring
    /// orthonormal_axes" (a built-in kernel's declared domain).
    std::string str_with_requirements() const;

    /// Reads "LO:HI", each a decimal or 2^k ("2^-20:2^20", "1e-6:1e6");
    /// nullopt with a reason when it is not one, or LO > HI, or a bound is
    /// not positive and finite (k in -1074..1023 for 2^k).
    static std::optional<Domain> parse(const std::string& text, std::string& why);

    /// The magnitudes a built-in kernel claims its contract in, written in
    /// its family's file ("2^-20:2^20"); none for nullptr. The text is the
    /// family's own, so a text parse() rejects is a programming error and
    /// throws std::logic_error naming it.
    static std::optional<Domain> declared(const char* text);
};

}  // namespace isect::check
