// What one call through a ray_triangle wrapper costs: loads each plugin
// given, calls its isect_ray_triangle 200,000 times on one hit (the origin
// nudged each call) and prints ns per call, all in one run (the machines are
// shared: compare rows of one run). docs/libraries.md quotes it for Embree,
// whose wrapper rebuilds a one-triangle scene per call.
//   call_cost PLUGIN.so...
#include <dlfcn.h>
#include <chrono>
#include <cstdio>

int main(int argc, char** argv) {
    using Fn = int (*)(const float*, const float*, float, const float*, float*, float*, float*);
    for (int a = 1; a < argc; ++a) {
        void* lib = dlopen(argv[a], RTLD_NOW);
        Fn fn = lib ? reinterpret_cast<Fn>(dlsym(lib, "isect_ray_triangle")) : nullptr;
        if (!fn) {
            std::fprintf(stderr, "%s: no isect_ray_triangle (%s)\n", argv[a], dlerror());
            return 2;
        }
        float org[3] = {0.2f, 0.2f, -1}, dir[3] = {0, 0, 1}, tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, t, u, v;
        int hits = 0;
        const int calls = 200000;
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; ++i) {
            org[0] = 0.2f + float(i % 7) * 1e-3f;
            hits += fn(org, dir, 1e30f, tri, &t, &u, &v);
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("%s: %.0f ns per call (%d of %d hit)\n", argv[a], s / calls * 1e9, hits, calls);
    }
    return 0;
}
