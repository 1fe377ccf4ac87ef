// How `isect check` prints its report.
#pragma once

#include <ostream>

#include "isect/check/runner.hpp"

namespace isect::tool {

/// The per-kernel table and the mix, as text.
void print_check_report(std::ostream& out, const check::CheckReport& report, uint64_t seed);

}  // namespace isect::tool
