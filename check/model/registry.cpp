// The registry of families, made from the one list of them (families.def).
// Its own file so that a fuzz target can link a registry of one family
// instead (fuzz/one_family.cpp), and with it none of the others' code.
#include "check/model/family.hpp"

namespace isect::check {

const std::vector<const Family*>& families() {
    static const std::vector<const Family*> all = {
#define ISECT_FAMILY(name) &name##_family(),
#include "check/model/families.def"
#undef ISECT_FAMILY
    };
    return all;
}

}  // namespace isect::check
