#include "isect/ref/aabb_plane.hpp"

namespace isect::ref {

void aabb_plane_extent(const ExactAabb& box, const Point& n, Rational& min_d, Rational& max_d) {
    min_d = max_d = 0;
    for (int i = 0; i < 3; ++i) {
        const Rational lo = n[i] * box.lo[i], hi = n[i] * box.hi[i];
        min_d += lo < hi ? lo : hi;
        max_d += lo < hi ? hi : lo;
    }
}

void aabb_plane_margins(const ExactAabb& box, const ExactPlane& p, Rational& least, Rational& greatest) {
    aabb_plane_extent(box, p.n, least, greatest);
    least -= p.d;
    greatest -= p.d;
}

int aabb_plane_classify_rational(const ExactAabb& box, const ExactPlane& p) {
    Rational min_d, max_d;
    aabb_plane_extent(box, p.n, min_d, max_d);
    if (min_d >= p.d) return 1;
    if (max_d <= p.d) return -1;
    return 0;
}

bool aabb_plane_overlap_rational(const ExactAabb& box, const ExactPlane& p) {
    Rational min_d, max_d;
    aabb_plane_extent(box, p.n, min_d, max_d);
    return min_d <= p.d && p.d <= max_d;
}

}  // namespace isect::ref
