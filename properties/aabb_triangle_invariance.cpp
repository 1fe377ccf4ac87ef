// Which invariances of the exact answer each fast kernel keeps, measured on
// generated inputs. The exact answer keeps all of them (a property in
// aabb_triangle_props.cpp); a kernel may not, because rounding depends on the
// order of operations. The table is printed; the claims each kernel's header
// makes are asserted.
#include <gtest/gtest.h>
#include <iomanip>
#include <rapidcheck.h>

#include "isect/check/aabb_triangle.hpp"
#include "property.hpp"

namespace isect::props {
namespace {

using check::AabbTriangleInput;

struct Transform {
    const char* name;
    std::function<AabbTriangleInput(const AabbTriangleInput&, int)> apply;  // int: a per-case random
};

const std::vector<Transform>& transforms() {
    static const std::vector<Transform> t = {
        {"mirror", [](const AabbTriangleInput& in, int r) { return check::apply({0, 1 + r % 7}, in); }},
        {"axis permutation", [](const AabbTriangleInput& in, int r) { return check::apply({1 + r % 5, 0}, in); }},
        {"rotate vertices", [](const AabbTriangleInput& in, int) { return check::rotate_vertices(in); }},
        {"reverse vertices", [](const AabbTriangleInput& in, int) { return check::reverse_vertices(in); }},
        {"scale 2^k", [](const AabbTriangleInput& in, int r) {
             const int k = r % 41 - 20;
             return check::scaling_is_exact(in, k) ? check::scale_pow2(in, k) : in;
         }},
    };
    return t;
}

TEST(AabbTriangleKernels, invariancesMeasuredAndClaimsHold) {
    const int kCases = scaled(100000);
    const rc::Gen<AabbTriangleInput> gen = check::gen_aabb_triangle();
    rc::Random random(20261121);
    std::vector<AabbTriangleInput> inputs;
    for (int i = 0; i < kCases; ++i) inputs.push_back(gen(random.split(), rc::kNominalSize).value());

    std::cout << std::left << std::setw(16) << "kernel";
    for (const Transform& t : transforms()) std::cout << std::setw(19) << t.name;
    std::cout << "\n";
    std::map<std::string, std::map<std::string, int>> changed;
    for (const check::AabbTriangleKernel& k : check::aabb_triangle_kernels()) {
        std::cout << std::setw(16) << k.name;
        for (const Transform& t : transforms()) {
            int n = 0;
            for (int i = 0; i < kCases; ++i) {
                const AabbTriangleInput moved = t.apply(inputs[i], i);
                if (k.fn(inputs[i].box, inputs[i].tri) == k.fn(moved.box, moved.tri)) continue;
                ++n;
                // A changed answer is fine only where the contract lets the
                // kernel answer either way: both inputs must keep it.
                const bool exact = check::aabb_triangle_truth(inputs[i].box, inputs[i].tri);
                EXPECT_FALSE(check::violates(k, inputs[i], exact)) << k.name << " / " << t.name;
                EXPECT_FALSE(check::violates(k, moved, exact)) << k.name << " / " << t.name;
            }
            changed[k.name][t.name] = n;
            std::cout << std::setw(19) << (n == 0 ? "kept" : std::to_string(n) + " changed");
        }
        std::cout << "\n";
    }
    std::cout << "(answers changed by the transform, out of " << kCases << " generated inputs)\n";

    // The claims in core/isect/aabb_triangle.hpp.
    for (const char* kernel : {"sat", "conservative"})
        for (const char* t : {"mirror", "scale 2^k"}) EXPECT_EQ(changed[kernel][t], 0) << kernel << " / " << t;
}

}  // namespace
}  // namespace isect::props
