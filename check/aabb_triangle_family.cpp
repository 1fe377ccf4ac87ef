// aabb_triangle seen through the generic engine, for plugins: the same
// references, band, generators and kernels as check/aabb_triangle.cpp, in
// the Family shape. isect check keeps running the built-in kernels on the
// dedicated engine (runner.cpp), which reports false hits and misses apart.
#include <rapidcheck.h>

#include "family_common.hpp"
#include "isect/check/aabb_triangle.hpp"
#include "isect/check/plugin.hpp"
#include "isect/ref/aabb_triangle.hpp"

namespace isect::check {

namespace {

const Family& self();

AabbTriangleInput input_of(const float* in) { return {detail::box_at(in), detail::tri_at(in + 6), "given"}; }

Floats floats_of(const AabbTriangleInput& in) {
    Floats out;
    for (float x : in.box.lo) out.push_back(x);
    for (float x : in.box.hi) out.push_back(x);
    for (const Vec3f& v : in.tri.v) out.insert(out.end(), v.begin(), v.end());
    return out;
}

std::vector<FamilyKernel> wrap(const std::vector<AabbTriangleKernel>& kernels) {
    std::vector<FamilyKernel> out;
    for (const AabbTriangleKernel& k : kernels)
        out.push_back({k.name, k.contract, 0, [fn = k.fn](const float* in) {
                           const AabbTriangleInput i = input_of(in);
                           return Answer{fn(i.box, i.tri) ? 1 : 0, {}};
                       }});
    return out;
}

Family make() {
    Family f;
    f.name = "aabb_triangle";
    f.inputs = {{"box.lo", 3}, {"box.hi", 3}, {"tri", 9}};
    f.answers = {"disjoint", "overlap"};
    f.answer_has_values = {false, false};
    f.references = "clip (Boost rationals) and cgal";
    f.domain = [](const float* in) {
        std::string why = detail::first_non_finite(self(), in);
        if (why.empty()) why = detail::box_order(self(), "box.lo", "box.hi", in);
        return why;
    };
    f.truth = [](const float* in) {
        const AabbTriangleInput i = input_of(in);
        return Truth{aabb_triangle_truth(i.box, i.tri) ? 1 : 0, {}};
    };
    f.cgal = [](const float* in) {
        return double(ref::aabb_triangle_cgal(ref::exact(detail::box_at(in)), ref::exact(detail::tri_at(in + 6))));
    };
    f.in_band = [](const float* in, const Truth& t, int, double k) {
        const AabbTriangleInput i = input_of(in);
        return aabb_triangle_in_band(i.box, i.tri, t.answer == 1, k);
    };
    f.value_error = [](const float*, const Truth&, const Answer&) { return ValueError{}; };
    f.kernels = [] { return wrap(aabb_triangle_kernels()); };
    f.broken = [] {
        std::vector<AabbTriangleKernel> broken;
        for (const char* name : {"broken:sat_without_edge_axes", "broken:sat_normal_one_vertex"})
            if (const AabbTriangleKernel* k = find_aabb_triangle_kernel(name)) broken.push_back(*k);
        return wrap(broken);
    };
    f.gen_kinds = aabb_triangle_gen_kinds();
    f.gen = [](const std::string& kind) {
        const rc::Gen<AabbTriangleInput> g = kind.empty() ? gen_aabb_triangle() : gen_aabb_triangle(kind);
        return rc::gen::map(g, [](const AabbTriangleInput& in) { return Generated{in.kind, floats_of(in), &self()}; });
    };
    return f;
}

const Family& self() {
    static const Family f = make();
    return f;
}

}  // namespace

const Family& aabb_triangle_family() { return self(); }

const std::vector<const Family*>& plugin_families() {
    static const std::vector<const Family*> all = [] {
        std::vector<const Family*> v = {&aabb_triangle_family()};
        v.insert(v.end(), families().begin(), families().end());
        return v;
    }();
    return all;
}

}  // namespace isect::check
