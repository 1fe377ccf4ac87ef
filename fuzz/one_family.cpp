// The registry of one fuzz target: its own family only (ISECT_FUZZ_FAMILY,
// set per target by fuzz/CMakeLists.txt), in place of the library's
// check/model/registry.cpp. The other families' code is then not linked in,
// nor its coverage counters, which libFuzzer scans and clears on every run:
// with all eighteen families' counters that was a third of a target's time.
#include "check/model/family.hpp"

#define ISECT_FUZZ_CAT(a, b) a##b
#define ISECT_FUZZ_FAMILY_OF(name) ISECT_FUZZ_CAT(name, _family)

namespace isect::check {

const std::vector<const Family*>& families() {
    static const std::vector<const Family*> one = {&ISECT_FUZZ_FAMILY_OF(ISECT_FUZZ_FAMILY)()};
    return one;
}

}  // namespace isect::check
