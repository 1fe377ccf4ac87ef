// segment_segment's rational reference: core's segment_minimum, the body
// of reference/fast/segment_segment.hpp, on exact numbers.
#include "fast/segment_segment.hpp"
#include "isect/ref/segment_segment.hpp"

namespace isect::ref {

SegmentSegmentExact segment_segment_rational(const double* in) {
    using namespace fast::detail;
    const auto m = segment_minimum_of<RationalOutOps>(in);
    const auto q = [](const CGAL::Mpzf& num, const CGAL::Mpzf& den) { return to_rational(num) / to_rational(den); };
    return {q(m.d_num, m.d_den), q(m.s_num, m.s_den), q(m.t_num, m.t_den), int(m.shape)};
}

}  // namespace isect::ref
