// Shared generator pieces for the families of the generic engine. As in
// aabb_triangle_gen.cpp, every float is built from integers (RapidCheck's
// float generator never yields subnormals, extreme exponents or exact
// touching): small grids make touching, parallel and coplanar inputs common,
// and whole-input transforms reach the special values.
#pragma once

#include <rapidcheck.h>
#include <string>
#include <utility>
#include <vector>

#include "isect/check/family.hpp"
#include "isect/primitives.hpp"

namespace isect::check::gen {

/// An integer in [-n, n], as a float.
float grid(int n);
/// A point with grid coordinates.
Vec3f grid_point(int n);
/// A float with 24 random mantissa bits in [-2^e, 2^e].
float uniform(int e);
/// The box spanned by two points (flat where they share a coordinate).
Aabb box_between(const Vec3f& p, const Vec3f& q);
/// A grid box, flat or a point one time in four.
Aabb grid_box(int n);

/// Appends values to a flat input.
void put(Floats& out, const Vec3f& v);
void put(Floats& out, const Aabb& b);
void put(Floats& out, const Triangle& t);

/// A family's geometric mixes, by kind name.
using Mixes = std::vector<std::pair<std::string, std::function<Floats()>>>;

/// The generator behind Family::gen: the family's own mixes plus the shared
/// transforms of any of them:
///   magnitude - every value scaled by 2^k, k in [-60, 60];
///   subnormal - scaled into the subnormal range, or some values set to +-0;
///   ulp       - a few values moved by one or two ulps;
///   zero_sign - every zero given a random sign.
/// A transform that leaves the domain yields the untransformed input. kind ""
/// mixes everything; an unknown kind throws std::invalid_argument.
rc::Gen<Generated> family_mix(const Family& f, const Mixes& mixes, const std::string& kind);

/// The kind names family_mix accepts for these mixes.
std::vector<std::string> mix_kinds(const Mixes& mixes);

/// Sets f.gen_kinds and f.gen from the family's mixes; `self` returns the
/// finished family (the generator needs its domain).
void use_mixes(Family& f, const Family& (*self)(), Mixes (*mixes)());

}  // namespace isect::check::gen
