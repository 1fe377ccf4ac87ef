// Hand-made aabb_triangle cases, each expanded by the 48 cube symmetries,
// vertex rotation and reversal, and power-of-two scaling, as CGAL's tests do.
#include <gtest/gtest.h>

#include "isect/check/aabb_triangle.hpp"
#include "isect/ref/aabb_triangle.hpp"

namespace isect::check {
namespace {

struct Hand {
    const char* name;
    AabbTriangleInput in;
    bool overlap;
};

AabbTriangleInput mk(Vec3f lo, Vec3f hi, Vec3f a, Vec3f b, Vec3f c) {
    AabbTriangleInput in;
    in.box = {lo, hi};
    in.tri.v = {a, b, c};
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
    for (const Hand& h : kCases) {
        for (int perm = 0; perm < 6; ++perm)
            for (int mirror = 0; mirror < 8; ++mirror)
                for (int order = 0; order < 6; ++order)
                    for (int k : {-100, -20, 0, 7, 60}) {
                        AabbTriangleInput in = apply({perm, mirror}, h.in);
                        for (int r = 0; r < order % 3; ++r) in = rotate_vertices(in);
                        if (order >= 3) in = reverse_vertices(in);
                        in = scale_pow2(in, k);
                        const ref::ExactAabb box = ref::exact(in.box);
                        const ref::ExactTriangle tri = ref::exact(in.tri);
                        SCOPED_TRACE(std::string(h.name) + " perm " + std::to_string(perm) + " mirror " +
                                     std::to_string(mirror) + " order " + std::to_string(order) + " 2^" +
                                     std::to_string(k));
                        ASSERT_EQ(ref::aabb_triangle_clip(box, tri), h.overlap);
                        ASSERT_EQ(ref::aabb_triangle_cgal(box, tri), h.overlap);
                        // These cases are far from the band: every kernel is exact on them.
                        ASSERT_EQ(aabb_triangle_sat(in.box, in.tri), h.overlap);
                        if (h.overlap) {
                            ASSERT_TRUE(aabb_triangle_conservative(in.box, in.tri));
                        }
                    }
    }
}

TEST(AabbTriangleBand, touchingNeedsOnlyAnInfinitesimalBand) {
    const Hand& touching = kCases[1];
    EXPECT_EQ(aabb_triangle_band(touching.in.box, touching.in.tri, true), 0.0);
    // The seed case is 1/sqrt(2) away along (1,1,0): a box grown by 0.5 per
    // axis reaches it, so K = 0.5 / (2^-24 * 20) ~ 4.2e5.
    const Hand& seed = kCases[0];
    const double k = aabb_triangle_band(seed.in.box, seed.in.tri, false);
    EXPECT_NEAR(k, 0.5 * 16777216 / 20, 1);
}

TEST(AabbTriangleBand, allZeroInputHasNoBand) {
    const AabbTriangleInput zero{};
    EXPECT_TRUE(std::isinf(aabb_triangle_band(zero.box, zero.tri, false)));
}

}  // namespace
}  // namespace isect::check
