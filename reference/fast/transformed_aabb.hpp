// transformed_aabb on a number type: the exact image box's enclosure.
#pragma once

#include "numbers.hpp"

namespace isect::ref::fast::detail {

template <class Ops> struct TransformedBody {
    static Result run(const double* in) {
        using NT = typename Ops::NT;
        Result r;
        NT lo[3], hi[3];
        for (int i = 0; i < 3; ++i) {
            lo[i] = hi[i] = Ops::of(in[15 + i]);
            for (int j = 0; j < 3; ++j) {
                const NT p = Ops::of(in[6 + 3 * i + j]) * Ops::of(in[j]), q = Ops::of(in[6 + 3 * i + j]) * Ops::of(in[3 + j]);
                const bool p_low = Ops::sgn(q - p) > 0;
                lo[i] = lo[i] + (p_low ? p : q);
                hi[i] = hi[i] + (p_low ? q : p);
            }
        }
        for (const NT& x : lo) push(r, Ops::enclose(x, NT(1)));
        for (const NT& x : hi) push(r, Ops::enclose(x, NT(1)));
        return r;
    }
};

}  // namespace isect::ref::fast::detail
