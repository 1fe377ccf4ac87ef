// sphere_aabb on a number type: the oracle body and the band.
#pragma once

#include "isect/ref/sphere_aabb.hpp"
#include "policies.hpp"

namespace isect::ref::fast::detail {

/// The box and the ball, by key.
struct SphereKeys {
    static constexpr size_t lo = sphere_aabb_input.at("box.lo"), hi = sphere_aabb_input.at("box.hi");
    static constexpr size_t c = sphere_aabb_input.at("c"), r = sphere_aabb_input.at("r");
};

/// The squared distance from the centre to the box; the nearest point and
/// containment are exact (float comparisons).
template <class Ops> typename Ops::NT sphere_dist2(const double* in, double closest[3], bool& contains) {
    typename Ops::NT d2(0);
    contains = true;
    for (int i = 0; i < 3; ++i) {
        using K = SphereKeys;
        const double c = in[K::c + size_t(i)], lo = in[K::lo + size_t(i)], hi = in[K::hi + size_t(i)];
        closest[i] = c < lo ? lo : (c > hi ? hi : c);
        if (closest[i] != c) contains = false;
        const auto d = Ops::of(c) - Ops::of(closest[i]);
        d2 = d2 + d * d;
    }
    return d2;
}

/// The `closest_on_surface` convention's nearest point for a centre in the
/// box: the nearest point of its boundary, on the nearest face (the centre
/// moved onto that face's plane); of several nearest faces, the first in
/// the order x lo, x hi, y lo, y hi, z lo, z hi. Distances are differences
/// of the inputs, compared by their exact signs.
template <class Ops> void nearest_face_point(const double* in, double closest[3]) {
    using K = SphereKeys;
    using NT = typename Ops::NT;
    int axis = 0;
    bool high = false;
    NT best(0);
    for (int i = 0; i < 3; ++i)
        for (int side = 0; side < 2; ++side) {
            const double c = in[K::c + size_t(i)], face = side ? in[K::hi + size_t(i)] : in[K::lo + size_t(i)];
            const NT d = side ? NT(Ops::of(face) - Ops::of(c)) : NT(Ops::of(c) - Ops::of(face));
            if ((i == 0 && side == 0) || Ops::sgn(NT(d - best)) < 0) {
                best = d;
                axis = i;
                high = side == 1;
            }
        }
    closest[axis] = high ? in[K::hi + size_t(axis)] : in[K::lo + size_t(axis)];
}

/// The answer, the nearest point and containment. Surface: the
/// closest_on_surface convention (the answer and containment stay the solid
/// box's; the nearest point is the boundary's for a centre in it).
template <class Ops, bool Surface> struct SphereBodyOf {
    static Out<Ops> run(const double* in) {
        double closest[3];
        bool contains = false;
        const auto d2 = sphere_dist2<Ops>(in, closest, contains);
        if (Surface && contains) nearest_face_point<Ops>(in, closest);
        const auto r = Ops::of(in[SphereKeys::r]);
        Out<Ops> out;
        out.answer = Ops::sgn(r * r - d2) >= 0 ? 1 : 0;
        for (double c : closest) put_double<Ops>(out, c);
        put_double<Ops>(out, contains ? 1 : 0);
        return out;
    }
};
template <class Ops> using SphereBody = SphereBodyOf<Ops, false>;
template <class Ops> using SphereSurfaceBody = SphereBodyOf<Ops, true>;

/// Moving every input by delta moves the centre by at most sqrt(3) delta,
/// the box (hence the distance from any point to it) by at most sqrt(3)
/// delta, and r by delta: dist - r moves by at most (2 sqrt(3) + 1) delta <
/// 4.5 delta. The band is |dist - r| <= 4.5 delta, decided on squares:
/// max(0, r - 4.5 delta)^2 <= dist^2 <= (r + 4.5 delta)^2. A superset of the
/// inputs whose answer can flip.
template <class Ops> struct SphereBand {
    static_assert(positions_only(sphere_aabb_input), "every number moves by one delta");
    static bool run(const double* in, int /*exact_answer*/, const double* delta) {
        using NT = typename Ops::NT;
        const NT w = Ops::of(4.5) * Ops::of(delta[0]), r = Ops::of(in[SphereKeys::r]);
        double closest[3];
        bool contains = false;
        const NT d2 = sphere_dist2<Ops>(in, closest, contains);
        const NT lo = Ops::sgn(r - w) > 0 ? NT(r - w) : NT(0);
        return Ops::sgn(d2 - lo * lo) >= 0 && Ops::sgn((r + w) * (r + w) - d2) >= 0;
    }
};

}  // namespace isect::ref::fast::detail
