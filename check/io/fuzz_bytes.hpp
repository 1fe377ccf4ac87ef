// Fuzzing any family: the bytes a fuzzer mutates, decoded by structure into
// an input; a float-aware mutator; and the oracle every fuzz target runs.
//
// Byte layout, the same for every family (N = the family's input count):
//   byte 0   mode and flags:
//            bit 7  a construction: byte 1 picks one of generate()'s kinds
//                   (the family's mixes, then the shared transforms) and
//                   every later byte is a choice it draws (ByteSource)
//            bit 0  then scale every value by 2^k, k = int8(byte 1) clamped
//                   to [-60, 60] (8 int8(byte 1) for a double), when that
//                   is exact (slots only)
//   byte 1   the construction, or the scale exponent
//   then, for slots, N slots of 5 bytes (9 in a double run), one per input
//   number in the family's key order: a control byte c and data bytes
//   d0..d3 (d0..d7). c % 8:
//     0  raw: the data bytes are the number's bits, little-endian (NaN, inf
//        possible)
//     1  grid: int8(d0) * 2^(int8(d1) % 8)
//     2  copy: the value of slot d0 % N if it comes earlier, else 0
//     3  neighbour: slot d0 % N (earlier, else 0) moved int8(d1) % 5 ulps
//     4  snap: an earlier value on the same axis (slot d0 % N, stepped back
//        by threes), so that faces, vertices and planes touch; else a grid
//        value as in 1
//     5  zero, negative when d0 & 1
//     6  special: a table of subnormal, tiny, huge and round values (d0),
//        negated when d1 & 1 (a table per precision)
//     7  mantissa and exponent: int24(d0..d2) * 2^(int8(d3) % 61 - 23);
//        for a double, int48(d0..d5) * 2^(int16(d6..d7) % 1001 - 47)
//   Shorter input reads as zeros. Bytes that are the text of a case file
//   of the family (the seeds: corpus/FAMILY as it is) read as that case. A box (keys X.lo, X.hi) with lo > hi on an
//   axis has the two swapped. The result is then fitted into the declared
//   domain, if one is given (fit_domain).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "check/model/domain.hpp"
#include "check/model/family.hpp"

namespace isect::check {

/// The bytes of a slot-mode input: 2 + 5 N (2 + 9 N in a double run).
size_t fuzz_bytes(const Family& f);

/// The input of a case file of family f (in the run's precision), when the
/// bytes are such a file's text: the seed corpus is the corpus itself.
std::optional<Inputs> case_in_bytes(const Family& f, const uint8_t* data, size_t size);

/// Decodes fuzz bytes into an input (which may be outside f's domain): a
/// case file's text as its case, anything else by the layout above.
Inputs decode_fuzz(const Family& f, const uint8_t* data, size_t size, const Domain& domain = {});

/// The bytes that decode to exactly this input (every slot raw).
std::vector<uint8_t> encode_fuzz(const Family& f, const Inputs& in);

/// Float-aware mutation in place: ulp steps, snapping to integers and zero,
/// fewer mantissa bits, sign flips, power-of-two scaling, copying a value,
/// a new slot construction or a new family construction, a point moved onto
/// the line of two others. A construction is first rewritten as raw slots,
/// so these moves apply to it too. Returns the new size, or 0 when max_size
/// is too small for the layout.
size_t mutate_fuzz(const Family& f, uint8_t* data, size_t size, size_t max_size, unsigned seed);

}  // namespace isect::check
