// Every family of the generic engine, the same way: the references agree and
// the built-in kernels keep their contracts on a fixed seed; every planted
// bug is caught; a case written by the engine reads back and replays; bad
// case files are refused with the line that is wrong.
#include <gtest/gtest.h>

#include "check/io/case_file.hpp"
#include "check/model/domain.hpp"
#include "check/model/family.hpp"
#include "check/engine/judge.hpp"
#include "check/engine/relation.hpp"
#include "check/engine/run.hpp"
#include "check/engine/witness.hpp"
#include "check/model/generate.hpp"

namespace isect::check {
namespace {

class EachFamily : public ::testing::TestWithParam<const Family*> {};

TEST_P(EachFamily, builtinKernelsHoldAndReferencesAgreeOnAFixedSeed) {
    const Family& f = *GetParam();
    FamilyCheckOptions options;
    options.stream.max_cases = 4000;
    options.stream.seed = 11;
    const std::vector<FamilyKernel> kernels = f.kernels();
    // And every relation each claims.
    for (size_t i = 0; i < kernels.size(); ++i)
        for (const RelationKind kind : kernels[i].relations)
            if (relation_unsupported(f, kind).empty()) options.relations.push_back({kind, i, i, 0});
    const FamilyCheckReport report = run_family_check(f, kernels, options);
    EXPECT_EQ(report.reference_mismatches, 0u) << report.mismatch_message;
    EXPECT_EQ(report.mix.size(), gen_kinds(f).size());
    for (const FamilyKernelReport& k : report.kernels)
        EXPECT_TRUE(k.holds()) << k.name << ": " << (k.classes.empty() ? "" : k.classes[0].why);
    for (const RelationReport& r : report.relations)
        EXPECT_TRUE(r.holds()) << r.subject << " " << relation_name(r.relation) << ": " << (r.classes.empty() ? "" : r.classes[0].why);
}

TEST_P(EachFamily, everyPlantedBugIsCaught) {
    const Family& f = *GetParam();
    ASSERT_FALSE(f.broken().empty()) << "every family needs a broken kernel that the checker must catch";
    for (const FamilyKernel& k : f.broken()) {
        FamilyCheckOptions options;
        options.stream.max_cases = 200000;
        options.stream.seed = 5;
        options.stop_at_first = true;
        // The relations it claims are judged, as isect check judges them.
        for (const RelationKind kind : k.relations)
            if (relation_unsupported(f, kind).empty()) options.relations.push_back({kind, 0, 0, 0});
        const FamilyCheckReport report = run_family_check(f, {k}, options);
        ASSERT_EQ(report.kernels.size(), 1u);
        EXPECT_FALSE(report.holds()) << k.name << " was not caught in " << report.cases << " cases";
        for (size_t r = 0; r < report.relations.size(); ++r)
            for (const FailureClass& c : report.relations[r].classes) {
                // Each relation class's witness still breaks it, in its class.
                const auto b = judge_relation(f, options.relations[r], {k}, c.witness);
                ASSERT_TRUE(b.has_value()) << k.name << " " << c.key.str();
                EXPECT_EQ(b->key.str(), c.key.str()) << k.name;
            }
        for (const FailureClass& c : report.kernels[0].classes) {
            // Each class's minimised witness still fails, in its class.
            const Truth truth = f.truth(c.witness.data());
            const FamilyJudgement j = judge(f, k, c.witness, truth);
            EXPECT_TRUE(j.violates) << k.name;
            EXPECT_EQ(violation_class(f, k, c.witness, truth, j).str(), c.key.str()) << k.name;
        }
    }
}

TEST_P(EachFamily, writtenCasesReadBackAndReplay) {
    const Family& f = *GetParam();
    RandomSource source(3);
    for (int i = 0; i < 200; ++i) {
        const Inputs in = generate(f, source).in;
        const Truth truth = f.truth(in.data());
        const std::string text = format_family_case(f, in, "a test", truth);
        const ReadResult r = parse_case(text, "t.case");
        ASSERT_TRUE(std::holds_alternative<FamilyCase>(r)) << text << std::get<std::vector<CaseError>>(r)[0].str();
        const FamilyCase& c = std::get<FamilyCase>(r);
        EXPECT_EQ(c.family, &f);
        for (size_t j = 0; j < in.size(); ++j) EXPECT_EQ(std::signbit(c.in[j]), std::signbit(in[j])) << text;
        EXPECT_EQ(c.in, in) << text;
        EXPECT_EQ(c.expect, truth.answer);
        EXPECT_TRUE(expectation_problems(c, f.truth(c.in.data())).empty()) << text;
    }
}

TEST_P(EachFamily, outOfDomainCasesNameTheirLine) {
    const Family& f = *GetParam();
    RandomSource source(4);
    Inputs in = generate(f, source).in;
    in.back() = std::numeric_limits<float>::quiet_NaN();
    const std::string text = format_family_case(f, in, "", Truth{});
    const ReadResult r = parse_case(text, "t.case");
    ASSERT_TRUE(std::holds_alternative<std::vector<CaseError>>(r)) << text;
    const CaseError& e = std::get<std::vector<CaseError>>(r)[0];
    EXPECT_EQ(e.line, int(f.inputs.size()) + 1) << e.str();
    EXPECT_NE(e.message.find("'nan'"), std::string::npos) << e.str();
}

TEST_P(EachFamily, kernelsSurviveSpecialValues) {
    // NaN, infinities, subnormals and signed zeros in every slot: no crash,
    // and an answer the family knows (sanitizer builds check the rest).
    const Family& f = *GetParam();
    const float specials[] = {std::numeric_limits<float>::quiet_NaN(), INFINITY, -INFINITY, 0.0f, -0.0f,
                              std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::max(), 1.0f};
    std::vector<FamilyKernel> all = f.kernels();
    for (const FamilyKernel& k : f.broken()) all.push_back(k);
    for (size_t slot = 0; slot < f.size(); ++slot)
        for (float s : specials) {
            Inputs in(f.size(), 1.0f);
            in[slot] = s;
            for (const FamilyKernel& k : all) {
                const Answer a = k.fn(in.data());
                EXPECT_GE(a.answer, 0) << k.name;
                EXPECT_LT(a.answer, int(f.answers.size())) << k.name;
            }
        }
}

std::string name_of(const ::testing::TestParamInfo<const Family*>& info) { return info.param->name; }

INSTANTIATE_TEST_SUITE_P(Families, EachFamily, ::testing::ValuesIn(families()), name_of);

TEST(FamilyCaseFile, refusesBadValuesWithTheirLine) {
    const std::string text =
        "family aabb_plane\nbox.lo 0 0 0\nbox.hi 1 1 1\nn 0 0 0\nd 1\nexpect front\n";
    const ReadResult r = parse_case(text, "p.case");
    ASSERT_TRUE(std::holds_alternative<std::vector<CaseError>>(r));
    EXPECT_EQ(std::get<std::vector<CaseError>>(r)[0].str(),
              "p.case:4: n: '0 0 0' is outside the domain of aabb_plane (n = 0 is no plane)");
    const ReadResult bad = parse_case("family aabb_plane\nbox.lo 0 0\nbox.hi 1 1 1\nn 1 0 0\nd x\nexpect up\n", "p.case");
    const auto& errors = std::get<std::vector<CaseError>>(bad);
    ASSERT_EQ(errors.size(), 3u);
    EXPECT_EQ(errors[0].str(), "p.case:2: box.lo: takes 3 numbers, found 2");
    EXPECT_EQ(errors[1].str(), "p.case:5: d: 'x' is not a number");
    EXPECT_EQ(errors[2].str(), "p.case:6: expect: 'up' is not one of 'back', 'straddle', 'front'");
}

// The minimiser keeps every value a number of the run's precision: the
// fewer-bits candidate of FLT_MAX is 2^128, a finite double that a case file
// can only write as inf (a clean-clone run of isect fuzz wrote such a case,
// which replay then refused as outside the domain).
TEST(Simplify, staysInTheRunsPrecision) {
    const Family& f = aabb_aabb_family();
    const float big = std::numeric_limits<float>::max();
    const Inputs in = {-big, -big, -big, big, big, big, 0, 0, 0, 1, 1, 1};
    const auto in_domain = [&](const Inputs& t) { return f.in_domain(t.data(), nullptr); };
    const Inputs out = simplify_floats(in, in_domain, [](const Inputs& t) { return std::fabs(t[3]) > 1e38; });
    for (double x : out) EXPECT_EQ(double(float(x)), x) << x;
    EXPECT_GT(std::fabs(out[3]), 1e38);
    {
        const PrecisionScope scope(Precision::double_);  // a double run may go to 2^128
        const Inputs wide = simplify_floats(in, in_domain, [](const Inputs& t) { return std::fabs(t[3]) > 3e38; });
        EXPECT_EQ(wide[3], std::ldexp(1.0, 128));
    }
}

// conservative=K: false hits anywhere, false misses only inside tolerant=K's
// band. Two obb_obb inputs: boxes 1.5e-3 apart across a near-parallel
// edge-edge axis (a false hit that needs K = 1072 by the band, 1282 by the
// witness search, its axes moved by K u
// relative to their own length: Gottschalk's epsilon
// does this), and a box A whose axis is 8 u longer than 1 touching a point
// (a false miss inside every band down to K = 1e-12).
TEST(Contract, conservativeWithABandAllowsFalseHitsAnywhereAndNearMissesOnly) {
    const Family& f = *find_family("obb_obb");
    const auto read = [&](const std::string& text) { return std::get<FamilyCase>(parse_case(text, "t.case")).in; };
    const Inputs apart = read(
        "family obb_obb\na.c 0 0 0\na.axes 1 0 0 0 1 0 0 0 1\na.h 1 1 1\n"
        "b.c -0.00031621923 -1.8370901 -1.3371948\n"
        "b.axes 0.9999955 -0.0014382745 0.0026327437 0.002673618 0.8253337 -0.564638972 -0.0013607864 0.56464344 0.82533383\n"
        "b.h 1 0.5 0.75\nexpect disjoint\n");
    const Inputs touching = read(
        "family obb_obb\na.c 1 0 0\na.axes 1.0000005 0 0 0 1 0 0 0 1\na.h 0 0 0\n"
        "b.c 0 0 0\nb.axes 1 0 0 0 1 0 0 0 1\nb.h 1 1e-45 1e-45\nexpect overlap\n");
    const auto answering = [](int answer, const char* contract) {
        return FamilyKernel{"k", *Contract::parse(contract), 0, [answer](const double*) { return Answer{answer, {}}; }};
    };
    const auto violates = [&](const FamilyKernel& k, const Inputs& in) { return judge(f, k, in, f.truth(in.data())).violates; };
    ASSERT_EQ(f.truth(apart.data()).answer, 0);
    ASSERT_EQ(f.truth(touching.data()).answer, 1);
    EXPECT_FALSE(violates(answering(1, "conservative=4"), apart));   // a false hit, however far
    EXPECT_FALSE(violates(answering(1, "conservative"), apart));
    EXPECT_TRUE(violates(answering(1, "tolerant=4"), apart));        // needs K = 1072
    EXPECT_FALSE(violates(answering(1, "tolerant=1080"), apart));
    EXPECT_TRUE(violates(answering(1, "tolerant=1060"), apart));
    EXPECT_FALSE(violates(answering(0, "conservative=1"), touching));  // a miss inside the band
    EXPECT_TRUE(violates(answering(0, "conservative"), touching));     // no miss at all
    const Inputs far = read(
        "family obb_obb\na.c 0 0 0\na.axes 1 0 0 0 1 0 0 0 1\na.h 1 1 1\n"
        "b.c 1.5 0 0\nb.axes 1 0 0 0 1 0 0 0 1\nb.h 1 1 1\nexpect overlap\n");
    EXPECT_TRUE(violates(answering(0, "conservative=1000"), far));    // a miss half a box deep
    EXPECT_EQ(Contract::parse("conservative=4")->str(), "conservative=4");
    EXPECT_FALSE(Contract::parse("conservative="));
    EXPECT_FALSE(Contract::parse("conservative=-2"));
}

/// A kernel that gives the closest points without s and t (FCL's segPoints)
/// is judged by the points it gives: any minimiser of parallel segments,
/// and a point rounded to float whose large coordinate's rounding would
/// move a small one by 40 units under a plain projection (both were false
/// alarms on FCL, docs/libraries.md).
TEST(SegmentSegment, pointsWithoutParametersAreJudgedByThePointsTheyGive) {
    const Family& f = *find_family("segment_segment");
    const auto judged = [&](const Inputs& in, const std::array<double, 6>& points) {
        const Truth truth = f.truth(in.data());
        Answer got{truth.answer, truth.values};
        got.unprovided = 0b110;  // s and t left unwritten
        for (size_t i = 0; i < 6; ++i) got.values[3 + i] = points[i];
        got.values[1] = truth.values[1], got.values[2] = truth.values[2];  // as the judge fills what was not given
        return f.value_error(in.data(), truth, got).e;
    };
    // Collinear, overlapping on z in [0.5, 1]: (0, 0, 0.75) on both is a minimiser.
    EXPECT_LE(judged({0, 0, 0, 0, 0, 1, 0, 0, 0.5, 0, 0, 1}, {0, 0, 0.75, 0, 0, 0.75}), 1);
    // The same, a point off both segments: still wrong.
    EXPECT_GT(judged({0, 0, 0, 0, 0, 1, 0, 0, 0.5, 0, 0, 1}, {0, 0.5, 0.75, 0, 0.5, 0.75}), 16);
    // FCL's witness: X = (1.9984375, 1, 0.003125) rounded to float.
    const Inputs in{1.9921875, 1, 0, 2, 1, 0.00390625, 0, 0, 0, 2, 0.00390625, 0};
    EXPECT_LE(judged(in, {double(1.9984375f), 1, double(0.003125f), 2, 0.00390625, 0}), 1);
}

/// Under closest_on_surface a centre in the box has its nearest point on the
/// nearest face; where several faces are nearest, the point on any of them
/// is exact (the truth holds the first), and no other point is.
TEST(SphereAabb, closestOnSurfaceTakesAnyNearestFace) {
    Domain declared;
    declared.conventions = {"closest_on_surface"};
    const Family& f = declared_family(*find_family("sphere_aabb"), declared);
    const auto error = [&](const Inputs& in, const std::array<double, 3>& point) {
        const Truth truth = f.truth(in.data());
        Answer got{truth.answer, truth.values};
        for (size_t i = 0; i < 3; ++i) got.values[i] = point[i];
        return f.value_error(in.data(), truth, got).e;
    };
    // The cube's centre: all six faces are nearest.
    const Inputs centre{-1, -1, -1, 1, 1, 1, 0, 0, 0, 0.5};
    EXPECT_EQ(f.truth(centre.data()).values[0], -1);  // the first: x lo
    EXPECT_EQ(error(centre, {-1, 0, 0}), 0);
    EXPECT_EQ(error(centre, {0, 0, 1}), 0);          // z hi, as near
    EXPECT_GT(error(centre, {0, 0, 0}), 1e6);        // the solid's nearest point, not the boundary's
    // A flat box: the nearest face is y hi (0.5 away), not x hi (1 away),
    // where the centre deviates most from the box's centre (Coin3D).
    const Inputs flat{-4, -1, -1, 4, 1, 1, 3, 0.5, 0, 1};
    EXPECT_EQ(error(flat, {3, 1, 0}), 0);
    EXPECT_GT(error(flat, {4, 0.5, 0}), 1e6);
    // Outside the box the convention changes nothing: the clamp.
    const Inputs outside{0, 0, 0, 1, 1, 1, 2, 0.5, 0.5, 1};
    EXPECT_EQ(f.truth(outside.data()).values[0], 1);
    EXPECT_EQ(f.truth(outside.data()).values[1], 0.5);
}

}  // namespace
}  // namespace isect::check
