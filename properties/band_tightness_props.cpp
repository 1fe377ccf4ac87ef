// How tight each family's band is: on generated inputs near the boundary,
// the band's K (measured_k, the least K whose band says the exact answer can
// flip) against the witnessed K (flipping_perturbation: the least K at
// which the search finds an input, each number within K u of the case's by
// its role, whose exact answer is another). The band's K bounds the truth
// from below and the witnessed K from above, so a band is sound where
// band K <= witnessed K, and tight where witnessed K <= 2 band K.
// docs/contracts.md's table is this measure's output; ISECT_TIGHT_SHOW=R
// prints every input whose ratio is above R.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "check/engine/judge.hpp"
#include "check/engine/witness.hpp"
#include "check/io/case_file.hpp"
#include "check/model/family.hpp"
#include "check/model/generate.hpp"
#include "check/model/source.hpp"
#include "property.hpp"

namespace isect::check {
namespace {

bool follows(const Family& f, const char* convention) {
    return std::find(f.followed.begin(), f.followed.end(), convention) != f.followed.end();
}

/// A ray that is a point: tmax 0 (but for a line, which reads no tmax), or
/// a zero direction. Each role's delta is relative to its own magnitude
/// (docs/contracts.md), so no move of the band takes either off zero.
bool point_ray(const Family& f, const Inputs& in) {
    const size_t d = f.offset("dir");
    return (!follows(f, "line") && in[f.offset("tmax")] == 0) || (in[d] == 0 && in[d + 1] == 0 && in[d + 2] == 0);
}

/// Answers only a set of measure zero has (two segments that meet in space,
/// a triangle with no area, and a ray that is a point hitting a triangle,
/// or under `surface` a sphere): no move on doubles lands on one but by
/// chance, so an input whose only other answers are these is not measured.
bool thin(const Family& f, int answer, const Inputs& in) {
    const std::string& a = f.answers[size_t(answer)];
    return (f.name == "segment_segment" && a == "meet") || (f.name == "triangle_measures" && a == "degenerate") ||
           (f.name == "ray_sphere" && follows(f, "surface") && answer == 1 && point_ray(f, in)) ||
           (f.name == "ray_triangle" && a == "hit" && point_ray(f, in));
}

struct Tightness {
    std::vector<double> ratios;  ///< witnessed K / band K, inf where no flip was found up to 2^20 band K
    int drawn = 0, on_boundary = 0, far = 0, thin_only = 0;
    std::vector<std::string> unsound;  ///< cases whose witnessed K is below the band's
    std::string loosest;               ///< the case of the largest ratio

    double quantile(double q) const {
        std::vector<double> r = ratios;
        std::sort(r.begin(), r.end());
        return r.empty() ? 0 : r[std::min(r.size() - 1, size_t(q * double(r.size())))];
    }
    double share_above(double x) const {
        return ratios.empty() ? 0 : double(std::count_if(ratios.begin(), ratios.end(), [x](double r) { return r > x; })) /
                                        double(ratios.size());
    }
};

/// `cases` inputs of f in a float run, from one seed. Near the boundary: a
/// band K in [2^-20, 256] (below, the input is on the boundary and any move
/// flips it; above, K rounds are a visible fraction of the numbers and the
/// bands' first-order forms are not meant to be tight). Moves land on
/// doubles, finer than a float's grid, so a band below one rounding of the
/// largest number is measured too.
Tightness measure(const Family& f, int cases, uint64_t seed) {
    const PrecisionScope scope(Precision::single);
    Tightness t;
    RandomSource source(seed);
    double worst = 0;
    for (int i = 0; i < cases; ++i) {
        const Generated g = generate(f, source);
        ++t.drawn;
        Truth truth;
        try {
            truth = f.truth(g.in.data());
        } catch (const ReferenceMismatch&) {
            continue;  // the reference properties report it
        }
        const double band_k = measured_k(f, g.in, truth);
        if (!(band_k >= 0x1p-20)) {
            ++t.on_boundary;
            continue;
        }
        if (!(band_k <= 256)) {
            ++t.far;
            continue;
        }
        double witnessed = INFINITY;
        bool measured = false;
        for (int a = 0; a < int(f.answers.size()); ++a) {
            if (a == truth.answer || thin(f, a, g.in) || (f.also_right && f.also_right(g.in.data(), a))) continue;
            measured = true;
            if (const std::optional<Perturbation> p =
                    flipping_perturbation(f, g.in, a, band_k, band_k * 0x1p20, Moves::doubles))
                witnessed = std::min(witnessed, p->k);
        }
        if (!measured) {
            ++t.thin_only;
            continue;
        }
        const double ratio = witnessed / band_k;
        t.ratios.push_back(ratio);
        if (const char* show = std::getenv("ISECT_TIGHT_SHOW"); show && ratio > std::atof(show))
            std::printf("(%s) band K %g, witnessed K %g\n%s\n", std::string(g.kind).c_str(), band_k, witnessed,
                        show_family_input(f, g.in).c_str());
        std::ostringstream text;
        text << "(" << g.kind << ") band K " << band_k << ", witnessed K " << witnessed << "\n" << show_family_input(f, g.in);
        // The search's K steps by 1.1%, the band's by 0.07%.
        if (ratio < 1 / 1.02 && t.unsound.size() < 3) t.unsound.push_back(text.str());
        if (ratio > worst) {
            worst = ratio;
            t.loosest = text.str();
        }
    }
    return t;
}

/// The families and conventions whose bands are known to be looser than 2x
/// on more than 1% of near-boundary inputs, with the share above 2x each
/// showed when last measured (10,000 inputs, seed 1, rounded up to 0.1%): the property holds
/// them to it, so a band that loosens fails, and one that tightens says to
/// lower it. docs/contracts.md says why each is loose.
const std::map<std::string, double>& known_loose() {
    static const std::map<std::string, double> loose = {
        {"ray_triangle", 0.013},      {"ray_triangle+cull_back", 0.170}, {"ray_triangle+line", 0.054},
        {"polygon_measures", 0.015},  {"triangle_triangle", 0.024},       {"obb_obb", 0.048},
    };
    return loose;
}

std::string label(const Family& f) {
    std::string name = f.name;
    for (const std::string& c : f.followed) name += "+" + c;
    return name;
}

/// The most a family's median ratio may be (witnessed K over band K on
/// near-boundary inputs): a band twice too wide everywhere reads about 2.
constexpr double kMedianBound = 1.5;

class BandTightness : public ::testing::TestWithParam<const Family*> {};

TEST_P(BandTightness, bandKIsAtMostTheWitnessedKAndWithinTwiceIt) {
    const Family& f = *GetParam();
    const Tightness t = measure(f, props::scaled(10000), 1);
    // Twice, and the search's grid step (1.1%) above it.
    const double above = t.share_above(2 * 1.012);
    std::printf("%-28s drawn %d, near %zu (on the boundary %d, far %d, thin %d): ratio median %.3g, p99 %.3g, worst %.3g, "
                "above 2x %.2f%%\n",
                label(f).c_str(), t.drawn, t.ratios.size(), t.on_boundary, t.far, t.thin_only, t.quantile(0.5),
                t.quantile(0.99), t.quantile(1), 100 * above);
    for (const std::string& c : t.unsound) ADD_FAILURE() << "the band is narrower than a flip found:\n" << c;
    const auto known = known_loose().find(label(f));
    double allowed = known == known_loose().end() ? 0.01 : known->second;
    // A scaled-down run (sanitizers) draws fewer: three standard errors more.
    if (props::scaled(10000) < 10000 && !t.ratios.empty())
        allowed += 3 * std::sqrt(std::max(allowed, 0.01) * (1 - allowed) / double(t.ratios.size())) + 1.0 / double(t.ratios.size());
    EXPECT_LE(above, allowed) << "witnessed K above twice the band's on " << 100 * above << "% of near-boundary inputs; loosest:\n"
                              << t.loosest;
    // The share above 2x lets a band pass that is uniformly almost twice
    // too wide; the median does not (every family's is 1.22 or less).
    if (t.ratios.size() >= 20) {
        EXPECT_LE(t.quantile(0.5), kMedianBound) << "the band is wider than the flips throughout";
    }
}

std::vector<const Family*> banded() {
    std::vector<const Family*> out;
    for (const Family* f : props::judged_families())
        if (f->answers.size() > 1) out.push_back(f);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Families, BandTightness, ::testing::ValuesIn(banded()), props::family_test_name);

/// A family whose band is taken at `scale` times every delta: 8 makes a
/// band 8 times too wide (it says a flip at an eighth of the K that makes
/// one), 1/8 one too narrow.
Family scaled_band(const Family& f, double scale) {
    Family g = f;
    const size_t n = f.size();
    const auto scaled = [n, scale](const double* delta) {
        std::array<double, 64> out{};
        for (size_t i = 0; i < n; ++i) out[i] = delta[i] * scale;
        return out;
    };
    g.band.exact = [exact = f.band.exact, scaled](const double* in, int answer, const double* delta) {
        return exact(in, answer, scaled(delta).data());
    };
    if (f.band.fast)
        g.band.fast = [fast = f.band.fast, scaled](const double* in, int answer, const double* delta) {
            return fast(in, answer, scaled(delta).data());
        };
    return g;
}

/// The measure can fail both ways: ray_sphere's band (within 2x) taken 8
/// times too wide is called loose, and taken 8 times too narrow unsound.
TEST(BandTightness, aBandEightTimesTooWideOrTooNarrowIsCaught) {
    const Family& f = ray_sphere_family();
    const Tightness wide = measure(scaled_band(f, 8), props::scaled(3000), 1);
    EXPECT_GT(wide.share_above(2), 0.5) << "a band 8 times too wide passed as tight";
    const Tightness narrow = measure(scaled_band(f, 1.0 / 8), props::scaled(3000), 1);
    EXPECT_FALSE(narrow.unsound.empty()) << "a band 8 times too narrow passed as sound";
}

/// And a band only twice too wide, which the share above 2x can miss, is
/// caught by the median.
TEST(BandTightness, aBandTwiceTooWideIsCaughtByTheMedian) {
    const Tightness wide = measure(scaled_band(ray_sphere_family(), 2), props::scaled(3000), 1);
    ASSERT_GE(wide.ratios.size(), 5u);
    EXPECT_GT(wide.quantile(0.5), kMedianBound) << "a band twice too wide passed as tight";
}

/// Two boxes far smaller than the doubles' grid at their offset (1e-35
/// wide at 7e-12, centres a float rounding apart) meet only where their
/// centres land on the same doubles: no sign pattern's move does, and the
/// search finds the flip by moving numbers onto others' values (it found
/// none up to 2^20 times the band's K before).
TEST(BandTightness, boxesSmallerThanTheGridMeetWhereTheirCentresCoincide) {
    const ReadResult r = parse_case(
        "family  obb_obb\n"
        "a.c     7.275961e-12 -7.275959e-12 3.637979e-12\n"
        "a.axes  7.434529e-19 1.4869059e-18 -4.956353e-19   8.921436e-19 4.9563528e-20 1.4869059e-18   "
        "1.2886518e-18 -8.921436e-19 -7.434529e-19\n"
        "a.h     3.469447e-18 3.469447e-18 0\n"
        "b.c     7.275961e-12 -7.275958e-12 3.6379736e-12\n"
        "b.axes  2.3129648e-19 1.6190753e-18 5.782412e-19   -1.1564824e-18 5.782412e-19 -1.1564824e-18   "
        "-1.2721306e-18 -2.3129648e-19 1.1564824e-18\n"
        "b.h     1.7347235e-18 3.469447e-18 3.469447e-18\n"
        "expect  disjoint\n",
        "tiny_boxes.case");
    ASSERT_TRUE(std::holds_alternative<FamilyCase>(r));
    const FamilyCase& c = std::get<FamilyCase>(r);
    const Family& f = *c.family;
    const PrecisionScope scope(Precision::single);
    const Truth truth = f.truth(c.in.data());
    ASSERT_EQ(truth.answer, 0);
    const double band_k = measured_k(f, c.in, truth);
    const std::optional<Perturbation> p = flipping_perturbation(f, c.in, 1, band_k, band_k * 0x1p20, Moves::doubles);
    ASSERT_TRUE(p.has_value()) << "no flip found; band K " << band_k;
    EXPECT_LE(p->k, 2 * band_k) << "band K " << band_k;
    EXPECT_GE(p->k, band_k / 1.02) << "the band is narrower than the flip";
    EXPECT_EQ(f.truth(p->input.data()).answer, 1);
}

}  // namespace
}  // namespace isect::check
