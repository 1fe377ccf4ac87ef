#include "isect/check/model/family.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace isect::check {

const Family* find_family(const std::string& name) {
    for (const Family* f : families())  // registry.cpp's, or a fuzz target's own
        if (f->name == name) return f;
    return nullptr;
}

std::optional<FamilyKernel> Family::find_kernel(const std::string& kernel) const {
    const bool is_broken = kernel.rfind("broken:", 0) == 0;
    for (const FamilyKernel& k : is_broken ? broken() : kernels())
        if (k.name == kernel) return k;
    return std::nullopt;
}

namespace {
thread_local Precision g_precision = Precision::single;  // a worker takes its caller's (run_workers)
}  // namespace

void set_precision(Precision p) { g_precision = p; }
Precision precision() { return g_precision; }
double unit_roundoff() { return g_precision == Precision::single ? 0x1p-24 : 0x1p-53; }
const char* unit_name() { return g_precision == Precision::single ? "2^-24" : "2^-53"; }
const char* precision_name(Precision p) { return p == Precision::single ? "float" : "double"; }
bool representable(double x) {
    return g_precision == Precision::double_ || std::isnan(x) || double(float(x)) == x;
}
double to_precision(double x) { return g_precision == Precision::single ? double(float(x)) : x; }
double next_in_precision(double x, double toward) {
    if (g_precision == Precision::single) return double(std::nextafter(float(x), float(toward)));
    return std::nextafter(x, toward);
}
bool scales_exactly(double x, int k) {
    if (!std::isfinite(x) || x == 0) return true;
    const double y = std::ldexp(x, k);
    return std::isfinite(y) && representable(y) && std::ldexp(y, -k) == x;
}
double least_normal() { return g_precision == Precision::single ? 0x1p-126 : std::numeric_limits<double>::min(); }
double greatest_finite() {
    return g_precision == Precision::single ? double(std::numeric_limits<float>::max()) : std::numeric_limits<double>::max();
}

double largest_magnitude(const double* in, size_t n) {
    double m = 0;
    for (size_t i = 0; i < n; ++i)
        if (std::isfinite(in[i])) m = std::max(m, std::fabs(in[i]));
    return m;
}

double largest_magnitude(const Inputs& in) { return largest_magnitude(in.data(), in.size()); }

double input_magnitude(const Family& f, const double* in) {
    double m = 0;
    size_t at = 0;
    for (const InputKey& k : f.inputs) {
        if (k.role != Role::parameter) m = std::max(m, largest_magnitude(in + at, size_t(k.count)));
        at += size_t(k.count);
    }
    return m;
}

double position_magnitude(const Family& f, const double* in) {
    double m = 0;
    size_t at = 0;
    for (const InputKey& k : f.inputs) {
        if (ref::moves_with_positions(k.role)) m = std::max(m, largest_magnitude(in + at, size_t(k.count)));
        at += size_t(k.count);
    }
    return m == 0 ? 1 : m;
}

void band_deltas(const Family& f, const double* in, double ku, double* out) {
    const auto capped = [](double x) { return std::isfinite(x) ? x : std::numeric_limits<double>::max(); };
    const double positions = capped(ku * position_magnitude(f, in));
    size_t at = 0;
    for (const InputKey& k : f.inputs) {
        const size_t n = size_t(k.count);
        if (ref::moves_with_positions(k.role)) {
            std::fill(out + at, out + at + n, positions);
        } else if (k.role == Role::parameter) {
            for (size_t i = 0; i < n; ++i) out[at + i] = std::isfinite(in[at + i]) ? capped(ku * std::fabs(in[at + i])) : 0.0;
        } else {
            // Its own magnitude: a vector of three (a direction, a normal), a
            // row of three of a key of nine, or a single number.
            const size_t group = n % 3 == 0 ? 3 : n;
            for (size_t g = 0; g < n; g += group)
                std::fill(out + at + g, out + at + g + group, capped(ku * largest_magnitude(in + at + g, group)));
        }
        at += n;
    }
}

}  // namespace isect::check
