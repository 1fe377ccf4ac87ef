// The case format: what it reads, what it refuses, and that writing and
// reading again gives back the same floats.
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

#include "check/io/case_file.hpp"
#include "check/model/contract.hpp"
#include "check/model/family.hpp"

namespace isect::check {
namespace {

const char* kSeed002 =
    "# seed 002: no face separates, (1,1,0) does\n"
    "family  aabb_triangle\n"
    "box.lo  -10 -10 -10\n"
    "box.hi  10 10 10\n"
    "tri     12 9 9   9 12 9   19 19 20\n"
    "expect  disjoint\n";

std::vector<CaseError> errors_of(const std::string& text) {
    const ReadResult r = parse_case(text, "t.case");
    const auto* e = std::get_if<std::vector<CaseError>>(&r);
    return e ? *e : std::vector<CaseError>{};
}

TEST(CaseFile, readsTheSeedCase) {
    const ReadResult r = parse_case(kSeed002, "seed.case");
    ASSERT_TRUE(std::holds_alternative<FamilyCase>(r));
    const auto& c = std::get<FamilyCase>(r);
    EXPECT_EQ(c.family, &aabb_triangle_family());
    EXPECT_EQ(c.origin, "seed 002: no face separates, (1,1,0) does");
    EXPECT_EQ(c.in[0], -10.0f);
    EXPECT_EQ(c.in[14], 20.0f);
    EXPECT_EQ(c.expect, 0);
}

TEST(CaseFile, writesWhatItReads) {
    const FamilyCase c = std::get<FamilyCase>(parse_case(kSeed002, "seed.case"));
    EXPECT_EQ(format_family_case(*c.family, c.in, c.origin), kSeed002);
}

TEST(CaseFile, shortestDecimalRoundTripsEveryKindOfFloat) {
    for (float x : {0.1f, -0.0f, 1e-45f, 1.17549435e-38f, 3.40282347e38f, 16777217.0f, -2.5e-40f, 1.0f / 3}) {
        float back;
        std::string why;
        ASSERT_TRUE(parse_float(format_float(x), back, why)) << format_float(x) << ": " << why;
        EXPECT_EQ(back, x);
        EXPECT_EQ(std::signbit(back), std::signbit(x));
    }
    EXPECT_EQ(format_float(0.5f), "0.5");
    EXPECT_EQ(format_float(2.0000002f), "2.0000002");      // the shortest form, 8 digits
    EXPECT_EQ(format_float(0.1f), "0.100000001");          // a short decimal that is not 0.1f exactly
    EXPECT_EQ(format_float(5.59543991f), "5.59543991");    // shortest is 5.59544
    EXPECT_EQ(format_float(-0.0f), "-0");
}

TEST(CaseFile, whatIsectWritesReadsBackWithoutAWarning) {
    // Every 2^20-th bit pattern of the finite floats, both signs: written,
    // then read under --strict, where a warning would be an error.
    for (uint64_t bits = 0; bits < (1ull << 32); bits += (1u << 20) + 7) {
        float x;
        const uint32_t b = uint32_t(bits);
        std::memcpy(&x, &b, sizeof x);
        if (!std::isfinite(x)) continue;
        const float r = std::fabs(x);
        const std::string text = "family sphere_aabb\nbox.lo 0 0 0\nbox.hi 1 1 1\nc " + format_float(x) + " 0 0\nr " +
                                 format_float(r) + "\nexpect overlap\n";
        const ReadResult back = parse_case(text, "w.case", true);
        ASSERT_TRUE(std::holds_alternative<FamilyCase>(back)) << text << std::get<std::vector<CaseError>>(back)[0].str();
        EXPECT_EQ(std::get<FamilyCase>(back).in[6], x);
        EXPECT_TRUE(std::get<FamilyCase>(back).warnings.empty());
    }
    // A person's short decimal still warns.
    const ReadResult human = parse_case("family sphere_aabb\nbox.lo 0 0 0\nbox.hi 1 1 1\nc 0.1 0 0\nr 1\nexpect overlap\n", "h.case");
    EXPECT_EQ(std::get<FamilyCase>(human).warnings.size(), 1u);
}

TEST(CaseFile, doubleCasesRoundTripEveryBitPatternAndWarnOnShortDecimals) {
    // A case of a double-precision run says so, and its numbers are doubles:
    // every 2^47-th bit pattern (offset so the low bits vary: 32 in every
    // binade, 65,536 in all) written by isect reads back exactly, under
    // --strict.
    const PrecisionScope scope(Precision::double_);
    for (uint64_t bits = 0; bits < (uint64_t(1) << 63); bits += (uint64_t(1) << 47) + 12345) {
        double x;
        std::memcpy(&x, &bits, sizeof x);
        if (!std::isfinite(x)) continue;
        const std::string text = "family sphere_aabb\nprecision double\nbox.lo 0 0 0\nbox.hi 1 1 1\nc " +
                                 format_number(x) + " 0 0\nr " + format_number(std::fabs(x)) + "\nexpect overlap\n";
        const ReadResult back = parse_case(text, "d.case", true);
        ASSERT_TRUE(std::holds_alternative<FamilyCase>(back)) << text << std::get<std::vector<CaseError>>(back)[0].str();
        EXPECT_EQ(std::get<FamilyCase>(back).precision, Precision::double_);
        EXPECT_EQ(std::get<FamilyCase>(back).in[6], x) << text;
        EXPECT_TRUE(std::get<FamilyCase>(back).warnings.empty()) << text;
    }
    // 0.1 is not a double either (%.17g writes 0.10000000000000001); a
    // double case keeps every digit a float case would round away, and
    // 1.0000000001 is how %.17g writes its double, so it reads silently.
    const ReadResult human =
        parse_case("family sphere_aabb\nprecision double\nbox.lo 0 0 0\nbox.hi 1 1 1\nc 0.1 1.0000000001 0\nr 1\nexpect overlap\n", "h.case");
    ASSERT_TRUE(std::holds_alternative<FamilyCase>(human));
    EXPECT_EQ(std::get<FamilyCase>(human).warnings.size(), 1u);
    EXPECT_EQ(std::get<FamilyCase>(human).in[7], 1.0000000001);
    EXPECT_NE(std::get<FamilyCase>(human).warnings[0].find("is not a double; it reads as 0.10000000000000001"), std::string::npos)
        << std::get<FamilyCase>(human).warnings[0];
    const ReadResult bad = parse_case("family sphere_aabb\nprecision quad\nbox.lo 0 0 0\nbox.hi 1 1 1\nc 0 0 0\nr 1\nexpect overlap\n", "q.case");
    ASSERT_TRUE(std::holds_alternative<std::vector<CaseError>>(bad));
    EXPECT_EQ(std::get<std::vector<CaseError>>(bad)[0].str(), "q.case:2: precision: takes 'float' or 'double'");
}

TEST(CaseFile, aNumberBelowEveryRangeIsAnErrorNotAZero) {
    // strtod reads 1e-400 as 0 too: a float must not take that for a written zero.
    float f = 1;
    double d = 1;
    std::string why;
    EXPECT_FALSE(parse_float("1e-400", f, why));
    EXPECT_EQ(why, "'1e-400' underflows float to zero");
    EXPECT_FALSE(parse_double("1e-400", d, why));
    EXPECT_EQ(why, "'1e-400' underflows double to zero");
    EXPECT_FALSE(parse_float("1e-50", f, why));
    EXPECT_TRUE(parse_double("1e-50", d, why));
    EXPECT_TRUE(parse_float("-0.0e-999", f, why));
    EXPECT_TRUE(std::signbit(f) && f == 0);
}

TEST(CaseFile, readsHexfloatInfAndNanAsFloats) {
    float x;
    std::string why;
    ASSERT_TRUE(parse_float("0x1.8p1", x, why));
    EXPECT_EQ(x, 3.0f);
    ASSERT_TRUE(parse_float("-inf", x, why));
    EXPECT_TRUE(std::isinf(x) && x < 0);
    ASSERT_TRUE(parse_float("nan", x, why));
    EXPECT_TRUE(std::isnan(x));
}

TEST(CaseFile, refusesNumbersThatAreNotFloats) {
    float x;
    std::string why;
    EXPECT_FALSE(parse_float("1e39", x, why));
    EXPECT_NE(why.find("overflows"), std::string::npos);
    EXPECT_FALSE(parse_float("1e-50", x, why));
    EXPECT_NE(why.find("underflows"), std::string::npos);
    EXPECT_FALSE(parse_float("1.5x", x, why));
    EXPECT_FALSE(parse_float("", x, why));
    EXPECT_TRUE(parse_float("0e-50", x, why));  // a written zero is a zero
}

TEST(CaseFile, namesLineAndValueOfEveryError) {
    const auto errors = errors_of(
        "family aabb_triangle\n"
        "box.lo 0 0 zero\n"
        "box.hi 1 1\n"
        "tri 0 0 0 1 1 1 2 2 2\n"
        "colour red\n"
        "expect maybe\n");
    ASSERT_EQ(errors.size(), 4u);
    EXPECT_EQ(errors[0].str(), "t.case:2: box.lo: 'zero' is not a number");
    EXPECT_EQ(errors[1].str(), "t.case:3: box.hi: takes 3 numbers, found 2");
    EXPECT_EQ(errors[2].str(), "t.case:6: expect: 'maybe' is not one of 'disjoint', 'overlap'");
    EXPECT_EQ(errors[3].str(), "t.case:5: unknown key 'colour' for aabb_triangle (its keys: family, precision, relation, box.lo, box.hi, tri, expect)");
}

TEST(CaseFile, refusesMissingRepeatedAndUnknownFamily) {
    EXPECT_EQ(errors_of("box.lo 0 0 0\n")[0].str(), "t.case: missing key 'family'");
    EXPECT_EQ(errors_of("family cube_sphere\n")[0].str().rfind(
                  "t.case:1: family: 'cube_sphere' is not a known family (aabb_triangle, ", 0),
              0u);
    const auto missing = errors_of("family aabb_triangle\nbox.lo 0 0 0\nbox.hi 1 1 1\nexpect overlap\n");
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_EQ(missing[0].str(), "t.case: missing key 'tri'");
    const auto repeated = errors_of(std::string(kSeed002) + "expect overlap\n");
    ASSERT_EQ(repeated.size(), 1u);
    EXPECT_EQ(repeated[0].str(), "t.case:7: key 'expect' repeats line 6");
}

TEST(CaseFile, refusesInputOutsideTheDomain) {
    const auto errors = errors_of(
        "family aabb_triangle\nbox.lo 0 0 nan\nbox.hi 1 -1 1\ntri 0 0 0 1 1 inf 2 2 2\nexpect overlap\n");
    ASSERT_EQ(errors.size(), 3u);
    EXPECT_EQ(errors[0].str(), "t.case:2: box.lo: 'nan' is outside the domain of aabb_triangle (finite values only)");
    EXPECT_EQ(errors[1].str(), "t.case:4: tri: 'inf' is outside the domain of aabb_triangle (finite values only)");
    EXPECT_EQ(errors[2].str(), "t.case:3: box.hi: '-1' is below box.lo '0' on axis y (lo <= hi required)");
}

TEST(CaseFile, commentsMayFollowValues) {
    const ReadResult r = parse_case(
        "family aabb_triangle # the family\nbox.lo 0 0 0\nbox.hi 1 1 1\ntri 0 0 0 1 0 0 0 1 0 # on a face\n"
        "expect overlap\n",
        "c.case");
    EXPECT_TRUE(std::holds_alternative<FamilyCase>(r));
}

TEST(Contract, parsesAndPrintsItsForms) {
    EXPECT_EQ(Contract::parse("exact")->str(), "exact");
    EXPECT_EQ(Contract::parse("conservative")->str(), "conservative");
    EXPECT_EQ(Contract::parse("tolerant=4")->str(), "tolerant=4");
    EXPECT_DOUBLE_EQ(Contract::parse("tolerant=0.5")->k, 0.5);
    EXPECT_FALSE(Contract::parse("tolerant="));
    EXPECT_FALSE(Contract::parse("tolerant=-1"));
    EXPECT_FALSE(Contract::parse("tolerant=inf"));
    EXPECT_FALSE(Contract::parse("lenient"));
}

}  // namespace
}  // namespace isect::check
