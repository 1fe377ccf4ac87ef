// libFuzzer target for aabb_triangle: decodes the bytes (layout in
// check/aabb_triangle_fuzz.cpp), runs every kernel against the exact oracle,
// and on a broken contract or a disagreement among the exact ones prints the
// case in the corpus format and aborts.
//
// Environment:
//   ISECT_FUZZ_KERNEL   comma-separated kernel names (default: the built-in
//                       ones); "broken:NAME" plants a known bug
//   ISECT_FUZZ_MUTATOR  "plain" turns the float-aware mutator off
//   ISECT_FUZZ_PLUGIN   a plugin (isect/plugin.h) whose isect_aabb_triangle
//                       is fuzzed instead, in process (a crash in it is a
//                       libFuzzer crash, kept as an artifact), under
//   ISECT_FUZZ_CONTRACT its contract (default tolerant=1)
// Built with a plain main (replay_main.cpp) it replays files and folders, so
// gcc builds run the same code over the corpus.
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <sstream>
#include <string>

#include "isect/check/aabb_triangle.hpp"

namespace {

using isect::check::AabbTriangleKernel;

/// The plugin's isect_aabb_triangle as a kernel, loaded in this process.
const AabbTriangleKernel* plugin_kernel(const char* path) {
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    using Version = int (*)();
    using Test = int (*)(const float*, const float*, const float*);
    const auto version = lib ? reinterpret_cast<Version>(dlsym(lib, "isect_abi_version")) : nullptr;
    const auto test = lib ? reinterpret_cast<Test>(dlsym(lib, "isect_aabb_triangle")) : nullptr;
    if (!version || version() != 1 || !test) {
        std::fprintf(stderr, "fuzz_aabb_triangle: %s is not an isect plugin (ABI 1) exporting isect_aabb_triangle%s%s\n",
                     path, lib ? "" : ": ", lib ? "" : dlerror());
        std::exit(2);
    }
    const char* contract_env = std::getenv("ISECT_FUZZ_CONTRACT");
    const auto contract = isect::check::Contract::parse(contract_env ? contract_env : "tolerant=1");
    if (!contract) {
        std::fprintf(stderr, "fuzz_aabb_triangle: ISECT_FUZZ_CONTRACT '%s' is not a contract\n", contract_env);
        std::exit(2);
    }
    static const AabbTriangleKernel k{"plugin", *contract, [test](const isect::Aabb& b, const isect::Triangle& t) {
                                          float tri[9];
                                          for (int v = 0; v < 3; ++v)
                                              for (int c = 0; c < 3; ++c) tri[3 * v + c] = t.v[size_t(v)][size_t(c)];
                                          return test(b.lo.data(), b.hi.data(), tri) != 0;
                                      }};
    return &k;
}

std::vector<const AabbTriangleKernel*> selected_kernels() {
    std::vector<const AabbTriangleKernel*> out;
    if (const char* plugin = std::getenv("ISECT_FUZZ_PLUGIN"); plugin && *plugin) return {plugin_kernel(plugin)};
    const char* env = std::getenv("ISECT_FUZZ_KERNEL");
    if (!env || !*env) {
        for (const AabbTriangleKernel& k : isect::check::aabb_triangle_kernels()) out.push_back(&k);
        return out;
    }
    std::stringstream names(env);
    for (std::string name; std::getline(names, name, ',');) {
        const AabbTriangleKernel* k = isect::check::find_aabb_triangle_kernel(name);
        if (!k) {
            std::fprintf(stderr, "fuzz_aabb_triangle: ISECT_FUZZ_KERNEL names no kernel '%s'\n", name.c_str());
            std::exit(2);
        }
        out.push_back(k);
    }
    return out;
}

const std::vector<const AabbTriangleKernel*>& kernels() {
    static const std::vector<const AabbTriangleKernel*> k = selected_kernels();
    return k;
}

/// One input in 256, by a hash of its bytes, also has the rational references
/// compared with the fast oracle even when every kernel agrees with it.
bool sampled(const uint8_t* data, size_t size) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 16777619u;
    return (h & 255) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    kernels();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const isect::check::AabbTriangleInput in = isect::check::decode_aabb_triangle(data, size);
    const auto finding = isect::check::fuzz_aabb_triangle(kernels(), in, sampled(data, size));
    if (!finding) return 0;
    const std::string origin = "fuzz_aabb_triangle: " + finding->message + "\nsignature: " + finding->signature;
    std::fprintf(stderr, "\n==== isect finding ====\n%s==== end ====\n",
                 isect::check::format_input(in, finding->exact, origin).c_str());
    std::abort();
}

#ifdef ISECT_LIBFUZZER
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    static const bool plain = [] {
        const char* env = std::getenv("ISECT_FUZZ_MUTATOR");
        return env && std::string(env) == "plain";
    }();
    if (plain || seed % 2 == 0) return LLVMFuzzerMutate(data, size, max_size);
    const size_t n = isect::check::mutate_aabb_triangle(data, size, max_size, seed / 2);
    return n ? n : LLVMFuzzerMutate(data, size, max_size);
}
#endif
