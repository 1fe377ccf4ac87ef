// How a family calls a plugin's C function (core/isect/plugin.h): pieces
// each family's description uses to write its call once, by key name, for
// float (isect_FAMILY) and double (isect_FAMILY_d). Private to check/.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string_view>

#include "check/model/family.hpp"

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

/// What a plugin's function returned and wrote, as an Answer of family f:
/// the answer its return value codes (Family::plugin_returns), the numbers
/// in the family's value order, an output left unset marked unprovided.
/// The one reading of a call, whether it came alone or in a batch.
template <class T> Answer plugin_answer(const Family& f, int ret, const T* values, size_t n) {
    Answer a{ret, {}};
    if (f.answers.size() == 1) {
        a.answer = 0;
    } else if (!f.plugin_returns.empty()) {
        const auto at = std::find(f.plugin_returns.begin(), f.plugin_returns.end(), ret);
        a.answer = at == f.plugin_returns.end() ? -1 : int(at - f.plugin_returns.begin());
        a.returned = ret;
    }
    for (size_t i = 0; i < n; ++i) {
        if (unset(values[i])) a.unprovided |= uint64_t(1) << i;
        a.values.push_back(unset(values[i]) ? 0.0 : double(values[i]));
    }
    return a;
}
template <class T> Answer plugin_answer(const Family& f, int ret, std::initializer_list<T> values) {
    return plugin_answer(f, ret, values.begin(), values.size());
}

/// The function pointer as the family's C signature.
template <class Fn> Fn as(void* fn) { return reinterpret_cast<Fn>(fn); }


}  // namespace isect::check::detail
