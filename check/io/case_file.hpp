// The case format: one readable file per case, pasted into bug reports and
// replayed by ctest. One key per line, values separated by white space, '#'
// starts a comment. The leading comment says where the case came from.
//
//   # where it came from, in free text
//   family  aabb_triangle
//   box.lo  -10 -10 -10
//   box.hi  10 10 10
//   tri     12 9 9   9 12 9   19 19 20
//   expect  disjoint
//
// Numbers are anything strtof reads (decimal, hexfloat, inf, nan) that names
// a float: overflow to inf and underflow of a nonzero number to zero are
// errors. Writers emit the shortest decimal that reads back to the same float.
// A case of double-precision kernels says `precision double`; its numbers are
// then read as doubles (strtod), the same way.
#pragma once

#include <array>
#include <string>
#include <variant>
#include <vector>

#include "check/model/family.hpp"

namespace isect::check {

/// A case of a generic family: the input, the expected exact answer and,
/// when it carries them, the exact numbers rounded to double.
struct FamilyCase {
    std::string path;
    std::string origin;
    const Family* family = nullptr;
    Precision precision = Precision::single;  ///< `precision double` in the file
    Inputs in;
    int expect = 0;
    std::map<std::string, double> expect_values;     ///< expect.NAME lines
    std::map<std::string, double> expect_tolerance;  ///< expect.NAME X +- TOL: |exact - X| <= TOL
    /// `relation NAME ...`: the case is a witness of these relations (a
    /// claim about several calls: the calls are the case and what the
    /// relation derives from it, its arguments swapped, a larger tmax, its
    /// triangle's neighbours), judged for every kernel that claims them or
    /// is asked to (--relation).
    std::vector<RelationKind> relations;
    /// `neighbour.N` (nine numbers each): the triangles around the case's
    /// that a watertight witness from a mesh was judged against; replay
    /// judges it against them instead of the ones the relation builds.
    std::vector<std::array<double, 9>> neighbours;
    /// Decimals in the file that are not floats and were rounded to one
    /// ("0.1"); errors instead when read strictly.
    std::vector<std::string> warnings;
};

/// The text of a case: origin comment, family, keys, expect and the
/// values; a relation's witness names the relation, and a mesh's watertight
/// witness the triangles around it. Without a truth, the references'; when
/// they disagree the origin says so and expect holds the family's first
/// answer (replay then reports the disagreement).
std::string format_family_case(const Family& f, const Inputs& in, const std::string& origin,
                               const std::optional<Truth>& truth = std::nullopt,
                               std::optional<RelationKind> relation = std::nullopt,
                               const std::vector<std::array<double, 9>>& neighbours = {});

/// Where the exact truth does not reproduce a case's expect and
/// expect.NAME lines; empty when it does.
std::vector<std::string> expectation_problems(const FamilyCase& c, const Truth& truth);

/// Shows an input the way RapidCheck prints counterexamples: as a case.
std::string show_family_input(const Family& f, const Inputs& in);

/// A problem with a case file, located to the line (0 when the whole file).
struct CaseError {
    std::string path;
    int line = 0;
    std::string message;
    /// "path:line: message", as compilers print it ("path: message" for
    /// line 0, an error about the whole file).
    std::string str() const;
};

/// The outcome of reading one file: a case, or every error found in it.
using ReadResult = std::variant<FamilyCase, std::vector<CaseError>>;

/// Parses the text of one case file; path is used only in messages. A
/// number that is not exactly a float ("0.1") is rounded to the nearest one
/// with a warning in the case (FamilyCase::warnings), or is an error when
/// strict.
ReadResult parse_case(const std::string& text, const std::string& path, bool strict = false);

/// Reads and parses one file.
ReadResult read_case_file(const std::string& path, bool strict = false);

/// Expands files and folders (recursively, *.case, sorted) into file paths.
/// A path that does not exist becomes an error.
std::vector<std::string> expand_case_paths(const std::vector<std::string>& args, std::vector<CaseError>& errors);

/// Reads one float as the case format defines it; on failure returns false
/// and says why.
bool parse_float(const std::string& token, float& out, std::string& why);
/// The same for a double.
bool parse_double(const std::string& token, double& out, std::string& why);

}  // namespace isect::check
