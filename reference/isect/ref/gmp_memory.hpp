// GMP's memory, kept per thread. The references' rationals (Boost over GMP,
// CGAL's Gmpq) allocate and free millions of small blocks; with several
// workers every malloc and free of glibc takes its arena's lock, and a run
// of sphere_aabb on two workers lost 13% of each one's speed to it. Blocks
// freed by GMP are kept in lists of this thread, by size, and handed out
// again; none is ever touched by two threads at once.
#pragma once

namespace isect::ref {

/// Routes GMP's (and so MPFR's) allocations through the per-thread lists.
/// Safe to call at any time, also after GMP allocated with malloc: a block
/// is only ever reused for a size it holds. Idempotent.
void keep_gmp_blocks_per_thread();

}  // namespace isect::ref
