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

/// The band, for the closed boxes (Volume false) or under volume_overlap.
/// Moving every input by delta moves each difference hi - lo of the two
/// boxes by at most 2 delta. Closed boxes overlap iff every difference is
/// >= 0, and those differences share no input: an overlap flips iff some
/// difference is below 2 delta, a disjoint pair iff every negative one is at
/// least -2 delta. Under volume_overlap every difference, each box's own
/// width now among them, must be > 0: an overlap flips iff some difference
/// is at most 2 delta (shrinking it alone closes it), a disjoint pair iff
/// every one exceeds -2 delta (growing both boxes by delta widens every
/// difference by 2 delta at once). Exact either way: the band is the set of
/// inputs the contract's definition allows.
template <bool Volume> struct AabbAabbBandOf {
    template <class Ops> struct Body {
        static_assert(positions_only(aabb_aabb_input), "every number moves by one delta");
        static bool run(const double* in, int exact_answer, const double* delta) {
            using NT = typename Ops::NT;
            constexpr size_t a_lo = aabb_aabb_input.at("a.lo"), a_hi = aabb_aabb_input.at("a.hi");
            constexpr size_t b_lo = aabb_aabb_input.at("b.lo"), b_hi = aabb_aabb_input.at("b.hi");
            constexpr std::pair<size_t, size_t> pairs[4] = {{b_hi, a_lo}, {a_hi, b_lo}, {a_hi, a_lo}, {b_hi, b_lo}};
            // The sign 2 delta - diff must reach to close a difference, and
            // the sign diff + 2 delta below which one cannot open.
            constexpr int closes = Volume ? 0 : 1, opens = Volume ? 1 : 0;
            const NT two_delta = 2 * Ops::of(delta[0]);
            bool overlap_flips = false, disjoint_flips = true;
            for (size_t i = 0; i < 3; ++i)
                for (size_t p = 0; p < (Volume ? 4 : 2); ++p) {
                    const NT diff = Ops::of(in[pairs[p].first + i]) - Ops::of(in[pairs[p].second + i]);
                    if (Ops::sgn(two_delta - diff) >= closes) overlap_flips = true;
                    if (Ops::sgn(diff + two_delta) < opens) disjoint_flips = false;
                }
            return exact_answer == 1 ? overlap_flips : disjoint_flips;
        }
    };
};
template <class Ops> using AabbAabbBand = AabbAabbBandOf<false>::Body<Ops>;
template <class Ops> using AabbAabbVolumeBand = AabbAabbBandOf<true>::Body<Ops>;

}  // namespace isect::ref::fast::detail
