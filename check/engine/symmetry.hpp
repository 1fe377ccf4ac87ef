// The symmetries of a family's input: transforms that keep the exact answer
// (axis permutations, mirrors, power-of-two scales, exact translations,
// vertex rotation and reversal), and the feature the validity map bins by.
#pragma once

#include <array>
#include <optional>

#include "check/model/family.hpp"

namespace isect::check {

/// A transform of a whole input that keeps the exact answer: an axis
/// permutation (0..5), a mirror mask (bit i negates axis i), a scale 2^k, a
/// translation, and for polygon keys a rotation of the vertices and a
/// reversal of their order.
struct Symmetry {
    int perm = 0;
    int mirror = 0;
    int scale = 0;
    std::array<double, 3> translate = {0, 0, 0};
    int rotate = 0;
    bool reverse = false;
};

/// Whether s keeps a winding's handedness: an even count of mirrored axes,
/// odd axis permutations and vertex reversals together.
bool keeps_handedness(const Symmetry& s);

/// The input moved by s; nullopt when some value would round (a scaling
/// into the subnormals, an inexact translation) or s translates a family
/// that cannot be (a plane offset, a matrix).
std::optional<Inputs> transformed(const Family& f, const Inputs& in, const Symmetry& s);


}  // namespace isect::check
