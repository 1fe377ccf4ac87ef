// Generating a family's inputs. Every float is built from integers drawn
// from a Source (RapidCheck's own float generator never yields subnormals,
// extreme exponents or exact touching): small grids make touching, parallel
// and coplanar inputs common, and whole-input transforms reach the special
// values. One interface for `isect check`, the properties and the fuzzers.
#pragma once

#include <string>
#include <vector>

#include "check/model/family.hpp"
#include "check/model/source.hpp"
#include "isect/primitives.hpp"

namespace isect::check {

/// The kinds generate() accepts for f: its own mixes, then the shared
/// transforms.
std::vector<std::string> gen_kinds(const Family& f);

/// One input of kind `kind` ("" mixes every kind by weight), inside f's own
/// domain and inside `domain`:
///   f's mixes  - its constructions, as made;
///   magnitude  - any mix with every value scaled by 2^k, k in [-60, 60],
///                half the time from the ends (|k| in 40..60 in float,
///                300..1000 in double), and a third of
///                the time one input group at a magnitude of its own;
///   subnormal  - scaled into the subnormal range, or some values set to +-0;
///   ulp        - a few values moved by one or two ulps;
///   zero_sign  - every zero given a random sign.
/// A transform that leaves f's domain yields the untransformed input. Every
/// input is then fitted into `domain` (fit_domain). Throws
/// std::invalid_argument for an unknown kind.
Generated generate(const Family& f, Source& s, const std::string& kind = "", const Domain& domain = {});

/// Moves an input into a declared domain, keeping its structure where it
/// can: scaled by a power of two (exact, so touching stays touching) when
/// its nonzero magnitudes span no more than the domain does, else with the
/// values below the domain set to zero (of their sign) and those above it
/// clamped to its bound; then adapts it to every required precondition f
/// has that it misses (setting *adapted). Returns false when the result is
/// outside f's own domain or the declared one (the caller draws again).
bool fit_domain(const Family& f, Inputs& in, Source& s, const Domain& domain, bool* adapted = nullptr);

/// An input outside f's domain: a NaN or an infinity somewhere, or what the
/// family's own rules exclude (lo > hi). For the properties that kernels
/// survive such input.
Inputs out_of_domain(const Family& f, Source& s);

namespace gen {

/// An integer in [-n, n], as a float.
float grid(Source& s, int n);
/// A point with grid coordinates.
Vec3f grid_point(Source& s, int n);
/// A float with 24 random mantissa bits in [-2^e, 2^e].
float uniform(Source& s, int e);
/// A point of uniform(e) coordinates.
Vec3f uniform_point(Source& s, int e);
/// The box spanned by two points (flat where they share a coordinate).
Aabb box_between(const Vec3f& p, const Vec3f& q);
/// A grid box, flat or a point one time in four.
Aabb grid_box(Source& s, int n);
/// The box of two uniform(e) points.
Aabb uniform_box(Source& s, int e);

/// A ray's reach as engines pass it: inf, FLT_MAX (the default of most
/// engines' ray structs), 1e30, 2^100, or a short one (0, 1/2, 1, 2, 4).
/// A large finite tmax must not widen the band (docs/contracts.md).
float ray_reach(Source& s);

/// An empty input with room for every family's numbers, from the thread's
/// spares (recycle) where it has one: a case's input allocates nothing
/// once a run is under way. put() takes one for an input with no room.
Inputs fresh();
/// Gives an input's room back to the thread's spares (a block's cases, as
/// the next block overwrites them).
void recycle(Inputs&& in);

/// Appends values to a flat input.
void put(Inputs& out, const Vec3f& v);
void put(Inputs& out, const Aabb& b);
void put(Inputs& out, const Triangle& t);

}  // namespace gen

}  // namespace isect::check
