#include "check/model/family.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

namespace isect::check {

const Family* find_family(const std::string& name) {
    for (const Family* f : families())  // registry.cpp's, or a fuzz target's own
        if (f->name == name) return f;
    return nullptr;
}

std::vector<std::string> conventions_of(const Family& f, const std::vector<std::string>& wanted) {
    std::vector<std::string> out;
    for (const std::string& name : wanted)
        for (const Family::Convention& c : f.conventions)
            if (c.name == name) out.push_back(name);
    return out;
}

const Family& declared_family(const Family& base, const Domain& declared) {
    std::vector<std::string> required, followed = conventions_of(base, declared.conventions);
    for (const std::string& name : declared.required)
        for (const Precondition& p : base.preconditions)
            if (p.name == name && std::find(required.begin(), required.end(), name) == required.end()) required.push_back(name);
    bool slack = false;
    for (const Precondition& p : base.preconditions)
        if (p.slack > 0 && std::find(required.begin(), required.end(), p.name) != required.end()) slack = true;
    if (followed.empty() && !slack && !(base.declare && !required.empty())) return base;
    std::sort(required.begin(), required.end());
    std::sort(followed.begin(), followed.end());
    std::string key = base.name + "|";
    for (const std::string& r : required) key += r + ",";
    key += "|";
    for (const std::string& c : followed) key += c + ",";
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<Family>> made;
    const std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<Family>& f = made[key];
    if (!f) {
        f = std::make_unique<Family>(base);
        f->followed = followed;
        for (const Precondition& p : base.preconditions)
            if (p.slack > 0 && std::find(required.begin(), required.end(), p.name) != required.end()) {
                f->slack.resize(base.size(), 0.0);
                for (size_t i = 0; i < p.count; ++i) f->slack[p.at + i] = std::max(f->slack[p.at + i], p.slack);
            }
        if (base.declare) base.declare(*f, required, followed);
    }
    return *f;
}

std::vector<std::string> known_conventions() {
    std::set<std::string> names;
    for (const Family* f : families())
        for (const Family::Convention& c : f->conventions) names.insert(c.name);
    return {names.begin(), names.end()};
}

bool parse_conventions(const std::string& text, std::vector<std::string>& out, std::string& why) {
    return parse_name_list(text, known_conventions(), "convention", "none", out, why);  // none: each family's own truth
}

std::optional<FamilyKernel> Family::find_kernel(const std::string& kernel) const {
    const bool is_broken = kernel.rfind("broken:", 0) == 0;
    for (const FamilyKernel& k : is_broken ? broken() : kernels())
        if (k.name == kernel) return k;
    return std::nullopt;
}

std::optional<FamilyKernel> Family::find_any_kernel(const std::string& kernel) const {
    const bool is_broken = kernel.rfind("broken:", 0) == 0;
    for (const FamilyKernel& k : is_broken ? all_broken() : all_kernels())
        if (k.name == kernel && k.precision == precision()) return k;
    return std::nullopt;
}

bool Family::follows(const FamilyKernel& k) const {
    std::vector<std::string> own = conventions_of(*this, k.conventions), here = followed;
    std::sort(own.begin(), own.end());
    std::sort(here.begin(), here.end());
    return own == here;
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
double to_precision(double x) { return to_precision(x, g_precision); }
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
    for (size_t i = 0; i < n; ++i) {
        const double a = std::fabs(in[i]);  // NaN and inf are no magnitude
        if (a > m && a <= DBL_MAX) m = a;
    }
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
        const bool decides = f.answer_keys.empty() || std::find(f.answer_keys.begin(), f.answer_keys.end(), k.key) != f.answer_keys.end();
        if (decides && ref::moves_with_positions(k.role)) m = std::max(m, largest_magnitude(in + at, size_t(k.count)));
        at += size_t(k.count);
    }
    if (m != 0) return m;
    // Positions all zero: the other numbers a 2^k scale moves (a plane's
    // offset, a displacement, a direction) set the scale; only when those
    // are zero too is every delta > 0 the same band.
    at = 0;
    for (const InputKey& k : f.inputs) {
        if (k.role == Role::offset || k.role == Role::direction) m = std::max(m, largest_magnitude(in + at, size_t(k.count)));
        at += size_t(k.count);
    }
    return m == 0 ? 1 : m;
}

std::vector<std::pair<size_t, size_t>> box_corners(const Family& f) {
    std::vector<std::pair<size_t, size_t>> out;
    for (const InputKey& k : f.inputs) {
        const size_t len = k.key.size();
        if (len < 3 || k.key.compare(len - 3, 3, ".lo") != 0) continue;
        out.emplace_back(f.offset(k.key), f.offset(k.key.substr(0, len - 3) + ".hi"));
    }
    return out;
}

bool lower_corner_output(const Family& f, size_t i) {
    if (i >= f.outputs.size()) return false;
    const std::string& name = f.outputs[i];
    const size_t dot = name.rfind(".lo");
    return dot != std::string::npos && (dot + 3 == name.size() || (dot + 5 == name.size() && name[dot + 3] == '.'));
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
        // A declared precondition's slack: the key may be moved that far
        // too, whatever K (a kernel may take a unit vector as exactly unit).
        if (!f.slack.empty()) {
            const size_t group = n % 3 == 0 ? 3 : n;
            for (size_t g = 0; g < n; g += group) {
                const double own = largest_magnitude(in + at + g, group);
                for (size_t i = g; i < g + group; ++i)
                    if (f.slack[at + i] > 0) out[at + i] = capped(out[at + i] + f.slack[at + i] * unit_roundoff() * own);
            }
        }
        at += n;
    }
}

const char* failure_kind_name(FailureKind k) {
    switch (k) {
        case FailureKind::false_hit: return "false hit";
        case FailureKind::false_miss: return "false miss";
        case FailureKind::wrong_answer: return "wrong answer";
        case FailureKind::output: return "output";
        case FailureKind::non_finite: return "non-finite";
        case FailureKind::cuts: return "cuts";
        case FailureKind::crash: return "crash";
        case FailureKind::hang: return "hang";
        case FailureKind::garbage: return "garbage";
        case FailureKind::relation: return "relation";
    }
    return "garbage";
}

std::optional<FailureKind> failure_kind_named(const std::string& name) {
    for (FailureKind k : {FailureKind::false_hit, FailureKind::false_miss, FailureKind::wrong_answer, FailureKind::output,
                          FailureKind::non_finite, FailureKind::cuts, FailureKind::crash, FailureKind::hang,
                          FailureKind::garbage, FailureKind::relation})
        if (name == failure_kind_name(k)) return k;
    return std::nullopt;
}

namespace {

constexpr std::pair<RelationKind, const char*> kRelationNames[] = {{RelationKind::agree, "agree"},
                                                                   {RelationKind::symmetric, "symmetric"},
                                                                   {RelationKind::monotone, "monotone"},
                                                                   {RelationKind::watertight, "watertight"},
                                                                   {RelationKind::rotation, "rotation"}};

}  // namespace

const char* relation_name(RelationKind kind) {
    for (const auto& [k, n] : kRelationNames)
        if (k == kind) return n;
    return "agree";
}

std::optional<RelationKind> relation_named(std::string_view name) {
    for (const auto& [k, n] : kRelationNames)
        if (name == n) return k;
    return std::nullopt;
}

const std::vector<RelationKind>& claimable_relations() {
    static const std::vector<RelationKind> kinds = {RelationKind::symmetric, RelationKind::monotone,
                                                    RelationKind::watertight, RelationKind::rotation};
    return kinds;
}

std::string relation_unsupported(const Family& f, RelationKind kind) {
    switch (kind) {
        case RelationKind::agree: return "";
        case RelationKind::symmetric: return f.exchangeable ? "" : f.name + " has no two arguments of one kind to swap";
        case RelationKind::monotone:
            for (const InputKey& k : f.inputs)
                if (k.key == "tmax") return "";
            return f.name + " has no tmax";
        case RelationKind::watertight:
            return f.shared_edges.neighbours ? "" : f.name + " has no triangles that share edges (ray_triangle has)";
        case RelationKind::rotation:
            for (const InputKey& k : f.inputs)
                if (k.role == Role::polygon) return "";
            return f.name + " has no triangle or polygon to rotate";
    }
    return "";
}

}  // namespace isect::check
