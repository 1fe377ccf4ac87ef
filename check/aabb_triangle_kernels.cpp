// The aabb_triangle kernels under test, by name: the built-in ones with the
// contracts their headers declare, and the planted bugs. A translation unit
// of its own so that fuzz builds instrument the kernels' code (which the
// function pointers here instantiate) and not the exact machinery around it.
#include "isect/check/aabb_triangle.hpp"
#include "isect/check/broken_aabb_triangle.hpp"

namespace isect::check {

const std::vector<AabbTriangleKernel>& aabb_triangle_kernels() {
    static const std::vector<AabbTriangleKernel> kernels = {
        {"sat", {Contract::Kind::tolerant, 1}, aabb_triangle_sat},
        {"conservative", {Contract::Kind::conservative, 0}, aabb_triangle_conservative},
    };
    return kernels;
}

const AabbTriangleKernel* find_aabb_triangle_kernel(const std::string& name) {
    for (const AabbTriangleKernel& k : aabb_triangle_kernels())
        if (k.name == name) return &k;
    static const std::vector<AabbTriangleKernel> broken = broken::broken_kernels();
    for (const AabbTriangleKernel& k : broken)
        if (k.name == name) return &k;
    return nullptr;
}

}  // namespace isect::check
