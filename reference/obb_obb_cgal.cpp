// obb_obb's CGAL reference: a linear program, solved exactly. The boxes meet
// iff some s, t in [-1, 1]^3 give c_a + sum_i s_i h_i a_i = c_b + sum_j t_j
// h_j b_j: three equality rows over six bounded variables, and a zero
// objective. CGAL's QP solver with GMP rationals as its exact type (the
// coefficients h_i a_i are exact products, which doubles are not in a
// double run). Its own translation unit: the solver's templates are heavy.
#include <CGAL/Gmpq.h>
#include <CGAL/QP_functions.h>
#include <CGAL/QP_models.h>

#include "isect/ref/obb_obb.hpp"

namespace isect::ref {

bool obb_obb_cgal(const double* in) {
    constexpr size_t ac = obb_obb_input.at("a.c"), aa = obb_obb_input.at("a.axes"), ah = obb_obb_input.at("a.h");
    constexpr size_t bc = obb_obb_input.at("b.c"), ba = obb_obb_input.at("b.axes"), bh = obb_obb_input.at("b.h");
    using Program = CGAL::Quadratic_program<CGAL::Gmpq>;
    Program lp(CGAL::EQUAL, true, CGAL::Gmpq(-1), true, CGAL::Gmpq(1));
    for (int row = 0; row < 3; ++row) {
        for (int i = 0; i < 3; ++i) {
            lp.set_a(i, row, CGAL::Gmpq(in[ah + size_t(i)]) * CGAL::Gmpq(in[aa + size_t(3 * i + row)]));
            lp.set_a(3 + i, row, -(CGAL::Gmpq(in[bh + size_t(i)]) * CGAL::Gmpq(in[ba + size_t(3 * i + row)])));
        }
        lp.set_b(row, CGAL::Gmpq(in[bc + size_t(row)]) - CGAL::Gmpq(in[ac + size_t(row)]));
    }
    const auto solution = CGAL::solve_linear_program(lp, CGAL::Gmpq());
    return !solution.is_infeasible();
}

}  // namespace isect::ref
