// Properties of the aabb_triangle family, as claims.
#include <cstring>
#include <gtest/gtest.h>

#include "isect/check/broken_aabb_triangle.hpp"
#include "isect/check/aabb_triangle.hpp"
#include "isect/check/runner.hpp"
#include "isect/ref/aabb_triangle.hpp"
#include "property.hpp"

namespace isect::check {
/// How gtest names a kernel parameter: by its name, not its bytes.
void PrintTo(const AabbTriangleKernel& k, std::ostream* os) { *os << k.name << " (" << k.contract.str() << ")"; }
}  // namespace isect::check

namespace isect::props {
namespace {

using check::AabbTriangleInput;
using check::AabbTriangleKernel;

const AabbTriangleKernel& builtin(const std::string& name) {
    for (const AabbTriangleKernel& k : check::aabb_triangle_kernels())
        if (k.name == name) return k;
    throw std::invalid_argument(name);
}

bool degenerate(const Triangle& t) {
    const ref::ExactTriangle e = ref::exact(t);
    ref::Point u, v;
    for (int i = 0; i < 3; ++i) {
        u[i] = e.v[1][i] - e.v[0][i];
        v[i] = e.v[2][i] - e.v[0][i];
    }
    return u[1] * v[2] == u[2] * v[1] && u[2] * v[0] == u[0] * v[2] && u[0] * v[1] == u[1] * v[0];
}

bool flat(const Aabb& b) { return b.lo[0] == b.hi[0] || b.lo[1] == b.hi[1] || b.lo[2] == b.hi[2]; }

/// The claim every kernel makes: it keeps its declared contract.
auto keeps_contract(const AabbTriangleKernel& kernel) {
    return [kernel] {
        const AabbTriangleInput in = *check::gen_aabb_triangle();
        RC_TAG(std::string(in.kind));
        const bool exact = check::aabb_triangle_truth(in.box, in.tri);
        RC_CLASSIFY(kernel.fn(in.box, in.tri) != exact, "kernel differs from exact");
        RC_ASSERT(!check::violates(kernel, in, exact));
    };
}

TEST(AabbTriangle, referencesAgreeOnEveryGeneratedCase) {
    expect_property(100000, [] {
        const AabbTriangleInput in = *check::gen_aabb_triangle();
        RC_TAG(std::string(in.kind));
        RC_CLASSIFY(degenerate(in.tri), "degenerate triangle");
        RC_CLASSIFY(flat(in.box), "flat box");
        const ref::ExactAabb box = ref::exact(in.box);
        const ref::ExactTriangle tri = ref::exact(in.tri);
        const bool clip = ref::aabb_triangle_clip(box, tri);
        RC_CLASSIFY(clip, "overlap");
        RC_ASSERT(clip == ref::aabb_triangle_cgal(box, tri));
    });
}

TEST(AabbTriangle, fastOracleAgreesWithTheReferences) {
    expect_property(100000, [] {
        const AabbTriangleInput in = *check::gen_aabb_triangle();
        RC_TAG(std::string(in.kind));
        RC_ASSERT(ref::aabb_triangle_cgal_fast(in.box, in.tri) ==
                  ref::aabb_triangle_clip(ref::exact(in.box), ref::exact(in.tri)));
    });
}

TEST(AabbTriangle, fastBandProofImpliesExactBand) {
    expect_property(20000, [] {
        const AabbTriangleInput in = *check::gen_aabb_triangle();
        const double k = *rc::gen::element(1.0, 0.5, 3.0, 1e-6, 1e3);
        const bool exact = check::aabb_triangle_truth(in.box, in.tri);
        const bool proved = check::aabb_triangle_fast_proves_in_band(in, exact, k);
        RC_CLASSIFY(proved, "proved in band");
        if (proved) RC_ASSERT(check::aabb_triangle_in_band(in.box, in.tri, exact, k));
    });
}

TEST(AabbTriangle, fuzzBytesRoundTripEveryInput) {
    expect_property(20000, [] {
        const AabbTriangleInput in = *check::gen_aabb_triangle();
        const std::vector<uint8_t> bytes = check::encode_aabb_triangle(in);
        RC_ASSERT(bytes.size() == check::kAabbTriangleFuzzBytes);
        const AabbTriangleInput back = check::decode_aabb_triangle(bytes.data(), bytes.size());
        RC_ASSERT(std::memcmp(&back.box, &in.box, sizeof in.box) == 0);
        RC_ASSERT(std::memcmp(&back.tri, &in.tri, sizeof in.tri) == 0);
    });
}

TEST(AabbTriangle, mutatorKeepsTheLayoutAndNeverCrashes) {
    expect_property(20000, [] {
        std::vector<uint8_t> bytes = *rc::gen::container<std::vector<uint8_t>>(rc::gen::arbitrary<uint8_t>());
        const size_t size = bytes.size();
        bytes.resize(std::max<size_t>(size, check::kAabbTriangleFuzzBytes));
        const size_t n = check::mutate_aabb_triangle(bytes.data(), size, bytes.size(), *rc::gen::arbitrary<unsigned>());
        RC_ASSERT(n == check::kAabbTriangleFuzzBytes);
        const AabbTriangleInput in = check::decode_aabb_triangle(bytes.data(), n);
        RC_SUCCEED_IF(!aabb_triangle_in_domain(in.box, in.tri));
        for (int i = 0; i < 3; ++i) RC_ASSERT(in.box.lo[i] <= in.box.hi[i]);
    });
}

TEST(AabbTriangle, satKeepsTolerantContract) { expect_property(20000, keeps_contract(builtin("sat"))); }

TEST(AabbTriangle, conservativeKernelNeverMisses) { expect_property(20000, keeps_contract(builtin("conservative"))); }

TEST(AabbTriangle, exactAnswerInvariantUnderSymmetriesVertexOrderAndPowerOfTwoScaling) {
    expect_property(10000, [] {
        const AabbTriangleInput in = *check::gen_aabb_triangle();
        const check::Symmetry s{*rc::gen::inRange(0, 6), *rc::gen::inRange(0, 8)};
        const int k = *rc::gen::inRange(-40, 41);
        RC_PRE(check::scaling_is_exact(in, k));
        const bool exact = check::aabb_triangle_truth(in.box, in.tri);
        RC_CLASSIFY(exact, "overlap");
        const auto truth = [](const AabbTriangleInput& t) { return check::aabb_triangle_truth(t.box, t.tri); };
        RC_ASSERT(truth(check::apply(s, in)) == exact);
        RC_ASSERT(truth(check::rotate_vertices(in)) == exact);
        RC_ASSERT(truth(check::reverse_vertices(in)) == exact);
        RC_ASSERT(truth(check::scale_pow2(in, k)) == exact);
    });
}

TEST(AabbTriangle, outOfDomainInputIsRefusedByReferencesAndSurvivedByKernels) {
    expect_property(10000, [] {
        const AabbTriangleInput in = *check::gen_aabb_triangle_out_of_domain();
        RC_ASSERT(!aabb_triangle_in_domain(in.box, in.tri));
        RC_ASSERT_THROWS_AS(check::aabb_triangle_truth(in.box, in.tri), std::domain_error);
        // No exact answer to hold them to: they must return, and (checked by
        // the sanitizer builds) without undefined behaviour.
        for (const AabbTriangleKernel& k : check::aabb_triangle_kernels()) {
            const bool a = k.fn(in.box, in.tri);
            RC_ASSERT(a == k.fn(in.box, in.tri));
        }
    });
}

class BrokenKernel : public ::testing::TestWithParam<AabbTriangleKernel> {};

TEST_P(BrokenKernel, isCaughtByItsContractProperty) { expect_property_fails(60000, keeps_contract(GetParam())); }

TEST_P(BrokenKernel, isCaughtByIsectCheck) {
    check::CheckOptions options;
    options.max_cases = 20000;  // not scaled: the finding must come within this many
    options.seed = 1;
    const check::CheckReport report = check::run_aabb_triangle_check({GetParam()}, options);
    ASSERT_EQ(report.kernels.size(), 1u);
    EXPECT_GT(report.kernels[0].violations, 0u) << GetParam().name << " was not caught in 20000 cases";
    if (report.kernels[0].counterexample)
        std::cout << "simplified counterexample for " << GetParam().name << ":\n"
                  << check::format_input(*report.kernels[0].counterexample, report.kernels[0].counterexample_exact,
                                         "isect check")
                  << std::endl;
}

INSTANTIATE_TEST_SUITE_P(AabbTriangle, BrokenKernel, ::testing::ValuesIn(broken::broken_kernels()),
                         [](const auto& p) { return p.param.name.substr(p.param.name.find(':') + 1); });

}  // namespace
}  // namespace isect::props
