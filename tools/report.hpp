// How `isect check` prints its report.
#pragma once

#include <ostream>

#include "isect/check/family.hpp"
#include "isect/check/runner.hpp"

namespace isect::tool {

/// The per-kernel table and the mix, as text.
void print_check_report(std::ostream& out, const check::CheckReport& report, uint64_t seed);

/// The same for a family of the generic engine: per kernel, wrong answers,
/// how many were in band, the measured K and the measured error E of the
/// numbers.
void print_family_report(std::ostream& out, const check::Family& f, const check::FamilyCheckReport& report,
                         uint64_t seed);

}  // namespace isect::tool
