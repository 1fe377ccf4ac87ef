// Running a RapidCheck property with a case count of its own, from a gtest.
// RC_GTEST_PROP takes its count from RC_PARAMS; the properties here need
// different counts (10^5 for the reference cross-check, fewer where every case
// costs a band search), and the fixture tests need to see a property fail.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/Configuration.h>
#include <cstdlib>
#include <sstream>

#include "check/model/generate.hpp"
#include "check/engine/judge.hpp"
#include "check/model/source.hpp"

namespace isect::props {

/// Choices drawn from RapidCheck, so that its shrinking works on a
/// construction's choices (towards choice 0, the plainest). Uniform over the
/// whole range at every size: RapidCheck's inRange narrows its range with
/// the test's size, which made half the runs draw mostly choice 0 (a planted
/// bug took 15,000 cases to find instead of 2,000).
class RcSource final : public check::Source {
private:
    uint64_t choose(uint64_t n) override {
        return n <= 1 ? 0 : *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<uint64_t>(0, n));
    }
};

/// A family's generated inputs as a RapidCheck generator (one kind, or all).
inline rc::Gen<check::Generated> gen_family(const check::Family& f, const std::string& kind = "",
                                            const check::Domain& domain = {}) {
    return rc::gen::exec([&f, kind, domain] {
        RcSource s;
        return check::generate(f, s, kind, domain);
    });
}

/// The case counts below are for a release build. Sanitizer builds run
/// 50-100 times slower and set ISECT_PROPERTY_SCALE (0.01 say) to scale every
/// count down; at least 100 cases always run.
/// The kernels judged on one input by the one judge (CaseJudge): the fast
/// oracle, and the references on every input, compared with each other and
/// with it; a disagreement among the exact ones fails the property.
inline std::vector<check::FamilyJudgement> judged_case(const check::Family& f, const std::vector<check::FamilyKernel>& ks,
                                                       const check::Inputs& in) {
    check::CaseJudge judge(f, ks, in, check::Oracle::fast, true);
    judge.finish();
    if (!judge.disagreement().empty()) RC_FAIL(f.name + ": the exact ones disagree: " + judge.disagreement());
    return judge.judgements();
}

/// Every family, and every family as each of its conventions declares it
/// (its truth, oracle, band and kernels are then those of the convention).
inline std::vector<const check::Family*> judged_families() {
    std::vector<const check::Family*> out;
    for (const check::Family* f : check::families()) {
        out.push_back(f);
        for (const check::Family::Convention& c : f->conventions) {
            check::Domain declared;
            declared.conventions = {c.name};
            out.push_back(&check::declared_family(*f, declared));
        }
    }
    return out;
}

/// A family's name in a test's: its own, then each convention it follows.
inline std::string family_test_name(const ::testing::TestParamInfo<const check::Family*>& info) {
    std::string name = info.param->name;
    for (const std::string& c : info.param->followed) name += "_" + c;
    return name;
}

inline int scaled(int cases) {
    const char* env = std::getenv("ISECT_PROPERTY_SCALE");
    const double scale = env ? std::atof(env) : 1.0;
    return std::max(100, int(cases * (scale > 0 ? scale : 1.0)));
}

/// Checks a property on at least `cases` cases (more if RC_PARAMS asks) and
/// returns RapidCheck's result, without failing the current test. `shrink`
/// false keeps the first counterexample as found.
template <class Testable> rc::detail::TestResult run_property(int cases, Testable&& testable, bool shrink = true) {
    rc::detail::TestParams params = rc::detail::configuration().testParams;
    params.maxSuccess = std::max(params.maxSuccess, cases);
    if (!shrink) params.disableShrinking = true;
    rc::detail::TestMetadata metadata;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
    metadata.description = info->name();
    return rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
}

/// The result as RapidCheck prints it (counterexample, classification).
inline std::string describe(const rc::detail::TestResult& result) {
    std::ostringstream out;
    rc::detail::printResultMessage(result, out);
    return out.str();
}

/// A property that must hold: fails the test with RapidCheck's message.
template <class Testable> void expect_property(int cases, Testable&& testable) {
    const auto result = run_property(scaled(cases), std::forward<Testable>(testable));
    if (result.template is<rc::detail::SuccessResult>())
        std::cout << describe(result) << std::endl;
    else
        ADD_FAILURE() << describe(result);
}

/// A property that must fail (a deliberately broken kernel): passes when
/// RapidCheck finds a counterexample within `cases` (never scaled: the
/// finding must come that soon on every build), and prints it as found. It is
/// not shrunk: the test asks that the bug be caught, and shrinking a random
/// counterexample took up to 27 s of a sanitizer run (isect's own minimiser,
/// tested on its own, is what makes findings readable).
template <class Testable> void expect_property_fails(int cases, Testable&& testable) {
    const auto result = run_property(cases, std::forward<Testable>(testable), /*shrink=*/false);
    if (result.template is<rc::detail::FailureResult>())
        std::cout << "caught, as it should be:\n" << describe(result) << std::endl;
    else
        ADD_FAILURE() << "the property did not catch the broken kernel:\n" << describe(result);
}

}  // namespace isect::props
