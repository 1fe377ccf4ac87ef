// The primitives every family shares, as callers store them: floats.
#pragma once

#include "isect/fp.hpp"

namespace isect {

/// A closed axis-aligned box, lo <= hi componentwise. lo == hi on an axis
/// makes it flat; on every axis, a point.
struct Aabb {
    Vec3f lo, hi;
};

/// A closed triangle: the convex hull of its three vertices (a segment or a
/// point when they are collinear or repeated).
struct Triangle {
    std::array<Vec3f, 3> v;
};

/// The plane n . x = d (n need not be unit length; n = 0 is no plane).
struct Plane {
    Vec3f n;
    float d = 0;
};

/// True when every value is finite.
template <size_t N> inline bool all_finite(const std::array<float, N>& v) {
    for (float x : v)
        if (!std::isfinite(x)) return false;
    return true;
}

/// True when the box is finite with lo <= hi on every axis.
inline bool box_in_domain(const Aabb& b) {
    for (int i = 0; i < 3; ++i)
        if (!std::isfinite(b.lo[i]) || !std::isfinite(b.hi[i]) || !(b.lo[i] <= b.hi[i])) return false;
    return true;
}

}  // namespace isect
