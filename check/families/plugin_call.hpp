// How a family calls a plugin's C function (core/isect/plugin.h): pieces
// each family's description uses to write its call once, by key name, for
// float (isect_FAMILY) and double (isect_FAMILY_d). Private to check/.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string_view>

#include "isect/check/model/family.hpp"

namespace isect::check::detail {

/// Every output starts as this NaN; one still holding it after the call was
/// not computed, and is not checked.
template <class T> T unset_value() {
    if constexpr (sizeof(T) == 4) {
        const uint32_t bits = 0x7fc1dea5u;
        T x;
        std::memcpy(&x, &bits, 4);
        return x;
    } else {
        const uint64_t bits = 0x7ff80000c1dea5a5ull;
        T x;
        std::memcpy(&x, &bits, 8);
        return x;
    }
}

template <class T> bool unset(T x) {
    const T u = unset_value<T>();
    return std::memcmp(&x, &u, sizeof(T)) == 0;
}

/// The answer a function returned, with the numbers it wrote (in the
/// family's value order); an output left unset is marked unprovided.
template <class T> Answer with_values(int ret, std::initializer_list<T> values) {
    Answer a{ret, {}};
    for (T v : values) {
        if (unset(v)) a.unprovided |= uint64_t(1) << a.values.size();
        a.values.push_back(unset(v) ? 0.0 : double(v));
    }
    return a;
}

/// The function pointer as the family's C signature.
template <class Fn> Fn as(void* fn) { return reinterpret_cast<Fn>(fn); }


}  // namespace isect::check::detail
