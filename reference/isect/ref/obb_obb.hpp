// Exact references for oriented box vs oriented box: do the closed
// parallelepipeds { c + sum_i s_i h_i a_i : |s_i| <= 1 } of the two boxes
// meet? Cross-checked on every input:
//  - obb_obb_rational: the boxes meet iff the offset of the centres,
//    c_b - c_a, lies in the zonotope Z = sum_k [-1, 1] g_k of the six
//    generators h_i a_i and h_j b_j (B - A, a Minkowski difference). A point
//    is in a zonotope that spans space iff for every nonzero cross product
//    n of two generators |n . d| <= sum_k |n . g_k| (its facets' normals are
//    among them); a flat one (rank 2, normal m) needs m . d = 0 and the same
//    test for the in-plane normals m x g_k; a line segment, d on its line
//    within sum |g . g_k| / |g|. Exact, on the body of
//    reference/fast/obb_obb.hpp (the fast oracle's).
//  - obb_obb_cgal: CGAL's exact linear-programming solver on the feasibility
//    problem c_a + sum_i s_i h_i a_i = c_b + sum_j t_j h_j b_j, every s_i
//    and t_j in [-1, 1]: a different question about the same set, shared
//    with nothing above.
#pragma once

#include <vector>

#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: two oriented boxes, each a centre, three axes (rows) and three half-extents.
inline constexpr auto obb_obb_input = layout(Key{"a.c", 3, Role::point}, Key{"a.axes", 9, Role::normal},
                                             Key{"a.h", 3, Role::length}, Key{"b.c", 3, Role::point},
                                             Key{"b.axes", 9, Role::normal}, Key{"b.h", 3, Role::length});

bool obb_obb_rational(const double* in);

/// The zonotope as the body builds it (reference/fast/obb_obb.hpp), on
/// exact numbers, for the test that decides a case: whether its generators
/// span space, and for each of the fifteen axes n = g_p x g_q (p < q, 0-2
/// a's, 3-5 b's; n = 0 for parallel generators) the gap |n . d| - sum_k
/// |n . g_k| (> 0: the axis separates the boxes, 0: they touch along it)
/// and n . n.
struct ObbAxes {
    bool spans = false;
    struct Axis {
        int p = 0, q = 0;
        Rational gap, nn;
    };
    std::vector<Axis> axes;
};
ObbAxes obb_obb_axes(const double* in);
bool obb_obb_cgal(const double* in);

}  // namespace isect::ref
