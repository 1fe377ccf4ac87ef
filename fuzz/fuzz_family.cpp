// The libFuzzer target of every family, compiled once and linked once per
// family as fuzz_FAMILY (fuzz/CMakeLists.txt, from the family list): the
// binary's own name says which family it fuzzes. Decodes the bytes by
// structure (check/io/fuzz_bytes.hpp), runs the kernels against the
// exact oracle, and on a broken contract or a disagreement among the exact
// ones prints the case in the corpus format and aborts.
//
// Environment:
//   ISECT_FUZZ_SUBJECT  the kernels fuzzed, as every isect command chooses
//                       them (check/engine/kernels_under_test.hpp), one
//                       "key value" line each: kernel NAME[,NAME] (default:
//                       the built-in ones; broken:NAME plants a known bug,
//                       broken:* every planted bug of the family); plugin
//                       PATH, a plugin (isect/plugin.h) whose function for
//                       this family is fuzzed instead, in process (a crash
//                       in it is a libFuzzer crash, kept as an artifact);
//                       contract C (a plugin's, default tolerant=1, or a
//                       stricter one for a named built-in kernel); domain
//                       LO:HI, require NAME,NAME, convention NAME,NAME (as
//                       isect check takes them: inputs outside the declared
//                       domain and preconditions are fitted into them, as
//                       the generators fit theirs, or not judged); fp_env
//                       default|ftz|daz|ftz,daz, the kernels'
//                       floating-point environment (the truth always runs
//                       in the default one); error_e E.
//   ISECT_FUZZ_MUTATOR  "plain" turns the float-aware mutator off
//   ISECT_FUZZ_PRECISION  "double": double inputs (9-byte slots) and the
//                       double kernels, or a plugin's isect_FAMILY_d
//   ISECT_FUZZ_MAX_LEN  set: print the byte length of this family's slot
//                       layout in the precision, and exit
//   ISECT_FUZZ_FINDINGS a folder: a finding is written there as its bytes
//                       (one file per failure class, finding-HASH) and the
//                       run goes on, instead of printing it and aborting.
//                       isect fuzz sets it, so that a kernel failing on
//                       many inputs does not end every fork job.
// Built with a plain main (replay_main.cpp) it replays files and folders, so
// gcc builds run the same code over the corpus.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

#include "check/engine/kernels_under_test.hpp"
#include "check/io/case_file.hpp"
#include "check/io/mesh_file.hpp"
#include "check/io/fp_env.hpp"
#include "check/io/safe_write.hpp"
#include "check/engine/findings.hpp"
#include "check/engine/judge.hpp"
#include "check/io/fuzz_bytes.hpp"
#include "check/io/plugin_host.hpp"
#include "check/io/safe_write.hpp"
#include "isect/ref/gmp_memory.hpp"

namespace {

using isect::check::Family;
using isect::check::FamilyKernel;

/// The family this binary fuzzes: its name is fuzz_FAMILY (or
/// fuzz_FAMILY_replay), set from argv[0] by LLVMFuzzerInitialize.
std::string g_family_name;

const char* family_name() { return g_family_name.c_str(); }

[[noreturn]] void die(const std::string& message) {
    std::fprintf(stderr, "fuzz_%s: %s\n", family_name(), message.c_str());
    std::exit(2);
}

const isect::check::Domain& domain();

/// The family as the campaign declares it (its conventions, its
/// preconditions' slack).
const Family& family() {
    static const Family* f = [] {
        const Family* base = isect::check::find_family(g_family_name);
        if (!base) {
            std::string known;
            for (const Family* k : isect::check::families()) known += " fuzz_" + k->name;
            die("this binary's name says no family; it must be one of" + known);
        }
        return &isect::check::declared_family(*base, domain());
    }();
    return *f;
}

/// FAMILY from a path ending in fuzz_FAMILY or fuzz_FAMILY_replay.
std::string family_of_binary(const char* path) {
    std::string name = path ? path : "";
    name = name.substr(name.find_last_of('/') + 1);
    if (name.rfind("fuzz_", 0) == 0) name = name.substr(5);
    const std::string suffix = "_replay";
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        name = name.substr(0, name.size() - suffix.size());
    return name;
}

/// The kernels under test, from ISECT_FUZZ_SUBJECT: chosen as every isect
/// command chooses them, a plugin loaded into this process.
const isect::check::KernelsUnderTest& under_test() {
    static const std::unique_ptr<isect::check::KernelsUnderTest> u = [] {
        const char* text = std::getenv("ISECT_FUZZ_SUBJECT");
        std::string why;
        auto args = isect::check::SubjectArgs::read(text ? text : "", why);
        if (!args) die("ISECT_FUZZ_SUBJECT " + why);
        args->in_process = true;
        auto made = isect::check::KernelsUnderTest::make(std::string("fuzz_") + family_name(), *args);
        if (!made) std::exit(2);  // make() said why
        return made;
    }();
    return *u;
}

const std::vector<FamilyKernel>& kernels() {
    static const std::vector<FamilyKernel> k = [] {
        std::string why;
        std::vector<FamilyKernel> out;
        try {
            out = under_test().kernels(family(), &why);
        } catch (const std::exception& e) {
            die(e.what());
        }
        if (out.empty()) die(why);
        if (const auto& p = under_test().in_process(); p && p->after_load != p->before_load)
            std::fprintf(stderr, "fuzz_%s: loading the plugin set the floating-point state to %s; its kernel runs in %s, "
                         "the truth in %s\n", family_name(), isect::check::describe_fp_control(p->after_load).c_str(),
                         isect::check::describe_fp_control(p->kernel_env).c_str(),
                         isect::check::describe_fp_control(p->before_load).c_str());
        return out;
    }();
    return k;
}

const isect::check::Domain& domain() { return under_test().domain(); }

/// The relations judged besides the contracts: asked, or claimed.
const std::vector<isect::check::Relation>& relations() {
    static const std::vector<isect::check::Relation> r = under_test().relations(family(), kernels());
    return r;
}


/// ISECT_FUZZ_FINDINGS, or empty.
const std::string& findings_dir() {
    static const std::string d = [] {
        const char* env = std::getenv("ISECT_FUZZ_FINDINGS");
        return std::string(env ? env : "");
    }();
    return d;
}

/// Keeps a finding's bytes in the findings folder, once per failure class
/// (the first found; isect fuzz minimises it), across every fork job.
void keep_finding(const std::string& signature, const uint8_t* data, size_t size) {
    static std::set<std::string> kept;
    if (!kept.insert(signature).second) return;
    char name[32];
    std::snprintf(name, sizeof name, "finding-%08x", isect::check::name_hash(signature));
    const std::string path = findings_dir() + "/" + name;
    if (access(path.c_str(), F_OK) == 0) return;
    const auto w = isect::check::write_file_atomic(path, std::string(reinterpret_cast<const char*>(data), size));
    if (!w.ok()) std::fprintf(stderr, "fuzz_%s: finding not kept: %s\n", family_name(), w.error.c_str());
}

/// One input in 256, by a hash of its bytes, also has the references
/// compared with the fast oracle even when every kernel agrees with it.
bool sampled(const uint8_t* data, size_t size) {
    return (isect::check::name_hash(std::string_view(reinterpret_cast<const char*>(data), size)) & 255) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    // A subject with a mesh reads it through this program started again.
    if (argc && *argc > 1 && std::string((*argv)[1]) == isect::check::kMeshReaderArg)
        std::exit(isect::check::mesh_reader_main(*argc, *argv));
    g_family_name = family_of_binary(argc && *argc > 0 ? (*argv)[0] : nullptr);
    if (const char* p = std::getenv("ISECT_FUZZ_PRECISION"); p && *p) {
        if (std::string(p) != "float" && std::string(p) != "double")
            die(std::string("ISECT_FUZZ_PRECISION '") + p + "' is not float or double");
        isect::check::set_precision(std::string(p) == "double" ? isect::check::Precision::double_
                                                               : isect::check::Precision::single);
    }
    // ISECT_FUZZ_MAX_LEN: prints the slot layout's length for this family and
    // precision (a test's -max_len) and exits.
    if (std::getenv("ISECT_FUZZ_MAX_LEN")) {
        std::printf("%zu\n", isect::check::fuzz_bytes(family()));
        std::exit(0);
    }
    // The truth runs in the default environment, whatever started us.
    isect::check::set_fp_control(isect::check::default_fp_control());
    // The references' small GMP blocks, reused rather than malloc'd anew.
    isect::ref::keep_gmp_blocks_per_thread();
    kernels();
    if (kernels().empty()) die("no " + std::string(isect::check::precision_name(isect::check::precision())) +
                               " kernels for " + family().name);
    domain();
    return 0;
}

const char* fuzz_target_family() { return family_name(); }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const isect::check::Inputs in = isect::check::decode_fuzz(family(), data, size, domain());
    // What the bytes could not be fitted into is not judged: the domain and
    // preconditions a kernel declares are what it promises (NaN and inf stay:
    // outside the family's domain a kernel must only survive).
    if (family().in_domain(in.data(), nullptr) && !domain().covers(family(), in.data())) return 0;
    static std::set<std::string> seen;  // provisional classes judged, when keeping findings
    const auto finding =
        isect::check::fuzz_one(family(), kernels(), in, sampled(data, size), findings_dir().empty() ? nullptr : &seen,
                               &relations());
    isect::check::FpWatch& watch = *under_test().watch();
    if (watch.changed_calls == 1) {
        ++watch.changed_calls;  // said once
        std::fprintf(stderr, "fuzz_%s: the kernel CHANGED the floating-point control state to %s during a call "
                     "(restored after each call; the truth never runs in it)\n", family_name(),
                     isect::check::describe_fp_control(watch.first_change).c_str());
    }
    if (!finding) return 0;
    if (!findings_dir().empty()) {
        keep_finding(finding->key.str(), data, size);
        return 0;
    }
    std::fprintf(stderr, "\n==== isect finding ====\n%s==== end ====\n",
                 isect::check::finding_case(family(), isect::check::class_of(*finding, in),
                                            {"fuzz_" + family().name, "", ""}).c_str());
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
    const size_t n = isect::check::mutate_fuzz(family(), data, size, max_size, seed / 2);
    return n ? n : LLVMFuzzerMutate(data, size, max_size);
}
#endif
