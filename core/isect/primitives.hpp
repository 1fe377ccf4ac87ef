// The primitives every family shares, as callers store them: floats, or
// doubles for the double-precision kernels (AabbD, TriangleD).
#pragma once

#include "isect/fp.hpp"

namespace isect {

/// A closed axis-aligned box, lo <= hi componentwise. lo == hi on an axis
/// makes it flat; on every axis, a point.
template <class T> struct BasicAabb {
    std::array<T, 3> lo, hi;
};
using Aabb = BasicAabb<float>;
using AabbD = BasicAabb<double>;

/// A closed triangle: the convex hull of its three vertices (a segment or a
/// point when they are collinear or repeated).
template <class T> struct BasicTriangle {
    std::array<std::array<T, 3>, 3> v;
};
using Triangle = BasicTriangle<float>;
using TriangleD = BasicTriangle<double>;

/// The plane n . x = d (n need not be unit length; n = 0 is no plane).
struct Plane {
    Vec3f n;
    float d = 0;
};

/// True when every value is finite.
template <class T, size_t N> inline bool all_finite(const std::array<T, N>& v) {
    for (T x : v)
        if (!std::isfinite(x)) return false;
    return true;
}

/// True when every coordinate of the triangle is finite.
template <class T> inline bool all_finite(const BasicTriangle<T>& t) {
    return all_finite(t.v[0]) && all_finite(t.v[1]) && all_finite(t.v[2]);
}

/// True when both corners of the box are finite (lo > hi is another matter:
/// box_in_domain).
template <class T> inline bool all_finite(const BasicAabb<T>& b) { return all_finite(b.lo) && all_finite(b.hi); }

/// True when the box is finite with lo <= hi on every axis.
template <class T> inline bool box_in_domain(const BasicAabb<T>& b) {
    for (int i = 0; i < 3; ++i)
        if (!std::isfinite(b.lo[i]) || !std::isfinite(b.hi[i]) || !(b.lo[i] <= b.hi[i])) return false;
    return true;
}

}  // namespace isect
