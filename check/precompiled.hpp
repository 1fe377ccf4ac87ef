// The precompiled header of isect_check: what nearly every file of the
// engine includes and is slow to parse (the standard library, the exact
// number types over GMP, the family description). Nothing here is any one
// room's or family's; the build includes it before each source.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "check/model/family.hpp"
#include "isect/ref/exact.hpp"
