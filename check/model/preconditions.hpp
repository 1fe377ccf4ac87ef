// Preconditions a kernel may declare: what it needs of its input beyond the
// family's domain, as its author writes it down (a nonzero or unit
// direction, a proper triangle, boxes with extent, a positive radius, a
// finite tmax). `--require a,b` (or a plugin's isect_requires()) narrows
// what is generated, fuzzed, minimised and replayed to the inputs that meet
// them; it never changes the truth. Each family lists the ones that make
// sense for it (`isect kernels`); each precondition knows how to adapt a
// generated input that misses it with as small a change as it can, so that
// a family's constructions survive (a zero direction becomes an axis, a
// collapsed triangle has a vertex moved an ulp off its line).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace isect::check {

struct Family;
struct Domain;
class Source;

struct Precondition {
    std::string name;  ///< as --require takes it: "nonzero_direction"
    std::string says;  ///< what it asks, for isect kernels and reports: "dir != 0"
    /// Whether missing it is a degeneracy (a zero direction, a collapsed
    /// triangle, a flat box, a zero radius): witnesses avoid those when
    /// their class has a member that is not degenerate.
    bool degeneracy = false;
    std::function<bool(const double*)> holds;
    /// How far the input may lie from what the precondition idealises, in
    /// units of u relative to the key's own magnitude (a row of three for a
    /// key of nine): a kernel may compute as if it were ideal (a unit vector
    /// as exactly unit, axes as exactly orthonormal), so a run that declares
    /// it moves the key by this much more in the band and in the number
    /// scales that read it (declared_family). 0 for an exact precondition.
    double slack = 0;
    size_t at = 0, count = 0;  ///< the key it is about (slack > 0)
    /// Changes an input that does not meet it, every value staying in the
    /// run's precision and, where it can, in the domain's magnitudes.
    std::function<void(double*, Source&, const Domain&)> adapt;
};

namespace preconditions {

/// The vector at `key` (3 values) is not zero.
Precondition nonzero_vector(const Family& f, const std::string& name, const std::string& key);
/// The vector at `key` has length 1 within 16 u (relative).
Precondition unit_vector(const Family& f, const std::string& name, const std::string& key);
/// The three rows of the 3x3 matrix at `key` (9 values, an oriented box's
/// axes) are orthonormal within 16 u: every a_i . a_j within 32 u of
/// [i == j]. Adapted by Gram-Schmidt in double, rounded.
Precondition orthonormal_rows(const Family& f, const std::string& name, const std::string& key);
/// Each pair of points (keys of 3 values: a segment's two ends) differs:
/// segments of nonzero length, as MathGeoLib asserts of its segments.
/// Adapted by moving an end an ulp along one axis.
Precondition distinct_points(const Family& f, const std::string& name,
                             const std::vector<std::pair<std::string, std::string>>& pairs);
/// The triangle at `key` (9 values) has nonzero area, exactly (a sliver is
/// proper): settled in double where it can be, by rationals where not.
/// Adapted by moving a vertex an ulp off the line (two moves for a point
/// triangle), which makes the area exactly nonzero: no retries.
Precondition proper_triangle(const Family& f, const std::string& key);
/// Every box of f (keys X.lo, X.hi) has lo < hi on every axis.
Precondition positive_extent(const Family& f);
/// The value at `key` is above zero.
Precondition positive_value(const Family& f, const std::string& name, const std::string& key);
/// The value at `key` is finite.
Precondition finite_value(const Family& f, const std::string& name, const std::string& key);
/// The value at `key` is +inf: a ray without an end, for an API that takes
/// no tmax (glm's intersectRay*, CGAL's Ray_3). Adapted by setting it.
Precondition infinite_value(const Family& f, const std::string& name, const std::string& key);

}  // namespace preconditions

/// Every precondition name some family has, sorted.
std::vector<std::string> known_preconditions();

/// Parses comma-separated names into out (each once): false with why for a
/// name not among known ("'x' is no family's WHAT (a, b, ...)"); `none`, if
/// given, is a name that stands for no name.
bool parse_name_list(const std::string& text, const std::vector<std::string>& known, const std::string& what,
                     const std::string& none, std::vector<std::string>& out, std::string& why);

/// Parses --require's comma-separated names into out; false with why for a
/// name no family has (listing the known ones).
bool parse_requirements(const std::string& text, std::vector<std::string>& out, std::string& why);

}  // namespace isect::check
