// The kernels in core/ called directly, against CGAL's filtered predicates
// (Epick's do_intersect, isect/ref/epick.hpp), for every yes/no family, on
// three workloads of 4096 inputs (fixed seeds):
//  - random: every number uniform in [-8, 8) by its role (boxes ordered,
//    lengths and tmax nonnegative), nothing aimed: most pairs are decided
//    easily, as in a broad phase's raw output;
//  - uniform: the family's own "uniform" kind: ordinary scale, but aimed
//    (rays at grid points of the box or the triangle), so hits are common
//    and some pass exactly through an edge;
//  - mix: every kind of the family's generator in turn, touching, grazing,
//    coplanar, ulp neighbours and subnormals included: degenerate-heavy.
// Names are family/kernel/workload. Each exact kernel also reports
// fallback_rate, the share of calls that left its double filter for exact
// arithmetic (isect::exact::fallbacks, counted outside the timed loop), and
// every benchmark its hit_rate. bench/kernel_ratios.py turns one run into the
// README's table.
//
// aabb_plane has one kernel, exact; its float_plain row is the
// classification as seed 001 writes it (float dot products), written here
// to show what exactness costs.
#include <benchmark/benchmark.h>
#include <algorithm>
#include <limits>
#include <random>
#include <stdexcept>
#include <memory>

#include "isect/aabb_aabb.hpp"
#include "isect/aabb_plane.hpp"
#include "isect/aabb_triangle.hpp"
#include "check/model/generate.hpp"
#include "isect/exact.hpp"
#include "isect/ray_aabb.hpp"
#include "isect/ray_triangle.hpp"
#include "isect/ref/epick.hpp"
#include "isect/point_triangle.hpp"
#include "isect/segment_segment.hpp"
#include "isect/sphere_aabb.hpp"
#include "isect/ray_sphere.hpp"
#include "isect/triangle_triangle.hpp"

namespace {

using isect::Aabb;
using isect::Plane;
using isect::Triangle;
using isect::Vec3f;
using isect::check::Inputs;
namespace epick = isect::ref::epick;

Vec3f vec(const float* in) { return {in[0], in[1], in[2]}; }
Aabb box(const float* in) { return {vec(in), vec(in + 3)}; }
Triangle tri(const float* in) { return {{vec(in), vec(in + 3), vec(in + 6)}}; }
Plane plane(const float* in) { return {vec(in), in[3]}; }
isect::Vec3d vd(const float* in) { return {in[0], in[1], in[2]}; }

/// A kernel on the family's float layout, returning its answer.
using Call = int (*)(const float*);

struct Kernel {
    const char* name;
    Call call;
    bool exact;  ///< reports a fallback rate
};

struct FamilyKernels {
    const char* family;
    std::vector<Kernel> kernels;
};

const float kInf = std::numeric_limits<float>::infinity();

/// Seed 001's classification in float, as a user writes it.
isect::PlaneSide float_plain(const Aabb& b, const Plane& p) {
    float lo = 0, hi = 0;
    for (int i = 0; i < 3; ++i) {
        lo += p.n[i] * (p.n[i] > 0 ? b.lo[i] : b.hi[i]);
        hi += p.n[i] * (p.n[i] > 0 ? b.hi[i] : b.lo[i]);
    }
    if (lo >= p.d) return isect::PlaneSide::front;
    if (hi <= p.d) return isect::PlaneSide::back;
    return isect::PlaneSide::straddle;
}

const std::vector<FamilyKernels>& table() {
    static const std::vector<FamilyKernels> t = {
        {"aabb_triangle",
         {{"sat", [](const float* in) { return int(isect::aabb_triangle_sat(box(in), tri(in + 6))); }, false},
          {"conservative", [](const float* in) { return int(isect::aabb_triangle_conservative(box(in), tri(in + 6))); }, false},
          {"exact", [](const float* in) { return int(isect::aabb_triangle_exact(box(in), tri(in + 6))); }, true},
          {"epick", [](const float* in) { return int(epick::aabb_triangle(box(in), tri(in + 6))); }, false}}},
        {"ray_triangle",
         {{"moller_trumbore", [](const float* in) { return int(isect::ray_triangle_mt(vec(in), vec(in + 3), in[6], tri(in + 7)).hit); }, false},
          {"watertight", [](const float* in) { return int(isect::ray_triangle_watertight(vec(in), vec(in + 3), in[6], tri(in + 7)).hit); }, false},
          {"exact", [](const float* in) { return int(isect::ray_triangle_exact(vec(in), vec(in + 3), in[6], tri(in + 7)).hit); }, true},
          {"epick", [](const float* in) { return int(epick::ray_triangle(vec(in), vec(in + 3), in[6], tri(in + 7))); }, false}}},
        {"ray_aabb",
         {{"woo", [](const float* in) { return int(isect::ray_aabb_woo(vec(in), vec(in + 3), box(in + 6), kInf).hit); }, false},
          {"robust", [](const float* in) { return int(isect::ray_aabb_robust(vec(in), vec(in + 3), box(in + 6), kInf).hit); }, false},
          {"exact", [](const float* in) { return int(isect::ray_aabb_exact(vec(in), vec(in + 3), box(in + 6), kInf).hit); }, true},
          {"epick", [](const float* in) { return int(epick::ray_aabb(vec(in), vec(in + 3), box(in + 6), false)); }, false}}},
        {"segment_aabb",
         {{"woo", [](const float* in) { return int(isect::ray_aabb_woo(vec(in), vec(in + 3), box(in + 6), 1).hit); }, false},
          {"robust", [](const float* in) { return int(isect::ray_aabb_robust(vec(in), vec(in + 3), box(in + 6), 1).hit); }, false},
          {"exact", [](const float* in) { return int(isect::ray_aabb_exact(vec(in), vec(in + 3), box(in + 6), 1).hit); }, true},
          {"epick", [](const float* in) { return int(epick::ray_aabb(vec(in), vec(in + 3), box(in + 6), true)); }, false}}},
        {"aabb_plane",
         {{"float_plain", [](const float* in) { return int(float_plain(box(in), plane(in + 6))); }, false},
          {"exact", [](const float* in) { return int(isect::aabb_plane_classify(box(in), plane(in + 6))); }, true},
          {"epick", [](const float* in) { return int(epick::aabb_plane(box(in), plane(in + 6))); }, false}}},
        {"aabb_plane_overlap",
         {{"centre_extents", [](const float* in) { return int(isect::aabb_plane_overlap_centre_extents(box(in), plane(in + 6))); }, false},
          {"exact", [](const float* in) { return int(isect::aabb_plane_overlap(box(in), plane(in + 6))); }, true},
          {"epick", [](const float* in) { return int(epick::aabb_plane_overlap(box(in), plane(in + 6))); }, false}}},
        {"aabb_aabb",
         {{"exact", [](const float* in) { return int(isect::aabb_aabb_overlap(box(in), box(in + 6))); }, true},
          {"epick", [](const float* in) { return int(epick::aabb_aabb(box(in), box(in + 6))); }, false}}},
        {"sphere_aabb",
         {{"overlap", [](const float* in) { return int(isect::sphere_aabb_overlap(box(in), vec(in + 6), in[9])); }, false},
          {"exact", [](const float* in) { return int(isect::sphere_aabb_overlap_exact(box(in), vec(in + 6), in[9])); }, true},
          {"epick", [](const float* in) { return int(epick::sphere_aabb(box(in), vec(in + 6), in[9])); }, false}}},
        {"triangle_triangle",
         {{"moller", [](const float* in) { return int(isect::tri_tri_moller<float>(tri(in), tri(in + 9))); }, false},
          {"exact", [](const float* in) { return int(isect::tri_tri_exact<float>(tri(in), tri(in + 9))); }, true},
          {"epick", [](const float* in) { return int(epick::triangle_triangle(tri(in), tri(in + 9))); }, false}}},
        {"ray_sphere",
         {{"rtg", [](const float* in) { return int(isect::ray_sphere_rtg<float>(vec(in), vec(in + 3), in[6], vec(in + 7), in[10]).hit); }, false},
          {"exact", [](const float* in) { return int(isect::ray_sphere_exact(vec(in), vec(in + 3), in[6], vec(in + 7), in[10]).hit); }, true},
          {"epick", [](const float* in) { return int(epick::ray_sphere(vec(in), vec(in + 3), in[6], vec(in + 7), in[10])); }, false}}},
        // Closest points: the answer is whether the segments meet, the
        // numbers built on the way.
        {"segment_segment",
         {{"ericson", [](const float* in) { return int(isect::closest_segment_segment_ericson<double>(vd(in), vd(in + 3), vd(in + 6), vd(in + 9)).meet()); }, false},
          {"ericson_float", [](const float* in) { return int(isect::closest_segment_segment_ericson<float>(vec(in), vec(in + 3), vec(in + 6), vec(in + 9)).meet()); }, false},
          {"exact", [](const float* in) { return int(isect::closest_segment_segment_exact<float>(vec(in), vec(in + 3), vec(in + 6), vec(in + 9)).meet()); }, true},
          {"epick", [](const float* in) { return int(epick::segment_segment(vec(in), vec(in + 3), vec(in + 6), vec(in + 9)) == 0); }, false}}},
        // The closest point of a triangle: the answer is the region (Epick
        // gives only the distance: its "answer" is whether it is 0).
        {"point_triangle",
         {{"ericson", [](const float* in) { return int(isect::closest_point_triangle_ericson<double, float>(tri(in), vec(in + 9)).region); }, false},
          {"ericson_float", [](const float* in) { return int(isect::closest_point_triangle_ericson<float, float>(tri(in), vec(in + 9)).region); }, false},
          {"exact", [](const float* in) { return int(isect::closest_point_triangle_exact<float>(tri(in), vec(in + 9)).region); }, true},
          {"epick", [](const float* in) { return int(epick::point_triangle(tri(in), vec(in + 9)) == 0); }, false}}},
    };
    return t;
}

constexpr size_t kInputs = 4096;

/// One random input by the roles of f's numbers.
void random_input(const isect::check::Family& f, std::mt19937& rng, std::vector<float>& out) {
    using isect::check::Role;
    std::uniform_real_distribution<float> any(-8, 8), positive(0, 8);
    for (const isect::check::InputKey& key : f.inputs) {
        if (key.role == Role::box_hi) continue;  // written with its box_lo
        for (int i = 0; i < key.count; ++i) {
            if (key.role == Role::box_lo) continue;
            out.push_back(key.role == Role::length || key.role == Role::parameter ? positive(rng) : any(rng));
        }
        if (key.role == Role::box_lo) {
            float lo[3], hi[3];
            for (int i = 0; i < 3; ++i) {
                const float a = any(rng), b = any(rng);
                lo[i] = std::min(a, b);
                hi[i] = std::max(a, b);
            }
            out.insert(out.end(), lo, lo + 3);
            out.insert(out.end(), hi, hi + 3);
        }
    }
}

enum class Workload { random, uniform, mix };
const char* const kWorkloads[] = {"random", "uniform", "mix"};

/// The workload, packed contiguously: kInputs inputs of the family's width.
std::vector<float> workload(const isect::check::Family& f, Workload w) {
    isect::check::RandomSource source(2026);
    std::mt19937 rng(2026);
    const std::vector<std::string> kinds = isect::check::gen_kinds(f);
    std::vector<float> out;
    for (size_t i = 0; i < kInputs; ++i) {
        if (w == Workload::random) {
            random_input(f, rng, out);
            continue;
        }
        const Inputs in = isect::check::generate(f, source, w == Workload::uniform ? "uniform" : kinds[i % kinds.size()]).in;
        out.insert(out.end(), in.begin(), in.end());
    }
    return out;
}

void run(benchmark::State& state, const std::vector<float>& pool, size_t width, const Kernel& k) {
    uint64_t hits = 0;
    uint64_t fell_back = 0;
    for (size_t i = 0; i < pool.size(); i += width) {  // untimed: the rates
        const uint64_t f0 = isect::exact::fallbacks;
        hits += k.call(&pool[i]) != 0;
        fell_back += isect::exact::fallbacks != f0;
    }
    for (auto _ : state) {
        int sum = 0;
        for (size_t i = 0; i < pool.size(); i += width) sum += k.call(&pool[i]);
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(pool.size() / width));
    state.counters["hit_rate"] = double(hits) / double(pool.size() / width);
    if (k.exact) state.counters["fallback_rate"] = double(fell_back) / double(pool.size() / width);
}

struct Register {
    Register() {
        for (const FamilyKernels& fk : table()) {
            const isect::check::Family& f = *isect::check::find_family(fk.family);
            const size_t width = f.size();
            for (const Workload w : {Workload::random, Workload::uniform, Workload::mix}) {
                const auto pool = std::make_shared<std::vector<float>>(workload(f, w));
                if (pool->size() != kInputs * width) throw std::logic_error(std::string(fk.family) + ": layout");
                for (const Kernel& k : fk.kernels) {
                    const std::string name = std::string(fk.family) + "/" + k.name + "/" + kWorkloads[int(w)];
                    benchmark::RegisterBenchmark(name.c_str(), [pool, width, k](benchmark::State& s) { run(s, *pool, width, k); });
                }
            }
        }
    }
} registered;

}  // namespace

BENCHMARK_MAIN();
