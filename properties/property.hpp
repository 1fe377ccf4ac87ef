// Running a RapidCheck property with a case count of its own, from a gtest.
// RC_GTEST_PROP takes its count from RC_PARAMS; the properties here need
// different counts (10^5 for the reference cross-check, fewer where every case
// costs a band search), and the fixture tests need to see a property fail.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/Configuration.h>
#include <sstream>

namespace isect::props {

/// Checks a property on at least `cases` cases (more if RC_PARAMS asks) and
/// returns RapidCheck's result, without failing the current test.
template <class Testable> rc::detail::TestResult run_property(int cases, Testable&& testable) {
    rc::detail::TestParams params = rc::detail::configuration().testParams;
    params.maxSuccess = std::max(params.maxSuccess, cases);
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
    const auto result = run_property(cases, std::forward<Testable>(testable));
    if (result.template is<rc::detail::SuccessResult>())
        std::cout << describe(result) << std::endl;
    else
        ADD_FAILURE() << describe(result);
}

/// A property that must fail (a deliberately broken kernel): passes when
/// RapidCheck finds a counterexample, and prints the shrunk one.
template <class Testable> void expect_property_fails(int cases, Testable&& testable) {
    const auto result = run_property(cases, std::forward<Testable>(testable));
    if (result.template is<rc::detail::FailureResult>())
        std::cout << "caught, as it should be:\n" << describe(result) << std::endl;
    else
        ADD_FAILURE() << "the property did not catch the broken kernel:\n" << describe(result);
}

}  // namespace isect::props
