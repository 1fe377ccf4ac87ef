// Benchmarks for every family of the generic engine: each built-in kernel
// and the family's CGAL reference (exact rational kernel), on the same 2048
// inputs from the family's generators (all mixes, fixed seed: touching,
// degenerate and special values included). Kernels are called through the
// checker's adapter (a std::function and a vector of outputs); "adapter"
// measures that alone. bench/family_ratios.py turns one run into the
// README's table.
//
// And generation itself: "generate/FAMILY/none" makes one input of the
// family's mix per call, "generate/FAMILY/NAME" the same with --require NAME
// (the input adapted to the precondition), for every precondition the family
// declares. bench/precondition_ratios.py turns those into docs/benchmarks.md's
// table: adapting must cost about what generating does.
#include <benchmark/benchmark.h>
#include <memory>
#include "check/model/domain.hpp"
#include "check/model/generate.hpp"

namespace {

using isect::check::Family;
using isect::check::Inputs;

std::vector<Inputs> inputs(const Family& f) {
    isect::check::RandomSource source(2026);
    std::vector<Inputs> out;
    while (out.size() < 2048) out.push_back(isect::check::generate(f, source).in);
    return out;
}

template <class Fn> void run(benchmark::State& state, const std::vector<Inputs>& pool, Fn fn) {
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(fn(pool[i].data()));
        i = (i + 1) % pool.size();
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}

/// "none", then every precondition f declares.
std::vector<std::string> precondition_names(const Family& f) {
    std::vector<std::string> names{"none"};
    for (const isect::check::Precondition& p : f.preconditions) names.push_back(p.name);
    return names;
}

struct Register {
    Register() {
        for (const Family* f : isect::check::families()) {
            const auto pool = std::make_shared<std::vector<Inputs>>(inputs(*f));
            for (const auto& k : f->kernels())
                benchmark::RegisterBenchmark((f->name + "/" + k.name).c_str(), [pool, k](benchmark::State& s) {
                    run(s, *pool, [&](const double* in) { return k.fn(in).answer; });
                });
            // The adapter alone: a kernel that only fills in the answer and the
            // family's numbers, to read the kernels' own cost off.
            const size_t n = f->outputs.size();
            benchmark::RegisterBenchmark((f->name + "/adapter").c_str(), [pool, n](benchmark::State& s) {
                run(s, *pool, [n](const double* in) { return isect::check::Answer{in[0] > 0, isect::check::Numbers(n, in[1])}.answer; });
            });
            for (const std::string& name : precondition_names(*f)) {
                isect::check::Domain domain;
                if (name != "none") domain.required = {name};
                benchmark::RegisterBenchmark(("generate/" + f->name + "/" + name).c_str(), [f, domain](benchmark::State& s) {
                    isect::check::RandomSource source(2026);
                    for (auto _ : s) benchmark::DoNotOptimize(isect::check::generate(*f, source, "", domain).in.data());
                    s.SetItemsProcessed(int64_t(s.iterations()));
                });
            }
            const auto cgal = f->cgal;
            benchmark::RegisterBenchmark((f->name + "/cgal_reference").c_str(), [pool, cgal](benchmark::State& s) {
                run(s, *pool, cgal);
            });
        }
    }
} registered;

}  // namespace

BENCHMARK_MAIN();
