// The claims every family of the generic engine makes, as RapidCheck
// properties over its generators (shrunk counterexamples print as case
// files): the two references agree; every built-in kernel keeps its
// contract, answer and numbers; every planted bug is caught.
#include <rapidcheck.h>

#include "isect/check/family.hpp"
#include "property.hpp"

namespace isect::check {

/// How RapidCheck shows a generated input: as a case a person can paste.
void showValue(const Generated& g, std::ostream& os) {
    os << "(" << g.kind << ")\n";
    if (g.family) os << show_family_input(*g.family, g.in);
}

namespace {

class FamilyProperty : public ::testing::TestWithParam<const Family*> {};

TEST_P(FamilyProperty, referencesAgreeOnEveryGeneratedInput) {
    const Family& f = *GetParam();
    props::expect_property(20000, [&] {
        const Generated g = *f.gen("");
        RC_TAG(g.kind);
        try {
            f.truth(g.in.data());
        } catch (const ReferenceMismatch& e) {
            RC_FAIL(e.what());
        }
    });
}

TEST_P(FamilyProperty, builtinKernelsKeepTheirContracts) {
    const Family& f = *GetParam();
    const std::vector<FamilyKernel> kernels = f.kernels();
    props::expect_property(20000, [&] {
        const Generated g = *f.gen("");
        RC_TAG(g.kind);
        const Truth truth = f.truth(g.in.data());
        for (const FamilyKernel& k : kernels) {
            const FamilyJudgement j = judge(f, k, g.in, truth);
            if (j.violates) RC_FAIL(k.name + " (" + k.contract.str() + "): " + j.why);
        }
    });
}

TEST_P(FamilyProperty, plantedBugsBreakTheirContracts) {
    const Family& f = *GetParam();
    for (const FamilyKernel& k : f.broken()) {
        SCOPED_TRACE(k.name);
        props::expect_property_fails(200000, [&] {
            const Generated g = *f.gen("");
            RC_ASSERT(!judge(f, k, g.in, f.truth(g.in.data())).violates);
        });
    }
}

std::string name_of(const ::testing::TestParamInfo<const Family*>& info) { return info.param->name; }

INSTANTIATE_TEST_SUITE_P(Families, FamilyProperty, ::testing::ValuesIn(families()), name_of);

}  // namespace
}  // namespace isect::check
