// Boost.Multiprecision reference for aabb_triangle: clip the triangle by the
// box's six closed half-spaces (Sutherland-Hodgman) in exact rationals.
//
// Why this is right for degenerate triangles too: the vertex list is a cycle
// whose edges cover the boundary of its convex hull (for a segment or a point
// the edges run along the hull itself). Clipping keeps the vertices inside the
// closed half-space and adds, for each edge that crosses it strictly, the
// crossing point. Those points span exactly hull \cap half-space, and the new
// cycle's edges again cover its boundary. Flat boxes are two opposite closed
// half-spaces whose intersection is a plane; nothing changes.
#include "isect/ref/aabb_triangle.hpp"

#include <vector>

namespace isect::ref {


namespace {

/// Keeps the part of a convex polygon where sign * (x[axis] - bound) >= 0.
std::vector<Point> clip(const std::vector<Point>& poly, int axis, const Rational& bound, int sign) {
    const auto inside = [&](const Point& p) { return sign > 0 ? p[axis] >= bound : p[axis] <= bound; };
    std::vector<Point> out;
    for (size_t k = 0; k < poly.size(); ++k) {
        const Point& p = poly[k];
        const Point& q = poly[(k + 1) % poly.size()];
        const bool p_in = inside(p), q_in = inside(q);
        if (p_in) out.push_back(p);
        if (p_in != q_in) {  // strictly across the plane, so q[axis] != p[axis]
            const Rational t = (bound - p[axis]) / (q[axis] - p[axis]);
            Point x;
            for (int i = 0; i < 3; ++i) x[i] = p[i] + t * (q[i] - p[i]);
            out.push_back(x);
        }
    }
    return out;
}

}  // namespace

bool aabb_triangle_clip(const ExactAabb& box, const ExactTriangle& tri) {
    for (int i = 0; i < 3; ++i)
        if (box.lo[i] > box.hi[i]) return false;  // empty box
    std::vector<Point> poly(tri.v.begin(), tri.v.end());
    for (int i = 0; i < 3 && !poly.empty(); ++i) {
        poly = clip(poly, i, box.lo[i], +1);
        if (!poly.empty()) poly = clip(poly, i, box.hi[i], -1);
    }
    return !poly.empty();
}

}  // namespace isect::ref
