// Generators for aabb_triangle inputs. RapidCheck's own float generator never
// yields subnormals, extreme exponents or exact touching, so every float here
// is built from integers: a small grid makes touching faces, edges and
// corners, coplanar and collinear vertices common; scaling by 2^k is exact and
// reaches huge, tiny and subnormal magnitudes; nextafter nudges move a
// touching case one ulp either way. Integers shrink towards zero, so a failing
// case shrinks towards small readable numbers.
#include <cmath>
#include <rapidcheck.h>

#include "isect/check/aabb_triangle.hpp"
#include "isect/check/family_gen.hpp"

namespace isect::check {

namespace {

using rc::gen::exec;
using rc::gen::inRange;

using gen::box_between;
using gen::grid_point;
float grid_value(int n) { return gen::grid(n); }

Symmetry any_symmetry() { return {*inRange(0, 6), *inRange(0, 8)}; }

/// Uniform: 24-bit mantissas at a common random exponent. A quarter of the
/// triangles are slivers: the third vertex is v0 + t (v1 - v0) rounded to
/// float, collinear but for the rounding.
AabbTriangleInput make_uniform() {
    const int e = *inRange(-8, 9);
    const auto coord = [e] { return std::ldexp(float(*inRange<int32_t>(-(1 << 24), (1 << 24) + 1)), e - 24); };
    const auto point = [&] { return Vec3f{coord(), coord(), coord()}; };
    AabbTriangleInput in;
    in.kind = "uniform";
    const Vec3f p = point(), q = point();
    in.box = box_between(p, q);
    for (Vec3f& v : in.tri.v) v = point();
    auto& v = in.tri.v;
    if (*inRange(0, 4) == 0) {  // a sliver
        const float t = *rc::gen::element(-1.0f, 0.3f, 0.5f, 0.7f, 2.0f);
        for (int i = 0; i < 3; ++i) v[2][i] = v[0][i] + t * (v[1][i] - v[0][i]);
    }
    return in;
}

/// Grid-snapped near-degenerate constructions.
AabbTriangleInput make_grid() {
    AabbTriangleInput in;
    in.kind = "grid";
    const Vec3f p = grid_point(3), q = grid_point(3);
    in.box = box_between(p, q);  // flat on an axis when p and q share it
    auto& v = in.tri.v;
    for (Vec3f& x : v) x = grid_point(4);
    const Aabb& b = in.box;
    switch (*inRange(0, 11)) {
        case 0: break;
        case 1: v[1] = v[0]; break;                 // repeated vertex: a segment
        case 2: v[2] = v[1] = v[0]; break;          // a point
        case 3: {                                   // collinear, third vertex outside the edge
            const int m = *rc::gen::element(-2, -1, 2, 3);
            for (int i = 0; i < 3; ++i) v[2][i] = v[0][i] + float(m) * (v[1][i] - v[0][i]);
            break;
        }
        case 4:                                     // collinear, third vertex inside the edge
            for (int i = 0; i < 3; ++i) v[2][i] = 0.5f * (v[0][i] + v[1][i]);
            break;
        case 5: {                                   // an edge parallel to an axis
            const int axis = *inRange(0, 3);
            v[1] = v[0];
            v[1][axis] = grid_value(4);
            break;
        }
        case 6:                                     // a vertex on a box corner
            for (int i = 0; i < 3; ++i) v[0][i] = *rc::gen::arbitrary<bool>() ? b.lo[i] : b.hi[i];
            break;
        case 7:                                     // a vertex on a box edge or face
            for (int i = 0; i < 3; ++i) {
                const int pick = *inRange(0, 3);
                v[0][i] = pick == 0 ? b.lo[i] : pick == 1 ? b.hi[i] : v[0][i];
            }
            break;
        case 8: {                                   // triangle in a face's plane
            const int axis = *inRange(0, 3);
            const float plane = *rc::gen::arbitrary<bool>() ? b.lo[axis] : b.hi[axis];
            for (Vec3f& x : v) x[axis] = plane;
            break;
        }
        case 9: {                                   // an edge along a box edge's line
            const int axis = *inRange(0, 3);
            for (int i = 0; i < 3; ++i)
                if (i != axis) v[0][i] = v[1][i] = *rc::gen::arbitrary<bool>() ? b.lo[i] : b.hi[i];
            break;
        }
        case 10: {                                  // a sliver: collinear, then one coordinate a few ulps off
            const int m = *rc::gen::element(-2, -1, 2, 3);
            for (int i = 0; i < 3; ++i) v[2][i] = v[0][i] + float(m) * (v[1][i] - v[0][i]);
            float& x = v[2][*inRange(0, 3)];
            for (int steps = *inRange(1, 4); steps > 0; --steps) x = std::nextafter(x, *rc::gen::arbitrary<bool>() ? INFINITY : -INFINITY);
            break;
        }
    }
    in = scale_pow2(in, *inRange(-3, 4));
    // Signed zeros: any zero may become -0; the answer must not care.
    if (*rc::gen::arbitrary<bool>()) {
        for (int i = 0; i < 3; ++i) {
            for (Vec3f& x : v)
                if (x[i] == 0 && *rc::gen::arbitrary<bool>()) x[i] = -0.0f;
            if (in.box.lo[i] == 0 && *rc::gen::arbitrary<bool>()) in.box.lo[i] = -0.0f;
            if (in.box.hi[i] == 0 && *rc::gen::arbitrary<bool>()) in.box.hi[i] = -0.0f;
        }
    }
    return in;
}

/// Seed 002's family: a triangle by a box edge that no face separates, with
/// only the edge axis (1,1,0) (up to symmetry) left to decide. a >= b keeps
/// the near vertices on or beyond the plane x + y = 2s; a == b touches it.
AabbTriangleInput make_pm10() {
    const int s = *inRange(1, 17);
    const auto pair = [] {
        const int a = *inRange(1, 5);
        return std::pair<int, int>{a, *inRange(1, a + 1)};
    };
    const auto [a1, b1] = pair();
    const auto [a2, b2] = pair();
    const auto z = [s] { return float(*inRange(-s, s + 11)); };
    AabbTriangleInput in;
    in.kind = "pm10";
    in.box = {{float(-s), float(-s), float(-s)}, {float(s), float(s), float(s)}};
    in.tri.v[0] = {float(s + a1), float(s - b1), z()};
    in.tri.v[1] = {float(s - b2), float(s + a2), z()};
    in.tri.v[2] = {float(s + *inRange(0, 11)), float(s + *inRange(0, 11)), z()};
    in = apply(any_symmetry(), in);
    in = scale_pow2(in, *inRange(-4, 5));
    in.kind = "pm10";
    return in;
}

/// An exponent in [-60, 60], half the time from the ends (|k| >= 40), where
/// products of three inputs leave float's range.
int magnitude_exponent() {
    if (*rc::gen::arbitrary<bool>()) return *inRange(-60, 61);
    const int k = *inRange(40, 61);
    return *rc::gen::arbitrary<bool>() ? k : -k;
}

/// One of the base mixes, scaled by 2^k with k in [-60, 60]; a third of the
/// time box and triangle at unrelated magnitudes.
AabbTriangleInput make_magnitude() {
    const int base = *inRange(0, 3);
    AabbTriangleInput in = base == 0 ? make_uniform() : base == 1 ? make_grid() : make_pm10();
    const int k = magnitude_exponent();
    if (*inRange(0, 3) == 0) {
        AabbTriangleInput other = scale_pow2(in, magnitude_exponent());
        in = scale_pow2(in, k);
        in.tri = other.tri;
    } else {
        in = scale_pow2(in, k);
    }
    in.kind = "magnitude";
    return in;
}

/// Grid cases moved down to subnormal and just-normal magnitudes.
AabbTriangleInput make_subnormal() {
    AabbTriangleInput in = make_grid();
    int k = *inRange(-146, -118);
    if (!scaling_is_exact(in, k)) k = -118;
    in = scale_pow2(in, k);
    in.kind = "subnormal";
    return in;
}

/// Exactly collinear triangles of full-precision coordinates through a point
/// of the box, often much longer than the box, some box bounds of unrelated
/// exponents: the computed normal is pure rounding noise, and the vertices'
/// projections on it differ by more than the box radius (how the fuzzer found
/// corpus/aabb_triangle/sat_collinear_garbage_normal).
AabbTriangleInput make_collinear() {
    AabbTriangleInput in = make_uniform();
    in.kind = "collinear";
    for (int i = 0; i < 3; ++i)
        if (*rc::gen::arbitrary<bool>()) in.box.hi[i] = std::ldexp(in.box.hi[i], -*inRange(10, 60));
    for (int i = 0; i < 3; ++i)
        if (in.box.lo[i] > in.box.hi[i]) std::swap(in.box.lo[i], in.box.hi[i]);
    auto& v = in.tri.v;
    const int longer = *inRange(0, 13);  // a segment up to 2^12 times the box
    for (int i = 0; i < 3; ++i) {
        // v0 = v1 - d and v2 = v1 + d exactly: d with its last mantissa bit
        // clear, and v1 (a point of the box) a multiple of d's doubled ulp.
        float d = std::ldexp(v[2][i] - v[1][i], longer);
        const float step = 2 * (std::nextafter(std::fabs(d), INFINITY) - std::fabs(d));
        d = step > 0 && std::isfinite(step) ? std::round(d / step) * step : 0.0f;
        const float t = float(*inRange(1, 8)) / 8;
        float mid = in.box.lo[i] + t * (in.box.hi[i] - in.box.lo[i]);
        if (step > 0 && std::fabs(mid) < std::fabs(d)) mid = std::round(mid / step) * step;
        const float a = mid - d, c = mid + d;
        const bool exact = double(a) + double(c) == 2.0 * double(mid) && double(c) - double(mid) == double(d);
        v[1][i] = mid;
        v[0][i] = exact ? a : mid;  // else the coordinate is shared: still collinear
        v[2][i] = exact ? c : mid;
    }
    return in;
}

/// Grid or seed cases with coordinates nudged a few ulps off touching.
AabbTriangleInput make_ulp() {
    AabbTriangleInput in = *inRange(0, 2) == 0 ? make_grid() : make_pm10();
    const auto nudge = [](float& x) {
        const int steps = *inRange(-2, 3);
        for (int i = 0; i < std::abs(steps); ++i) x = std::nextafter(x, steps > 0 ? INFINITY : -INFINITY);
    };
    for (int i = 0; i < 3; ++i) {
        if (*inRange(0, 4) == 0) nudge(in.box.lo[i]);
        if (*inRange(0, 4) == 0) nudge(in.box.hi[i]);
        if (in.box.lo[i] > in.box.hi[i]) std::swap(in.box.lo[i], in.box.hi[i]);
        for (Vec3f& v : in.tri.v)
            if (*inRange(0, 4) == 0) nudge(v[i]);
    }
    in.kind = "ulp";
    return in;
}

struct Mix {
    const char* name;
    int weight;
    AabbTriangleInput (*make)();
};

constexpr Mix kMixes[] = {
    {"uniform", 2, make_uniform}, {"grid", 4, make_grid},           {"pm10", 2, make_pm10},
    {"magnitude", 2, make_magnitude}, {"subnormal", 1, make_subnormal}, {"ulp", 2, make_ulp},
    {"collinear", 1, make_collinear},
};

}  // namespace

rc::Gen<AabbTriangleInput> gen_aabb_triangle(const std::string& kind) {
    for (const Mix& m : kMixes)
        if (kind == m.name) return exec(m.make);
    throw std::invalid_argument("no aabb_triangle generator named '" + kind + "'");
}

const std::vector<std::string>& aabb_triangle_gen_kinds() {
    static const std::vector<std::string> kinds = [] {
        std::vector<std::string> k;
        for (const Mix& m : kMixes) k.push_back(m.name);
        return k;
    }();
    return kinds;
}

rc::Gen<AabbTriangleInput> gen_aabb_triangle() {
    static_assert(std::size(kMixes) == 7, "list every mix below");
    const auto part = [](const Mix& m) { return std::pair<std::size_t, rc::Gen<AabbTriangleInput>>(m.weight, exec(m.make)); };
    return rc::gen::weightedOneOf<AabbTriangleInput>({part(kMixes[0]), part(kMixes[1]), part(kMixes[2]),
                                                      part(kMixes[3]), part(kMixes[4]), part(kMixes[5]),
                                                      part(kMixes[6])});
}

rc::Gen<AabbTriangleInput> gen_aabb_triangle_out_of_domain() {
    return exec([] {
        AabbTriangleInput in = make_grid();
        in.kind = "out_of_domain";
        const float special = *rc::gen::element(INFINITY, -INFINITY, NAN, -NAN);
        const int axis = *inRange(0, 3);
        switch (*inRange(0, 4)) {
            case 0: in.tri.v[*inRange(0, 3)][axis] = special; break;
            case 1: in.box.lo[axis] = special; break;
            case 2: in.box.hi[axis] = special; break;
            case 3:  // lo > hi
                in.box.lo[axis] = std::nextafter(std::max(in.box.lo[axis], in.box.hi[axis]), INFINITY);
                break;
        }
        return in;
    });
}

}  // namespace isect::check
