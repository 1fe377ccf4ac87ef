// Moving boxes: the first time of contact of a box moving by d against a
// stationary box (seed 001's intersectMovingAABB), and of a box moving along
// dir against a plane n . x = d (seed 001's intersectPlane).
//
// Semantics, closed sets: the moving box at time t is its start box plus
// t d. moving_aabb_contact returns the least t in [0, 1] at which it meets
// the stationary box (0 if they meet at the start, 1 if they first touch at
// the end). moving_aabb_plane_contact returns the least t >= 0 at which the
// box meets the plane, from either side (0 if it meets the plane at the
// start); seed 001 counts only a box in front of the plane moving against n,
// and assumes unit n and dir, which this kernel does not need.
//
// Algorithm: box vs box is a segment from the origin along d against the
// Minkowski difference [S.lo - M.hi, S.hi - M.lo], by slabs: per axis the
// parameters at which the gap closes and reopens, intersected with [0, 1];
// a zero component of d needs the gap closed for all t. Box vs plane: with
// a = least n . x - d and b = greatest n . x - d at the start and s = n . dir,
// contact is at 0 when a <= 0 <= b, else at -a / s (a > 0, s < 0) or -b / s
// (b < 0, s > 0), never otherwise.
//
// Contracts, both tolerant=1 for hit or miss. In double, a Minkowski bound
// S.lo - M.hi is exact unless the two floats are 2^29 apart in exponent, and
// each slab parameter rounds once more: contact times within 2 x 2^-24 |t|.
// For the plane, a, b and s round three times each, so t is within
// 1 x 2^-24 (A + |t| B) / |s|, A = |n| . max(|lo|, |hi|) + |d| and
// B = |n| . |dir| (reference/fast/aabb_plane.hpp states the band).
//
// Domain: finite floats, lo <= hi; for the plane n != 0. d = 0 and dir = 0
// are in the domain (nothing moves). Outside it: NaN gives a miss.
#pragma once

#include <cmath>

#include "isect/primitives.hpp"

namespace isect {

/// A contact: whether it happens and when.
struct Contact {
    bool hit = false;
    double t = 0;
};

/// First contact of `moving` (moving by d over t in [0, 1]) with
/// `stationary`. tolerant=1.
inline Contact moving_aabb_contact(const Aabb& stationary, const Aabb& moving, const Vec3f& d) {
    double t0 = 0, t1 = 1;
    for (int i = 0; i < 3; ++i) {
        const double lo = double(stationary.lo[i]) - moving.hi[i];  // the gap closes at lo
        const double hi = double(stationary.hi[i]) - moving.lo[i];  // and reopens at hi
        if (d[i] == 0) {
            if (!(lo <= 0 && 0 <= hi)) return {};
            continue;
        }
        double ta = lo / d[i], tb = hi / d[i];
        if (ta > tb) std::swap(ta, tb);
        if (ta > t0) t0 = ta;
        if (tb < t1) t1 = tb;
        if (!(t0 <= t1)) return {};
    }
    return {true, t0};
}

/// First contact at t >= 0 of the box moving along dir with the plane
/// n . x = p.d, from either side. tolerant=1.
inline Contact moving_aabb_plane_contact(const Aabb& box, const Plane& p, const Vec3f& dir) {
    double a = -double(p.d), b = -double(p.d), s = 0;
    for (int i = 0; i < 3; ++i) {
        const double lo = double(p.n[i]) * box.lo[i], hi = double(p.n[i]) * box.hi[i];
        a += p.n[i] > 0 ? lo : hi;
        b += p.n[i] > 0 ? hi : lo;
        s += double(p.n[i]) * dir[i];
    }
    if (a <= 0 && 0 <= b) return {true, 0};
    if (a > 0 && s < 0) return {true, a / -s};
    if (b < 0 && s > 0) return {true, -b / s};
    return {};
}

}  // namespace isect
