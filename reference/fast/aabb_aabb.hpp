// aabb_aabb on a number type: the oracle body and the band.
#pragma once

#include "isect/ref/aabb_aabb.hpp"
#include "policies.hpp"

namespace isect::ref::fast::detail {

/// Overlap iff no axis separates the closed boxes; then the box they share.
/// Comparisons, min and max of the inputs only: exact on any policy (the
/// fast oracle runs it on plain doubles, the rational reference on exact
/// numbers).
template <class Ops> struct AabbAabbBody {
    static Out<Ops> run(const double* in) {
        constexpr size_t a_lo = aabb_aabb_input.at("a.lo"), a_hi = aabb_aabb_input.at("a.hi");
        constexpr size_t b_lo = aabb_aabb_input.at("b.lo"), b_hi = aabb_aabb_input.at("b.hi");
        Out<Ops> r;
        for (size_t i = 0; i < 3; ++i)
            if (in[a_lo + i] > in[b_hi + i] || in[b_lo + i] > in[a_hi + i]) return r;
        r.answer = 1;
        for (size_t i = 0; i < 3; ++i) put_double<Ops>(r, std::max(in[a_lo + i], in[b_lo + i]));
        for (size_t i = 0; i < 3; ++i) put_double<Ops>(r, std::min(in[a_hi + i], in[b_hi + i]));
        return r;
    }
};

/// The `volume_overlap` convention: the boxes overlap only where what they
/// share has volume, max(lo) < min(hi) on every axis (a face, an edge or a
/// corner in common, or a flat box, is no overlap); then the same box.
template <class Ops> struct AabbAabbVolumeBody {
    static Out<Ops> run(const double* in) {
        constexpr size_t a_lo = aabb_aabb_input.at("a.lo"), a_hi = aabb_aabb_input.at("a.hi");
        constexpr size_t b_lo = aabb_aabb_input.at("b.lo"), b_hi = aabb_aabb_input.at("b.hi");
        Out<Ops> r;
        for (size_t i = 0; i < 3; ++i)
            if (!(std::max(in[a_lo + i], in[b_lo + i]) < std::min(in[a_hi + i], in[b_hi + i]))) return r;
        r.answer = 1;
        for (size_t i = 0; i < 3; ++i) put_double<Ops>(r, std::max(in[a_lo + i], in[b_lo + i]));
        for (size_t i = 0; i < 3; ++i) put_double<Ops>(r, std::min(in[a_hi + i], in[b_hi + i]));
        return r;
    }
};

/// Moving every input by delta moves each difference hi - lo of the two
/// boxes by at most 2 delta, and the differences share no input. Overlap
/// flips iff some difference (all are >= 0) is below 2 delta; disjoint flips
/// iff every negative difference is at least -2 delta. Exact: the band is
/// exactly the set of inputs the contract's definition allows.
template <class Ops> struct AabbAabbBand {
    static_assert(positions_only(aabb_aabb_input), "every number moves by one delta");
    static bool run(const double* in, int exact_answer, const double* delta) {
        using NT = typename Ops::NT;
        constexpr size_t a_lo = aabb_aabb_input.at("a.lo"), a_hi = aabb_aabb_input.at("a.hi");
        constexpr size_t b_lo = aabb_aabb_input.at("b.lo"), b_hi = aabb_aabb_input.at("b.hi");
        const NT two_delta = 2 * Ops::of(delta[0]);
        bool overlap_flips = false, disjoint_flips = true;
        for (int i = 0; i < 3; ++i)
            for (const NT& diff : {NT(Ops::of(in[b_hi + i]) - Ops::of(in[a_lo + i])), NT(Ops::of(in[a_hi + i]) - Ops::of(in[b_lo + i]))}) {
                if (Ops::sgn(two_delta - diff) > 0) overlap_flips = true;
                if (Ops::sgn(diff) < 0 && Ops::sgn(diff + two_delta) < 0) disjoint_flips = false;
            }
        return exact_answer == 1 ? overlap_flips : disjoint_flips;
    }
};

/// volume_overlap's band. Overlap is every difference hi - lo > 0, now also
/// each box's own width on each axis; each moves by at most 2 delta. An
/// overlap flips iff some difference is at most 2 delta (shrinking it alone
/// closes it); a disjoint pair iff every difference exceeds -2 delta
/// (growing both boxes by delta widens every difference by 2 delta at once).
/// Exact, as the default's.
template <class Ops> struct AabbAabbVolumeBand {
    static bool run(const double* in, int exact_answer, const double* delta) {
        using NT = typename Ops::NT;
        constexpr size_t a_lo = aabb_aabb_input.at("a.lo"), a_hi = aabb_aabb_input.at("a.hi");
        constexpr size_t b_lo = aabb_aabb_input.at("b.lo"), b_hi = aabb_aabb_input.at("b.hi");
        const NT two_delta = 2 * Ops::of(delta[0]);
        bool overlap_flips = false, disjoint_flips = true;
        for (int i = 0; i < 3; ++i)
            for (const auto& [hi, lo] : {std::pair{b_hi, a_lo}, std::pair{a_hi, b_lo}, std::pair{a_hi, a_lo}, std::pair{b_hi, b_lo}}) {
                const NT diff = Ops::of(in[hi + size_t(i)]) - Ops::of(in[lo + size_t(i)]);
                if (Ops::sgn(two_delta - diff) >= 0) overlap_flips = true;
                if (Ops::sgn(diff + two_delta) <= 0) disjoint_flips = false;
            }
        return exact_answer == 1 ? overlap_flips : disjoint_flips;
    }
};

}  // namespace isect::ref::fast::detail
