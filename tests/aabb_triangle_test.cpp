// Hand-made aabb_triangle cases, each expanded by the 48 cube symmetries,
// vertex rotation and reversal, and power-of-two scaling, as CGAL's tests do.
#include <cmath>
#include <gtest/gtest.h>

#include "check/model/family.hpp"
#include "check/engine/judge.hpp"
#include "check/engine/symmetry.hpp"
#include "isect/primitives.hpp"

namespace isect::check {
namespace {

struct Hand {
    const char* name;
    Inputs in;
    bool overlap;
};

Inputs mk(Vec3f lo, Vec3f hi, Vec3f a, Vec3f b, Vec3f c) {
    Inputs in;
    for (const Vec3f& v : {lo, hi, a, b, c}) in.insert(in.end(), v.begin(), v.end());
    return in;
}

const Hand kCases[] = {
    {"seed002_pm10_edge_axis", mk({-10, -10, -10}, {10, 10, 10}, {12, 9, 9}, {9, 12, 9}, {19, 19, 20}), false},
    {"seed002_touching_edge", mk({-10, -10, -10}, {10, 10, 10}, {11, 9, 9}, {9, 11, 9}, {19, 19, 20}), true},
    {"vertex_on_corner", mk({0, 0, 0}, {1, 1, 1}, {1, 1, 1}, {2, 1, 1}, {1, 3, 2}), true},
    {"inside", mk({0, 0, 0}, {4, 4, 4}, {1, 1, 1}, {2, 1, 1}, {1, 2, 1}), true},
    {"box_inside_big_triangle", mk({0, 0, 0}, {1, 1, 0}, {-10, -10, 0}, {10, -10, 0}, {0, 10, 0}), true},
    {"segment_through_box", mk({0, 0, 0}, {1, 1, 1}, {-1, -1, -1}, {2, 2, 2}, {0.5f, 0.5f, 0.5f}), true},
    {"segment_past_corner", mk({0, 0, 0}, {1, 1, 1}, {2, 0, 0}, {0, 2.5f, 0}, {1, 1.25f, 0}), false},
    {"point_on_face", mk({0, 0, 0}, {1, 1, 1}, {0.5f, 0.5f, 1}, {0.5f, 0.5f, 1}, {0.5f, 0.5f, 1}), true},
    {"point_outside", mk({0, 0, 0}, {1, 1, 1}, {0.5f, 0.5f, 1.5f}, {0.5f, 0.5f, 1.5f}, {0.5f, 0.5f, 1.5f}), false},
    {"point_box_on_edge", mk({1, 1, 0}, {1, 1, 0}, {0, 0, 0}, {2, 2, 0}, {0, 2, 5}), true},
    {"flat_box_beside_triangle", mk({0, 0, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 2}), false},
    {"normal_separates", mk({0, 0, 0}, {1, 1, 1}, {3, 0, 0}, {0, 3, 0}, {0, 0, 3.0001f}), false},
    {"normal_touches_corner", mk({0, 0, 0}, {1, 1, 1}, {3, 0, 0}, {0, 3, 0}, {0, 0, 3}), true},
};

TEST(AabbTriangleHandCases, referencesAndKernelsAgreeUnderEveryExpansion) {
    const Family& f = aabb_triangle_family();
    for (const Hand& h : kCases) {
        for (int perm = 0; perm < 6; ++perm)
            for (int mirror = 0; mirror < 8; ++mirror)
                for (int order = 0; order < 6; ++order)
                    for (int k : {-100, -20, 0, 7, 60}) {
                        const Symmetry s{perm, mirror, k, {0, 0, 0}, order % 3, order >= 3};
                        const auto in = transformed(f, h.in, s);
                        ASSERT_TRUE(in.has_value()) << h.name;
                        SCOPED_TRACE(std::string(h.name) + " perm " + std::to_string(perm) + " mirror " +
                                     std::to_string(mirror) + " order " + std::to_string(order) + " 2^" +
                                     std::to_string(k));
                        ASSERT_EQ(f.truth(in->data()).answer, h.overlap ? 1 : 0);
                        // These cases are far from the band: every kernel is exact on
                        // them, and conservative never misses.
                        ASSERT_EQ(f.find_kernel("sat")->fn(in->data()).answer, h.overlap ? 1 : 0);
                        if (h.overlap) {
                            ASSERT_EQ(f.find_kernel("conservative")->fn(in->data()).answer, 1);
                        }
                    }
    }
}

TEST(AabbTriangleBand, touchingNeedsOnlyAnInfinitesimalBand) {
    const Family& f = aabb_triangle_family();
    const Hand& touching = kCases[1];
    EXPECT_LE(measured_k(f, touching.in, f.truth(touching.in.data())), 0x1p-40);
    // The seed case is 1/sqrt(2) away along (1,1,0): a box grown by 0.5 per
    // axis reaches it, half of it the box's faces and half the triangle's
    // vertices moving, so K = 0.25 / (2^-24 * 20) ~ 2.1e5.
    const Hand& seed = kCases[0];
    EXPECT_NEAR(measured_k(f, seed.in, f.truth(seed.in.data())), 0.25 * 16777216 / 20, 250);
}

// All zeros: a point triangle touching a point box at the origin. Every
// delta > 0 gives the same band there (scaling changes nothing), and the
// band takes M = 1, so touching needs only an infinitesimal band, as it does
// at every other scale (it once needed K = inf: M = 0 made the band empty).
TEST(AabbTriangleBand, allZeroTouchingNeedsOnlyAnInfinitesimalBand) {
    const Family& f = aabb_triangle_family();
    const Inputs zero(15, 0.0f);
    EXPECT_LE(measured_k(f, zero, f.truth(zero.data())), 0x1p-40);
}

}  // namespace
}  // namespace isect::check
