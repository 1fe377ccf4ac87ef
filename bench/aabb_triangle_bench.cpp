// aabb_triangle benchmarks: the fast kernels, both references, and CGAL's
// filtered do_intersect(Triangle_3, Bbox_3) on Epick, the baseline every
// ratio in the README is taken against, on three workloads:
//  - sparse: small boxes among triangles spread over a large region; most
//    pairs are rejected by a face axis.
//  - candidates: pairs whose triangle bounding box meets the box, as a
//    broad phase hands them over; the face axes decide nothing.
//  - degenerate: isect's grid generator (touching, coplanar, collinear,
//    flat boxes); half the work is on the boundary.
#include <benchmark/benchmark.h>
#include <random>

#include "isect/check/family_gen.hpp"
#include "isect/ref/aabb_triangle.hpp"

namespace {

using isect::Aabb;
using isect::Triangle;

struct AabbTriangleInput {
    Aabb box;
    Triangle tri;
};

constexpr size_t kPairs = 4096;

std::vector<AabbTriangleInput> random_pairs(bool candidates_only) {
    std::mt19937 rng(12345);
    std::uniform_real_distribution<float> pos(-100, 100), size(0.5f, 8), off(-6, 6);
    std::vector<AabbTriangleInput> out;
    while (out.size() < kPairs) {
        AabbTriangleInput in;
        for (int i = 0; i < 3; ++i) {
            in.box.lo[i] = pos(rng);
            in.box.hi[i] = in.box.lo[i] + size(rng);
        }
        const isect::Vec3f anchor = {pos(rng), pos(rng), pos(rng)};
        for (auto& v : in.tri.v)
            for (int i = 0; i < 3; ++i) v[i] = anchor[i] + off(rng);
        if (candidates_only) {
            // Move the triangle near the box and keep it only if the bounding boxes meet.
            for (auto& v : in.tri.v)
                for (int i = 0; i < 3; ++i) v[i] += in.box.lo[i] - anchor[i];
            bool meet = true;
            for (int i = 0; i < 3; ++i) {
                const float lo = std::min({in.tri.v[0][i], in.tri.v[1][i], in.tri.v[2][i]});
                const float hi = std::max({in.tri.v[0][i], in.tri.v[1][i], in.tri.v[2][i]});
                meet = meet && lo <= in.box.hi[i] && hi >= in.box.lo[i];
            }
            if (!meet) continue;
        }
        out.push_back(in);
    }
    return out;
}

std::vector<AabbTriangleInput> degenerate_pairs() {
    isect::check::RandomSource source(2024);
    std::vector<AabbTriangleInput> out;
    for (size_t i = 0; i < kPairs; ++i) {
        const isect::check::Floats in = isect::check::generate(isect::check::aabb_triangle_family(), source, "grid").in;
        AabbTriangleInput p;
        for (int k = 0; k < 3; ++k) {
            p.box.lo[k] = in[size_t(k)];
            p.box.hi[k] = in[size_t(3 + k)];
            for (int v = 0; v < 3; ++v) p.tri.v[size_t(v)][size_t(k)] = in[size_t(6 + 3 * v + k)];
        }
        out.push_back(p);
    }
    return out;
}

const std::vector<AabbTriangleInput>& workload(int w) {
    static const std::vector<AabbTriangleInput> sets[3] = {random_pairs(false), random_pairs(true), degenerate_pairs()};
    return sets[w];
}

template <class F> void run(benchmark::State& state, F f) {
    const auto& pairs = workload(int(state.range(0)));
    size_t hits = 0;
    for (auto _ : state) {
        for (const AabbTriangleInput& p : pairs) hits += f(p.box, p.tri);
        benchmark::DoNotOptimize(hits);
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(pairs.size()));
    state.counters["hit_rate"] = double(hits) / double(state.iterations() * pairs.size());
}

void BM_sat(benchmark::State& s) { run(s, isect::aabb_triangle_sat); }
void BM_conservative(benchmark::State& s) { run(s, isect::aabb_triangle_conservative); }
void BM_cgal_filtered(benchmark::State& s) { run(s, isect::ref::aabb_triangle_cgal_filtered); }
void BM_ref_clip(benchmark::State& s) {
    run(s, [](const Aabb& b, const Triangle& t) {
        return isect::ref::aabb_triangle_clip(isect::ref::exact(b), isect::ref::exact(t));
    });
}
void BM_ref_cgal(benchmark::State& s) {
    run(s, [](const Aabb& b, const Triangle& t) {
        return isect::ref::aabb_triangle_cgal(isect::ref::exact(b), isect::ref::exact(t));
    });
}

// Argument: 0 sparse, 1 candidates, 2 degenerate.
BENCHMARK(BM_sat)->DenseRange(0, 2);
BENCHMARK(BM_conservative)->DenseRange(0, 2);
BENCHMARK(BM_cgal_filtered)->DenseRange(0, 2);
BENCHMARK(BM_ref_clip)->DenseRange(0, 2);
BENCHMARK(BM_ref_cgal)->DenseRange(0, 2);

}  // namespace

BENCHMARK_MAIN();
