#include "isect/ref/gmp_memory.hpp"

#include <array>
#include <cstdlib>
#include <cstring>
#include <gmp.h>
#include <vector>

namespace isect::ref {

namespace {

/// Blocks of up to 1 KiB, in classes of 8 bytes (GMP's sizes are whole
/// limbs); at most kKept of each class per thread.
constexpr size_t kStep = 8, kClasses = 128, kKept = 64;

/// Whether this thread's lists are gone (its thread_local objects are
/// destroyed before the program's statics, which may still free GMP
/// blocks): trivially destructible, so readable to the thread's end.
thread_local bool t_gone = false;

struct Lists {
    std::array<std::vector<void*>, kClasses + 1> free;  // free[c]: blocks of at least c * kStep bytes
    ~Lists() {
        t_gone = true;
        for (auto& list : free)
            for (void* p : list) std::free(p);
    }
};

/// This thread's lists; null once they are gone.
Lists* lists() {
    if (t_gone) return nullptr;
    thread_local Lists l;
    return &l;
}

void* checked(void* p) {
    if (!p) std::abort();  // as GMP's own allocator does
    return p;
}

void* allocate(size_t n) {
    const size_t c = (n + kStep - 1) / kStep;
    Lists* l = lists();
    if (c == 0 || c > kClasses || !l) return checked(std::malloc(n));
    auto& list = l->free[c];
    if (list.empty()) return checked(std::malloc(c * kStep));
    void* p = list.back();
    list.pop_back();
    return p;
}

void release(void* p, size_t n) {
    // A block of n bytes holds at least floor(n / kStep) steps, whoever
    // allocated it (malloc before these functions were set, or us).
    const size_t c = n / kStep;
    Lists* l = lists();
    if (c == 0 || c > kClasses || !l) {
        std::free(p);
        return;
    }
    auto& list = l->free[c];
    if (list.size() >= kKept) {
        std::free(p);
        return;
    }
    if (list.capacity() == 0) list.reserve(kKept);
    list.push_back(p);
}

void* reallocate(void* p, size_t old_n, size_t new_n) {
    if (new_n <= old_n) return p;  // the block holds it
    void* q = allocate(new_n);
    std::memcpy(q, p, old_n);
    release(p, old_n);
    return q;
}

}  // namespace

void keep_gmp_blocks_per_thread() { mp_set_memory_functions(allocate, reallocate, release); }

}  // namespace isect::ref
