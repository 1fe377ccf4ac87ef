// The transformed_aabb family: the float box of a box under an affine map.
// No yes/no answer: the box must contain the exact image and be tight.
#include <limits>
#include <optional>

#include "family_common.hpp"
#include "check/model/plugin_call.hpp"
#include "check/model/generate.hpp"
#include "isect/ref/transformed_aabb.hpp"
#include "isect/transformed_aabb.hpp"

namespace isect::check {

namespace {

using namespace detail;
using ref::Rational;

const Family& self();

// The input, by key (isect/ref/transformed_aabb.hpp): offsets derived, never
// written. The map is m then t.
constexpr auto& kInput = ref::transformed_aabb_input;
constexpr size_t kBox = kInput.at("box.lo"), kBoxHi = kInput.at("box.hi"), kM = kInput.at("m"), kT = kInput.at("t");
static_assert(kBoxHi == kBox + 3);

const char* const kValues[] = {"box.lo.x", "box.lo.y", "box.lo.z", "box.hi.x", "box.hi.y", "box.hi.z"};

/// The map of an input as a float kernel takes it.
Affine affine_f(const double* in) {
    Affine a;
    for (int i = 0; i < 3; ++i) a.m[size_t(i)] = vec_f(in + kM + 3 * i);
    a.t = vec_f(in + kT);
    return a;
}

/// The map of an input, exactly.
ref::ExactAffine exact_affine(const double* in) {
    ref::ExactAffine a;
    for (int i = 0; i < 3; ++i) a.m[size_t(i)] = ref::exact(vec_at(in + kM + 3 * i));
    a.t = ref::exact(vec_at(in + kT));
    return a;
}

Truth truth(const double* in) {
    const ref::ExactAabb b = ref::exact(box_at(in + kBox));
    const ref::ExactAffine a = exact_affine(in);
    const ref::ExactAabb q = ref::transformed_aabb_rational(in), g = ref::transformed_aabb_cgal(b, a);
    for (int i = 0; i < 3; ++i)
        if (q.lo[i] != g.lo[i] || q.hi[i] != g.hi[i])
            throw ReferenceMismatch(std::string("transformed_aabb references disagree on axis ") + "xyz"[i] +
                                    ": rational [" + q.lo[i].str() + ", " + q.hi[i].str() + "], cgal [" +
                                    g.lo[i].str() + ", " + g.hi[i].str() + "]");
    Truth t;
    t.answer = 0;
    for (int i = 0; i < 3; ++i) t.values.push_back(ref::to_double(q.lo[i]));
    for (int i = 0; i < 3; ++i) t.values.push_back(ref::to_double(q.hi[i]));
    return t;
}

/// Containment, decided exactly, then tightness in units of 2^-24 S_i
/// (core/isect/transformed_aabb.hpp). A face inside the exact box cuts the
/// image: it is reported with the band that explains the cut. The band
/// moves the box and t by delta_p = K u M (M their largest magnitude) and
/// row i of m by delta_i = K u |m_i|_inf (band_deltas' rule by role), so the
/// exact face i moves by at most
///   L_i = delta_p + sum_j (|m_ij| delta_p + max(|lo_j|, |hi_j|) delta_i + delta_p delta_i)
///       = K u (M (1 + sum_j |m_ij|) + |m_i|_inf sum_j x_j) + (K u)^2 3 M |m_i|_inf,
/// and a cut by c is explained by the K that solves L_i = c; the band of
/// tolerant=K allows cuts up to that.
ValueError value_error(const double* in, const Truth& truth, const Answer& got) {
    // The exact faces: from the references, or enclosed by the fast oracle
    // (truth.lo, truth.hi), which decides containment unless a face lies
    // inside its enclosure.
    const bool enclosed = !truth.lo.empty();
    std::optional<ref::ExactAabb> q;
    if (!enclosed) q = ref::transformed_aabb_rational(in);
    const double m_pos = position_magnitude(self(), in);
    const double flt_max = greatest_finite();
    ValueError e;
    const double inf = std::numeric_limits<double>::infinity();
    for (int i = 0; i < 3; ++i) {
        // The least subnormal is u 2^-125 (float) or u 2^-1021 (double).
        double s = std::fabs(double(in[kT + i])) + 2 * least_normal();
        const double row = largest_magnitude(in + kM + 3 * i, 3);
        double lip = m_pos, quad = 3 * m_pos * row;  // L_i = lip (K u) + quad (K u)^2
        for (int j = 0; j < 3; ++j) {
            const double x = std::max(std::fabs(double(in[kBox + j])), std::fabs(double(in[kBoxHi + j])));
            s += std::fabs(double(in[kM + 3 * i + j])) * x;
            lip += std::fabs(double(in[kM + 3 * i + j])) * m_pos + row * x;
        }
        for (int side = 0; side < 2; ++side) {
            const size_t at = size_t(3 * side + i);
            const double g = got.values[at];
            const char* name = kValues[at];
            if (std::isnan(g)) {
                worst(e, inf, name);
                continue;
            }
            // Where the exact face x lies: beyond the precision's range, and whether
            // g contains it (g >= x for an upper face) or cuts it.
            bool beyond, cuts;
            if (enclosed) {
                const double lo = truth.lo[at], hi = truth.hi[at];
                const bool beyond_all = lo > flt_max || hi < -flt_max, within_all = lo >= -flt_max && hi <= flt_max;
                const bool contains_all = side ? g >= hi : g <= lo, cuts_all = side ? g < lo : g > hi;
                if ((!beyond_all && !within_all) || (!contains_all && !cuts_all)) {
                    e.undecided = true;
                    continue;
                }
                beyond = beyond_all;
                cuts = cuts_all;
            } else {
                const Rational& x = side ? q->hi[i] : q->lo[i];
                beyond = abs(x) > Rational(flt_max);
                const Rational gq = std::isinf(g) ? Rational(0) : Rational(g);
                cuts = std::isinf(g) ? (side ? g < 0 : g > 0) : (side ? gq < x : gq > x);
            }
            // A face beyond the range is tight as +-inf outward or as the
            // largest finite number on its side.
            if (std::isinf(g)) {
                const bool outward = side ? g > 0 : g < 0;
                if (outward) {
                    worst(e, beyond ? 0 : inf, name);
                } else if (e.cut_k < inf) {  // -inf as an upper face cuts everything
                    e.cut_k = inf;
                    e.cut_output = name;
                }
                continue;
            }
            if (cuts) {
                if (enclosed) {  // the references measure the cut
                    e.undecided = true;
                    continue;
                }
                // K u solves quad (K u)^2 + lip (K u) = cut.
                const Rational& x = side ? q->hi[i] : q->lo[i];
                const double cut = ref::to_double(abs(Rational(x - Rational(g))));
                const double ku = quad > 0 ? 2 * cut / (lip + std::sqrt(lip * lip + 4 * quad * cut)) : cut / lip;
                const double k = ku / unit_roundoff();
                if (k > e.cut_k) {
                    e.cut_k = std::max(k, 0x1p-60);  // a cut is never K = 0
                    e.cut_output = name;
                }
            }
            const double exact = truth.values[at];
            const bool largest = std::fabs(g) == flt_max && (g > 0) == (exact > 0);
            worst(e, beyond && largest ? 0 : units(g, exact, s), name);
        }
    }
    return e;
}

using TransformFn = Aabb (*)(const Aabb&, const Affine&);

FamilyKernel kernel(const std::string& name, double error_e, TransformFn fn) {
    return {name, Contract::exact(), error_e, [fn](const double* in) {
                const Aabb r = fn(box_f(in + kBox), affine_f(in));
                return Answer{0, {r.lo[0], r.lo[1], r.lo[2], r.hi[0], r.hi[1], r.hi[2]}};
            }};
}

/// Planted bug: seed 001's setToTransformedBox as written, in float, rounding
/// to nearest: each face can cut the exact image by an ulp or more.
Aabb seed_float_nearest(const Aabb& box, const Affine& a) {
    Aabb out{a.t, a.t};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            const float m = a.m[i][j];
            if (m > 0.0f) {
                out.lo[i] += m * box.lo[j];
                out.hi[i] += m * box.hi[j];
            } else {
                out.lo[i] += m * box.hi[j];
                out.hi[i] += m * box.lo[j];
            }
        }
    return out;
}

/// Planted bug: the row-vector convention mixed with the column one (m_ji).
Aabb transposed(const Aabb& box, const Affine& a) {
    Affine t = a;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) t.m[i][j] = a.m[j][i];
    return transformed_aabb(box, t);
}

Inputs layout(const Aabb& b, const std::array<Vec3f, 3>& m, const Vec3f& t) {
    Inputs in = gen::fresh();
    gen::put(in, b);
    for (const Vec3f& r : m) gen::put(in, r);
    gen::put(in, t);
    return in;
}

std::vector<Mix> mixes() {
    return {
        {"grid", 1, [](Source& s) {
             return layout(gen::grid_box(s, 3), {gen::grid_point(s, 2), gen::grid_point(s, 2), gen::grid_point(s, 2)},
                           gen::grid_point(s, 4));
         }},
        {"rotation45", 1, [](Source& s) {  // a 45-degree rotation about a random axis: inexact entries
             const float c = 0.70710678f;
             const size_t axis = s.range<size_t>(0, 3);
             std::array<Vec3f, 3> m{};
             const size_t u = (axis + 1) % 3, v = (axis + 2) % 3;
             m[axis][axis] = 1;
             m[u][u] = c;
             m[u][v] = -c;
             m[v][u] = c;
             m[v][v] = c;
             return layout(gen::grid_box(s, 4), m, gen::grid_point(s, 3));
         }},
        {"sign_flip", 1, [](Source& s) {  // permutations with sign flips: exact, and -0 entries
             std::array<Vec3f, 3> m{};
             int perm[] = {0, 1, 2};
             for (int k = 2; k > 0; --k) std::swap(perm[k], perm[s.range(0, k + 1)]);
             for (int i = 0; i < 3; ++i) {
                 for (int j = 0; j < 3; ++j) m[size_t(i)][size_t(j)] = s.pick(0.0f, -0.0f);
                 m[size_t(i)][size_t(perm[i])] = s.pick(1.0f, -1.0f);
             }
             return layout(gen::grid_box(s, 4), m, gen::grid_point(s, 3));
         }},
        {"mixed_scale", 1, [](Source& s) {  // rows and columns of very different magnitudes
             std::array<Vec3f, 3> m;
             for (Vec3f& r : m)
                 for (float& x : r) x = std::ldexp(gen::uniform(s, 0), s.range(-40, 41));
             const int e = s.range(-20, 21);
             return layout(gen::box_between({gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)},
                                            {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)}),
                           m, {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)});
         }},
        {"uniform", 1, [](Source& s) {
             const int e = s.range(-8, 9);
             std::array<Vec3f, 3> m;
             for (Vec3f& r : m)
                 for (float& x : r) x = gen::uniform(s, 0);
             return layout(gen::box_between({gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)},
                                            {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)}),
                           m, {gen::uniform(s, e), gen::uniform(s, e), gen::uniform(s, e)});
         }},
    };
}

/// isect_transformed_aabb(box.lo, box.hi, m, t, out lo, out hi).
template <class T> Answer plugin_call(const Family& f, void* fn, const T* in) {
    using P = const T*;
    const T u = unset_value<T>();
    T out_lo[3] = {u, u, u}, out_hi[3] = {u, u, u};
    as<void (*)(P, P, P, P, T*, T*)>(fn)(in + kBox, in + kBoxHi, in + kM, in + kT, out_lo, out_hi);
    return plugin_answer<T>(f, 0, {out_lo[0], out_lo[1], out_lo[2], out_hi[0], out_hi[1], out_hi[2]});
}

Family make() {
    Family f;
    f.name = "transformed_aabb";
    f.inputs = inputs_of(kInput);
    f.answers = {"box"};
    f.answer_has_values = {true};
    f.safe_answer = 0;
    f.outputs.assign(std::begin(kValues), std::end(kValues));
    f.references = "rational (the fast body on exact numbers: Arvo's terms) and cgal (Aff_transformation_3 on the corners)";
    f.in_domain = [](const double* in, std::string* why) {
        return all_finite(self(), in, why) && box_ordered(self(), kBox, kBoxHi, in, why);
    };
    f.truth = truth;
    f.cgal = [](const double* in) {
        return ref::to_double(ref::transformed_aabb_cgal(ref::exact(box_at(in + kBox)), exact_affine(in)).lo[0]);
    };
    f.value_error = value_error;
    f.fast_truth = [](const double* in) { return from_fast(ref::fast::transformed_aabb(in)); };
    f.oracle_check = [](const double* in, const FastTruth& fast) {
        const ref::ExactAabb q = ref::transformed_aabb_rational(in);
        std::string why;
        for (size_t i = 0; i < 3 && why.empty(); ++i) {
            why = check_enclosure(kValues[i], fast.lo[i], fast.hi[i], q.lo[i]);
            if (why.empty()) why = check_enclosure(kValues[3 + i], fast.lo[3 + i], fast.hi[3 + i], q.hi[i]);
        }
        return why;
    };
    f.wrong_oracle = [](const double* in) { return from_wrong(ref::fast::wrong::transformed_aabb(in)); };
    f.feature = [](const double* in) {  // the smallest nonzero matrix entry or box extent
        double m = 0;
        for (int i = 0; i < 9; ++i)
            if (in[kM + i] != 0 && (m == 0 || std::fabs(double(in[kM + i])) < m)) m = std::fabs(double(in[kM + i]));
        for (int i = 0; i < 3; ++i) {
            const double extent = double(in[kBoxHi + i]) - in[kBox + i];
            if (extent > 0 && (m == 0 || extent < m)) m = extent;
        }
        return m;
    };
    f.all_kernels = [] { return std::vector<FamilyKernel>{kernel("arvo", 3, transformed_aabb)}; };
    f.all_broken = [] {
        return std::vector<FamilyKernel>{kernel("broken:seed_float_nearest", 3, seed_float_nearest),
                                         kernel("broken:transposed", 3, transposed)};
    };
    f.mixes = mixes();
    f.plugin_call_f = plugin_call<float>;
    f.plugin_out_args = "out, out + 3";
    f.plugin_call_d = plugin_call<double>;
    f.preconditions = {preconditions::positive_extent(f)};
    return f;
}

const Family& self() {
    static const Family f = make();
    return f;
}

}  // namespace

const Family& transformed_aabb_family() { return self(); }

}  // namespace isect::check
