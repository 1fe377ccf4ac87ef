// Exact references for closed triangle vs closed triangle (either may be a
// segment or a point): do they share a point, and, for two proper triangles
// that are not coplanar, the segment where they meet. Cross-checked on every
// input:
//  - triangle_triangle_rational: GMP rationals. Each triangle's vertices
//    against the other's plane; where both planes are crossed, the points
//    where each triangle's edges meet the other plane, ordered along the
//    line of the two planes (n1 x n2), and the two intervals compared; a
//    coplanar pair, a segment or a point by orientations in a coordinate
//    plane (reference/fast/triangle_triangle.hpp, the same body the fast
//    oracle runs on intervals).
//  - triangle_triangle_cgal: CGAL's do_intersect and intersection of
//    Triangle_3 on an exact rational kernel. CGAL requires non-degenerate
//    triangles (unchecked in release builds): collinear ones go to Segment_3
//    (between the two extreme vertices) and Point_3 instead.
#pragma once

#include <optional>

#include "isect/ref/exact.hpp"
#include "isect/ref/layout.hpp"

namespace isect::ref {

/// The input: two closed triangles, each three vertices.
inline constexpr auto triangle_triangle_input = layout(Key{"t1", 9, Role::polygon}, Key{"t2", 9, Role::polygon});

struct TriangleTriangleExact {
    bool meet = false;
    /// For two proper triangles that are not coplanar and meet: the segment
    /// [p, q] where they do (p == q for one point).
    bool has_segment = false;
    Point p, q;
    /// Two proper triangles (rational reference only): the side (-1, 0, 1)
    /// of the other's plane each vertex of t1 (side_a) and t2 (side_b) lies on.
    bool proper = false;
    std::array<int, 3> side_a{}, side_b{};
};

TriangleTriangleExact triangle_triangle_rational(const double* in);
TriangleTriangleExact triangle_triangle_cgal(const std::array<Point, 3>& t1, const std::array<Point, 3>& t2);

}  // namespace isect::ref
