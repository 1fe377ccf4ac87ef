// core/isect/exact.hpp against Boost rationals: error-free products, signs of
// sums, expansions long enough to leave their in-place storage, and each
// sum's sign through the double filter and the exact path both.
#include <gtest/gtest.h>
#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <random>

#include "isect/exact.hpp"
#include "isect/ref/exact.hpp"
#include "isect/ref/ray_sphere.hpp"
#include "isect/wide.hpp"

namespace isect {
namespace {

using ref::Rational;

int sign(const Rational& r) { return r > 0 ? 1 : (r < 0 ? -1 : 0); }

Rational value(const exact::Expansion& e) {
    Rational r = 0;
    for (double x : e.components()) r += Rational(x);
    return r;
}

/// A float with a random mantissa and an exponent in [lo, hi].
float random_float(std::mt19937& rng, int lo, int hi) {
    std::uniform_real_distribution<float> m(-1, 1);
    return std::ldexp(m(rng), std::uniform_int_distribution<int>(lo, hi)(rng));
}

TEST(Exact, twoProductIsExact) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> m(-1, 1);
    for (int i = 0; i < 100000; ++i) {
        const double a = std::ldexp(m(rng), int(rng() % 200) - 100), b = std::ldexp(m(rng), int(rng() % 200) - 100);
        double p, e;
        exact::two_product(a, b, p, e);
        ASSERT_EQ(Rational(p) + Rational(e), Rational(a) * Rational(b)) << a << " * " << b;
    }
}

TEST(Exact, signOfSumMatchesRationalsWhenTheTermsCancel) {
    std::mt19937 rng(2);
    for (int i = 0; i < 20000; ++i) {
        // Pairs of products that cancel exactly, plus a tiny remainder (or
        // none): the filter cannot decide these, the expansion must.
        exact::Terms terms;
        Rational sum = 0;
        for (int k = 0; k < 6; ++k) {
            const float a = random_float(rng, -40, 40), b = random_float(rng, -40, 40);
            terms.add_product(a, b);
            terms.add_product(-double(a), b);
        }
        const float tiny = rng() % 3 == 0 ? 0.0f : random_float(rng, -140, -120);
        const float c = random_float(rng, -20, 20);
        terms.add_product(tiny, c);
        sum += Rational(tiny) * Rational(c);
        ASSERT_EQ(terms.sign(), sign(sum));
    }
}

TEST(Exact, longExpansionsSpillOutOfPlaceAndStayExact) {
    // Forty one-bit components 20 binades apart: nonoverlapping, so the
    // expansion keeps every one of them (more than Components::kInPlace).
    exact::Expansion e;
    Rational want = 0;
    for (int k = 0; k < 40; ++k) {
        const double x = std::ldexp(k % 2 ? 1.0 : -1.0, 20 * k - 400);
        e += x;
        want += Rational(x);
    }
    ASSERT_GT(e.components().size(), exact::Components::kInPlace);
    EXPECT_EQ(value(e), want);
    EXPECT_EQ(e.sign(), sign(want));
    // Products and differences of spilled expansions, and back to few
    // components when they cancel.
    const exact::Expansion sq = e * e;
    EXPECT_EQ(value(sq), want * want);
    const exact::Expansion zero = sq - e * e;
    EXPECT_EQ(zero.sign(), 0);
    EXPECT_TRUE(zero.components().empty());
    exact::Expansion copy = e;
    copy += -std::ldexp(1.0, 20 * 39 - 400);  // drops the largest component
    EXPECT_EQ(value(copy), want - Rational(std::ldexp(1.0, 20 * 39 - 400)));
}

TEST(Exact, crossAndDotOfFloatDifferencesAreExact) {
    std::mt19937 rng(3);
    for (int i = 0; i < 5000; ++i) {
        Vec3f a, b, c, d;
        for (int k = 0; k < 3; ++k) {
            a[k] = random_float(rng, -30, 30);
            b[k] = random_float(rng, -30, 30);
            c[k] = i % 2 ? a[k] : random_float(rng, -30, 30);  // half of them degenerate
            d[k] = random_float(rng, -30, 30);
        }
        const exact::DifferenceVec ab = exact::difference(a, b), cd = exact::difference(c, d);
        const exact::Expansion got = exact::dot(ab, exact::cross(cd, ab));
        // (a - b) . ((c - d) x (a - b)) = 0 exactly: a triple product with a repeated vector.
        ASSERT_EQ(got.sign(), 0);
        const exact::Expansion t = exact::dot(exact::difference(d, b), exact::cross(cd, ab));
        ref::Point r[3];
        for (int k = 0; k < 3; ++k) {
            r[0][size_t(k)] = Rational(d[k]) - Rational(b[k]);
            r[1][size_t(k)] = Rational(c[k]) - Rational(d[k]);
            r[2][size_t(k)] = Rational(a[k]) - Rational(b[k]);
        }
        const Rational want = r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) +
                              r[0][1] * (r[1][2] * r[2][0] - r[1][0] * r[2][2]) +
                              r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
        ASSERT_EQ(value(t), want);
    }
}

/// A float of any exponent of the format, subnormals and zeros included.
float any_float(std::mt19937& rng) {
    switch (rng() % 8) {
        case 0: return 0.0f;
        case 1: return std::ldexp(float(int(rng() % 65536) - 32768), -149);  // subnormal
        default: return random_float(rng, -149, 127);
    }
}

TEST(Wide, degreeSixOfFloatsAnywhereInTheRangeIsExact) {
    // Sums of degree-6 products of floats from 2^-149 to 2^127, compared
    // with rationals: the sign exactly, the estimate to about double
    // precision; and sums built to cancel to exactly 0.
    std::mt19937 rng(7);
    for (int i = 0; i < 4000; ++i) {
        exact::Wide w;
        Rational r = 0;
        const int terms = 1 + int(rng() % 5);
        for (int t = 0; t < terms; ++t) {
            exact::Wide pw(1.0);
            Rational pr = 1;
            const int degree = 1 + int(rng() % 6);
            for (int d = 0; d < degree; ++d) {
                const float x = any_float(rng), y = any_float(rng);
                // A difference of two floats, as the kernels take them.
                pw = pw * (exact::Wide(x) - exact::Wide(y));
                pr *= Rational(x) - Rational(y);
            }
            if (rng() % 2) {
                w = w + pw;
                r += pr;
            } else {
                w = w - pw;
                r -= pr;
            }
        }
        ASSERT_TRUE(w.exact());
        ASSERT_EQ(w.sign(), sign(r)) << i;
        const double want = r.convert_to<double>();
        ASSERT_NEAR(w.estimate(), want, std::fabs(want) * 0x1p-50) << i;
        // The same terms again, taken away in another order: exactly 0.
        const exact::Wide zero = (w + w) - w - w;
        ASSERT_EQ(zero.sign(), 0) << i;
    }
}

TEST(Wide, aValueThatDoesNotFitIsInexactAndStaysSo) {
    // Any exponent fits (2^21000 is one limb); a span of bits does not:
    // (2^1000 + 1)^4 spans 4000 bits, 64 limbs, the fifth power more.
    const exact::Wide one(1.0), big(0x1p1000);
    exact::Wide p = one;
    for (int i = 0; i < 21; ++i) p = p * big;
    EXPECT_TRUE(p.exact());
    EXPECT_EQ(p.sign(), 1);
    const exact::Wide wide = big + one;
    const exact::Wide fourth = wide * wide * wide * wide;
    EXPECT_TRUE(fourth.exact());
    EXPECT_EQ((fourth - big * big * big * big - one).sign(), 1);  // the cross terms
    const exact::Wide fifth = fourth * wide;
    EXPECT_FALSE(fifth.exact());
    EXPECT_FALSE((fifth - fifth).exact());
    EXPECT_FALSE((fifth * exact::Wide(0.0)).exact());
    EXPECT_FALSE(exact::Wide(INFINITY).exact());
    EXPECT_EQ((big * exact::Wide(0x1p-1000)).estimate(), 1.0);
}


/// (p + s sqrt(x)) / q at 2000 bits: the nearest double wherever v is not
/// within 2^-1900 of a midpoint (random inputs never are).
double root_far(const Rational& p, int s, const Rational& x, const Rational& q) {
    using Mp = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<600>>;
    const auto mp = [](const Rational& r) { return Mp(boost::multiprecision::numerator(r)) / Mp(boost::multiprecision::denominator(r)); };
    return Mp((mp(p) + s * sqrt(mp(x))) / mp(q)).convert_to<double>();
}

Rational random_rational(std::mt19937& rng, int lo, int hi) {
    return Rational(double(random_float(rng, lo, hi))) * Rational(double(random_float(rng, lo, hi)));
}

TEST(Roots, nearestDoubleOfARootMatchesHighPrecision) {
    std::mt19937 rng(7);
    for (int i = 0; i < 20000; ++i) {
        const Rational p = random_rational(rng, -30, 30), q = random_rational(rng, -30, 30);
        const Rational x = i % 5 == 0 ? p * p * Rational(double(1 + i % 7)) : abs(random_rational(rng, -60, 60));
        if (q == 0) continue;
        const int s = p >= 0 ? 1 : -1;  // the stable form: nothing cancels
        ASSERT_EQ(ref::root_to_double(p, s, x, q), root_far(p, s, x, q)) << i;
        if (p == 0 && x == 0) continue;
        const Rational n = random_rational(rng, -30, 30);
        ASSERT_EQ(ref::root_quotient_to_double(n, p, s, x), root_far(n, 0, 0, 1) == 0 ? 0.0 : [&] {
            using Mp = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<600>>;
            const auto mp = [](const Rational& r) { return Mp(boost::multiprecision::numerator(r)) / Mp(boost::multiprecision::denominator(r)); };
            return Mp(mp(n) / (mp(p) + s * sqrt(mp(x)))).convert_to<double>();
        }()) << i;
    }
}

TEST(Roots, aRootExactlyBetweenTwoDoublesRoundsToEven) {
    // 1 + 2^-53 is halfway between 1 and 1 + 2^-52; 1 + 3 2^-53 between
    // 1 + 2^-52 and 1 + 2^-51: each goes to the one with an even mantissa.
    const Rational half_ulp = Rational(std::ldexp(1.0, -53));
    EXPECT_EQ(ref::root_to_double(Rational(1) + half_ulp, 1, Rational(0), Rational(1)), 1.0);
    EXPECT_EQ(ref::root_to_double(Rational(1) + 3 * half_ulp, 1, Rational(0), Rational(1)), 1.0 + std::ldexp(1.0, -51));
    // Through a square root that is rational: (-1 + sqrt(4 (1 + 2^-53)^2)) / 1 - ... = 1 + 2^-52 + ...
    const Rational m = Rational(1) + half_ulp;
    EXPECT_EQ(ref::root_to_double(Rational(0), 1, m * m, Rational(1)), 1.0);
    EXPECT_EQ(ref::root_to_double(Rational(0), -1, m * m, Rational(1)), -1.0);
    EXPECT_EQ(ref::root_quotient_to_double(Rational(1), Rational(0), 1, 1 / (m * m)), 1.0);
    // A value past the largest double, and one below the least subnormal.
    EXPECT_EQ(ref::root_to_double(Rational(0), 1, Rational(4), Rational(std::ldexp(1.0, -1023))), INFINITY);
    EXPECT_EQ(ref::root_to_double(Rational(std::ldexp(1.0, -1074)), 1, Rational(0), Rational(4)), 0.0);
}

}  // namespace
}  // namespace isect
