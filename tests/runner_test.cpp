// The check engine: it reports what it sees, and simplification keeps the
// failure while making the numbers readable.
#include <gtest/gtest.h>

#include "isect/check/runner.hpp"

namespace isect::check {
namespace {

TEST(Runner, builtinKernelsHoldOnAFixedSeed) {
    CheckOptions options;
    options.max_cases = 3000;
    options.seed = 7;
    const CheckReport report = run_aabb_triangle_check(aabb_triangle_kernels(), options);
    EXPECT_EQ(report.cases, 3000u);
    EXPECT_EQ(report.reference_mismatches, 0u);
    for (const KernelReport& k : report.kernels) {
        EXPECT_EQ(k.tried, 3000u);
        EXPECT_TRUE(k.holds()) << k.name;
    }
    EXPECT_EQ(report.mix.size(), aabb_triangle_gen_kinds().size());
}

TEST(Runner, sameSeedSameCases) {
    CheckOptions options;
    options.max_cases = 500;
    options.seed = 99;
    const CheckReport a = run_aabb_triangle_check(aabb_triangle_kernels(), options);
    const CheckReport b = run_aabb_triangle_check(aabb_triangle_kernels(), options);
    EXPECT_EQ(a.mix, b.mix);
    EXPECT_EQ(a.kernels[1].false_hits, b.kernels[1].false_hits);
}

TEST(Runner, simplifyKeepsTheFailureAndRoundsTheRest) {
    AabbTriangleInput in;
    in.box = {{-1.2345678f, -2.5f, 0.1f}, {3.3333333f, 4.75f, 9.9f}};
    in.tri.v = {{{0.3f, 0.7f, 12.125f}, {5.55f, -6.1f, 7.0f}, {8.8f, 9.1f, -0.2f}}};
    // The "failure": the third vertex's x is at least 8.
    const auto fails = [](const AabbTriangleInput& t) { return t.tri.v[2][0] >= 8; };
    const AabbTriangleInput s = simplify(in, fails);
    EXPECT_TRUE(fails(s));
    EXPECT_EQ(s.tri.v[2][0], 8.0f);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(s.box.lo[i], 0.0f);
        EXPECT_EQ(s.box.hi[i], 0.0f);
    }
}

}  // namespace
}  // namespace isect::check
