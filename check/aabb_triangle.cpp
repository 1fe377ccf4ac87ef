#include "isect/check/aabb_triangle.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <ostream>

#include "isect/check/case_file.hpp"
#include "isect/ref/aabb_triangle.hpp"

namespace isect::check {

namespace {

/// Both references on a rational box; they must agree.
bool exact_answer(const ref::ExactAabb& box, const ref::ExactTriangle& tri) {
    const bool clip = ref::aabb_triangle_clip(box, tri);
    const bool cgal = ref::aabb_triangle_cgal(box, tri);
    if (clip != cgal)
        throw ReferenceMismatch(std::string("aabb_triangle references disagree: clip says ") +
                                (clip ? "overlap" : "disjoint") + ", cgal says " + (cgal ? "overlap" : "disjoint"));
    return clip;
}

}  // namespace

bool aabb_triangle_truth(const Aabb& box, const Triangle& tri) {
    if (!aabb_triangle_in_domain(box, tri))
        throw std::domain_error("aabb_triangle: no exact answer outside the domain (non-finite value or lo > hi)");
    return exact_answer(ref::exact(box), ref::exact(tri));
}

float largest_magnitude(const Aabb& box, const Triangle& tri) {
    float m = 0;
    for (int i = 0; i < 3; ++i) {
        m = std::max({m, std::fabs(box.lo[i]), std::fabs(box.hi[i])});
        for (const Vec3f& p : tri.v) m = std::max(m, std::fabs(p[i]));
    }
    return m;
}

namespace {

/// Whether moving the box by delta = K 2^-24 M flips the exact answer:
/// shrinking for a false miss, growing for a false hit (monotone in K).
bool flips(const ref::ExactAabb& box, const ref::ExactTriangle& tri, float m, bool exact, double k) {
    const ref::Rational delta = ref::Rational(k) * ref::Rational(std::ldexp(1.0, -24)) * ref::Rational(double(m));
    ref::ExactAabb moved = box;
    for (int i = 0; i < 3; ++i) {
        moved.lo[i] += exact ? delta : -delta;
        moved.hi[i] += exact ? -delta : delta;
    }
    return exact_answer(moved, tri) != exact;
}

}  // namespace

bool aabb_triangle_in_band(const Aabb& box, const Triangle& tri, bool exact, double k) {
    const float m = largest_magnitude(box, tri);
    if (m == 0 || !(k > 0)) return false;
    return flips(ref::exact(box), ref::exact(tri), m, exact, k);
}

double aabb_triangle_band(const Aabb& box, const Triangle& tri, bool exact) {
    const float m = largest_magnitude(box, tri);
    if (m == 0) return INFINITY;  // delta is zero for every K
    const ref::ExactAabb ebox = ref::exact(box);
    const ref::ExactTriangle etri = ref::exact(tri);
    const auto f = [&](double log2k) { return flips(ebox, etri, m, exact, std::exp2(log2k)); };
    constexpr double kLow = -64, kHigh = 64;
    if (f(kLow)) return 0;
    if (!f(kHigh)) return INFINITY;
    double lo = kLow, hi = kHigh;
    for (int i = 0; i < 40; ++i) {
        const double mid = 0.5 * (lo + hi);
        (f(mid) ? hi : lo) = mid;
    }
    return std::exp2(hi);
}

Judgement judge(const AabbTriangleKernel& kernel, const AabbTriangleInput& in, bool exact) {
    Judgement j;
    j.exact = exact;
    j.kernel = kernel.fn(in.box, in.tri);
    if (j.disagrees()) j.band_k = aabb_triangle_band(in.box, in.tri, exact);
    return j;
}

bool violates(const AabbTriangleKernel& kernel, const AabbTriangleInput& in, bool exact) {
    const bool answer = kernel.fn(in.box, in.tri);
    if (answer == exact) return false;
    switch (kernel.contract.kind) {
        case Contract::Kind::exact: return true;
        case Contract::Kind::conservative: return !answer;
        case Contract::Kind::tolerant: return !aabb_triangle_in_band(in.box, in.tri, exact, kernel.contract.k);
    }
    return true;
}

AabbTriangleInput apply(const Symmetry& s, const AabbTriangleInput& in) {
    static constexpr int kPerms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const int* p = kPerms[s.perm];
    AabbTriangleInput out = in;
    for (int i = 0; i < 3; ++i) {
        const bool flip = (s.mirror >> i) & 1;
        const int src = p[i];
        out.box.lo[i] = flip ? -in.box.hi[src] : in.box.lo[src];
        out.box.hi[i] = flip ? -in.box.lo[src] : in.box.hi[src];
        for (int k = 0; k < 3; ++k) out.tri.v[k][i] = flip ? -in.tri.v[k][src] : in.tri.v[k][src];
    }
    return out;
}

namespace {

template <class F> void for_each_coord(AabbTriangleInput& in, F f) {
    for (int i = 0; i < 3; ++i) {
        f(in.box.lo[i]);
        f(in.box.hi[i]);
        for (Vec3f& p : in.tri.v) f(p[i]);
    }
}

}  // namespace

AabbTriangleInput scale_pow2(const AabbTriangleInput& in, int k) {
    AabbTriangleInput out = in;
    for_each_coord(out, [k](float& x) { x = std::ldexp(x, k); });
    return out;
}

bool scaling_is_exact(const AabbTriangleInput& in, int k) {
    AabbTriangleInput copy = in;
    bool exact = true;
    for_each_coord(copy, [&](float& x) {
        const float y = std::ldexp(x, k);
        // An inexact result can only be a rounded subnormal, and scaling it
        // back then misses x.
        if (!std::isfinite(y) || std::ldexp(y, -k) != x) exact = false;
    });
    return exact;
}

AabbTriangleInput rotate_vertices(const AabbTriangleInput& in) {
    AabbTriangleInput out = in;
    out.tri.v = {in.tri.v[1], in.tri.v[2], in.tri.v[0]};
    return out;
}

AabbTriangleInput reverse_vertices(const AabbTriangleInput& in) {
    AabbTriangleInput out = in;
    out.tri.v = {in.tri.v[2], in.tri.v[1], in.tri.v[0]};
    return out;
}

std::string aabb_triangle_deciding_axis(const Aabb& box, const Triangle& tri) {
    const ref::ExactAabb b = ref::exact(box);
    const ref::ExactTriangle t = ref::exact(tri);
    // The gap along axis x, in units of box growth: growing the box by g on
    // every side widens its projection by g |x|_1, so gap / |x|_1 is how far
    // the box must grow before this axis stops separating. The deciding axis
    // is the one with the widest such gap (ties: the first in the usual order).
    const auto gap = [&](const ref::Point& x) -> std::optional<ref::Rational> {
        const ref::Rational norm = abs(x[0]) + abs(x[1]) + abs(x[2]);
        if (norm == 0) return std::nullopt;
        ref::Rational p[3], bmin = 0, bmax = 0;
        for (int k = 0; k < 3; ++k) p[k] = x[0] * t.v[k][0] + x[1] * t.v[k][1] + x[2] * t.v[k][2];
        for (int i = 0; i < 3; ++i) {
            const ref::Rational lo = x[i] * b.lo[i], hi = x[i] * b.hi[i];
            bmin += lo < hi ? lo : hi;
            bmax += lo < hi ? hi : lo;
        }
        const ref::Rational g = std::max(std::min({p[0], p[1], p[2]}) - bmax, bmin - std::max({p[0], p[1], p[2]}));
        if (g <= 0) return std::nullopt;
        return ref::Rational(g / norm);
    };
    const char* names = "xyz";
    std::string best = "none";
    ref::Rational widest = 0;
    const auto consider = [&](const ref::Point& x, const std::string& name) {
        const auto g = gap(x);
        if (g && *g > widest) {
            widest = *g;
            best = name;
        }
    };
    for (int i = 0; i < 3; ++i) {
        ref::Point e = {0, 0, 0};
        e[i] = 1;
        consider(e, std::string("face ") + names[i]);
    }
    ref::Point f[3];
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) f[j][i] = t.v[(j + 1) % 3][i] - t.v[j][i];
    consider({f[0][1] * f[1][2] - f[0][2] * f[1][1], f[0][2] * f[1][0] - f[0][0] * f[1][2],
              f[0][0] * f[1][1] - f[0][1] * f[1][0]},
             "normal");
    for (int j = 0; j < 3; ++j) {
        const ref::Point axes[3] = {{0, -f[j][2], f[j][1]}, {f[j][2], 0, -f[j][0]}, {-f[j][1], f[j][0], 0}};
        for (int i = 0; i < 3; ++i) consider(axes[i], std::string("edge ") + names[i] + "*f" + std::to_string(j));
    }
    return best;
}

void showValue(const AabbTriangleInput& in, std::ostream& os) {
    if (!aabb_triangle_in_domain(in.box, in.tri)) {
        os << "\n" << format_input(in, false, std::string("generator ") + in.kind + "; outside the domain, expect is meaningless");
        return;
    }
    try {
        os << "\n" << format_input(in, aabb_triangle_truth(in.box, in.tri), std::string("generator ") + in.kind);
    } catch (const ReferenceMismatch& e) {
        os << "\n" << format_input(in, false, std::string("generator ") + in.kind + "; " + e.what());
    }
}

std::string format_input(const AabbTriangleInput& in, bool expect_overlap, const std::string& origin) {
    AabbTriangleCase c;
    c.origin = origin;
    c.box = in.box;
    c.tri = in.tri;
    c.expect_overlap = expect_overlap;
    return format_case(c);
}

}  // namespace isect::check
