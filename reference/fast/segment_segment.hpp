// segment_segment on a number type: the oracle body and the band.
//
// The least of D(s, t) over the square is core's segment_minimum
// (isect/segment_segment.hpp), written once over a number policy and run
// here on intervals, then Mpzf; its choices are those of the rational
// reference (interior, then the edges s = 0, s = 1, t = 0, t = 1, the first
// least), so every enclosure holds the reference's number.
#pragma once

#include "isect/ref/segment_segment.hpp"
#include "isect/segment_segment.hpp"
#include "policies.hpp"

namespace isect::ref::fast::detail {

struct SegmentSegmentKeys {
    static constexpr size_t p1 = segment_segment_input.at("p1"), q1 = segment_segment_input.at("q1");
    static constexpr size_t p2 = segment_segment_input.at("p2"), q2 = segment_segment_input.at("q2");
};

template <class Ops> isect::detail::SegmentMinimum<typename Ops::NT> segment_minimum_of(const double* in) {
    using K = SegmentSegmentKeys;
    return isect::detail::segment_minimum<Ops>(point_of<Ops>(in + K::p1), point_of<Ops>(in + K::q1), point_of<Ops>(in + K::p2),
                                               point_of<Ops>(in + K::q2));
}

/// meet (1) iff the least squared distance is 0; the numbers dist2, s, t,
/// c1 = p1 + s (q1 - p1), c2 = p2 + t (q2 - p2).
template <class Ops> struct SegmentSegmentBody {
    static Result run(const double* in) {
        using K = SegmentSegmentKeys;
        const auto m = segment_minimum_of<Ops>(in);
        Result out;
        out.answer = Ops::sgn(m.d_num) == 0 ? 1 : 0;
        const IA s = Ops::enclose(m.s_num, m.s_den), t = Ops::enclose(m.t_num, m.t_den);
        const IA dist2 = out.answer == 1 ? IA(0) : Ops::enclose(m.d_num, m.d_den);
        // Judges hold dist2 to u S with S as small as 12 u M^2; the interval
        // stage's quotient of two degree-6 and degree-4 polynomials can be
        // far wider where the minimum cancels (segments nearly meeting), so
        // an enclosure wider than 2^-48 of itself goes to the exact stage.
        narrow_or_exact<Ops>(dist2, 0x1p-48 * dist2.inf());
        push(out, dist2);
        push(out, s);
        push(out, t);
        for (size_t i = 0; i < 3; ++i) push(out, IA(in[K::p1 + i]) + s * (IA(in[K::q1 + i]) - IA(in[K::p1 + i])));
        for (size_t i = 0; i < 3; ++i) push(out, IA(in[K::p2 + i]) + t * (IA(in[K::q2 + i]) - IA(in[K::p2 + i])));
        return out;
    }
};

/// segment_segment's band. Moving every input by at most delta moves every
/// point of either segment by at most sqrt(3) delta, so the distance
/// between them by at most 2 sqrt(3) delta: segments apart can come to meet
/// only where dist2 <= 12 delta^2 (decided on the minimum's fraction).
/// Segments that meet are moved apart by any delta > 0 (one of them
/// shifted across the other's line or plane).
template <class Ops> struct SegmentSegmentBand {
    static_assert(positions_only(segment_segment_input), "every number moves by one delta");
    static bool run(const double* in, int exact_answer, const double* delta) {
        using NT = typename Ops::NT;
        if (exact_answer == 1) return delta[0] > 0;
        const auto m = segment_minimum_of<Ops>(in);
        const NT dl = Ops::of(delta[0]);
        return Ops::sgn(NT(m.d_num - Ops::of(12.0) * dl * dl * m.d_den)) <= 0;
    }
};

}  // namespace isect::ref::fast::detail
