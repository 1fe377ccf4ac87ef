// transformed_aabb on a number type: the exact image box's enclosure.
#pragma once

#include "isect/ref/transformed_aabb.hpp"
#include "policies.hpp"

namespace isect::ref::fast::detail {

template <class Ops> struct TransformedBody {
    static Out<Ops> run(const double* in) {
        using NT = typename Ops::NT;
        constexpr size_t box_lo = transformed_aabb_input.at("box.lo"), box_hi = transformed_aabb_input.at("box.hi");
        constexpr size_t m = transformed_aabb_input.at("m"), t = transformed_aabb_input.at("t");
        Out<Ops> r;
        NT lo[3], hi[3];
        for (int i = 0; i < 3; ++i) {
            lo[i] = hi[i] = Ops::of(in[t + size_t(i)]);
            for (int j = 0; j < 3; ++j) {
                const double mij = in[m + size_t(3 * i + j)];
                const NT p = Ops::of(mij) * Ops::of(in[box_lo + size_t(j)]), q = Ops::of(mij) * Ops::of(in[box_hi + size_t(j)]);
                const bool p_low = Ops::sgn(q - p) > 0;
                lo[i] = lo[i] + (p_low ? p : q);
                hi[i] = hi[i] + (p_low ? q : p);
            }
        }
        for (const NT& x : lo) put_quotient<Ops>(r, x, NT(1));
        for (const NT& x : hi) put_quotient<Ops>(r, x, NT(1));
        return r;
    }
};

}  // namespace isect::ref::fast::detail
