// A plain main for the fuzz targets: replays files and folders through
// LLVMFuzzerTestOneInput, so every compiler runs the targets' code. A .case
// file is read in the corpus format and encoded (it must be of the target's
// family); any other file is raw fuzz bytes. Exit 0 when every input ran (a
// finding aborts), 2 when a file cannot be read.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <variant>
#include <vector>

#include "check/io/case_file.hpp"
#include "check/io/fuzz_bytes.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/// The family the target fuzzes (fuzz_family.cpp: from the binary's name).
const char* fuzz_target_family();

namespace {

bool replay_file(const std::filesystem::path& path) {
    std::vector<uint8_t> bytes;
    if (path.extension() == ".case") {
        const isect::check::ReadResult r = isect::check::read_case_file(path.string());
        if (const auto* errors = std::get_if<std::vector<isect::check::CaseError>>(&r)) {
            for (const auto& e : *errors) std::fprintf(stderr, "error: %s\n", e.str().c_str());
            return false;
        }
        const auto& c = std::get<isect::check::FamilyCase>(r);
        if (c.precision != isect::check::precision()) {
            std::printf("skip %s: a %s case; this run is %s (ISECT_FUZZ_PRECISION)\n", path.string().c_str(),
                        isect::check::precision_name(c.precision), isect::check::precision_name(isect::check::precision()));
            return true;
        }
        if (c.family->name != fuzz_target_family()) {
            std::fprintf(stderr, "error: %s:0: a case of %s, not of %s\n", path.string().c_str(), c.family->name.c_str(),
                         fuzz_target_family());
            return false;
        }
        bytes = isect::check::encode_fuzz(*c.family, c.in);
    } else {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "error: %s:0: cannot open file\n", path.string().c_str());
            return false;
        }
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    size_t ran = 0, bad = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path arg(argv[i]);
        std::vector<std::filesystem::path> files;
        if (std::filesystem::is_directory(arg)) {
            for (const auto& e : std::filesystem::recursive_directory_iterator(arg))
                if (e.is_regular_file()) files.push_back(e.path());
            std::sort(files.begin(), files.end());
        } else {
            files.push_back(arg);
        }
        for (const auto& f : files) (replay_file(f) ? ran : bad) += 1;
    }
    std::printf("replayed %zu inputs, %zu unreadable\n", ran, bad);
    return bad ? 2 : 0;
}
