#include "check/engine/witness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "check/io/interrupt.hpp"

namespace isect::check {

namespace {

/// The bits from x's leading 1 to its last: m 2^53 is a whole number for
/// the mantissa m in [1/2, 1) of any double.
int significant_bits(double x) {
    if (x == 0 || !std::isfinite(x)) return 0;
    int e;
    const uint64_t m = uint64_t(std::ldexp(std::frexp(std::fabs(x), &e), 53));
    return 53 - __builtin_ctzll(m);
}

/// Simpler: fewer significant bits, then smaller magnitude, then not negative.
bool simpler(double a, double b) {
    if (significant_bits(a) != significant_bits(b)) return significant_bits(a) < significant_bits(b);
    if (std::fabs(a) != std::fabs(b)) return std::fabs(a) < std::fabs(b);
    return std::signbit(b) && !std::signbit(a);
}


/// Simpler values for x: zero, its negation, integers, x with fewer
/// mantissa bits, the other inputs (simplify_floats drops those the
/// precision cannot hold: fewer bits of a float subnormal are below its grid).
std::vector<double> candidates(double x, const Inputs& others) {
    std::vector<double> c = {0.0, -x, std::round(x), std::trunc(x)};
    for (int k = -4; k <= 4; ++k) c.push_back(double(k));
    int e;
    const double m = std::frexp(x, &e);
    const int mantissa = precision() == Precision::single ? 24 : 53;
    for (int bits = 1; bits < mantissa; ++bits) c.push_back(std::ldexp(std::round(std::ldexp(m, bits)), e - bits));
    c.insert(c.end(), others.begin(), others.end());
    return c;
}

bool scaling_exact(const Inputs& in, int k) {
    for (double x : in)
        if (!scales_exactly(x, k)) return false;
    return true;
}

}  // namespace

int complexity(const Inputs& in) {
    int total = 0;
    for (double x : in) {
        if (x == 0 || !std::isfinite(x)) continue;
        int e;
        std::frexp(x, &e);
        total += 4 * significant_bits(x) + std::abs(e - 1) + (std::signbit(x) ? 1 : 0);
    }
    return total;
}

const Precondition* degeneracy(const Family& f, const double* in) {
    for (const Precondition& p : f.preconditions)
        if (p.degeneracy && !p.holds(in)) return &p;
    return nullptr;
}

bool better_witness(const Family& f, const Inputs& a, const Inputs& b) {
    const bool da = degeneracy(f, a.data()) != nullptr, db = degeneracy(f, b.data()) != nullptr;
    if (da != db) return db;
    return complexity(a) < complexity(b);
}

bool better_member(const Family& f, const Inputs& a, uint64_t a_case, const Inputs& b, uint64_t b_case) {
    // Each side ranked once (a violation of a known class asks this of its
    // class's witness every time).
    const bool da = degeneracy(f, a.data()) != nullptr, db = degeneracy(f, b.data()) != nullptr;
    if (da != db) return db;
    const int ca = complexity(a), cb = complexity(b);
    return ca != cb ? ca < cb : a_case < b_case;
}

std::function<bool(const Inputs&)> witness_space(const Family& f, const Domain& domain, const Inputs& start) {
    const bool proper = degeneracy(f, start.data()) == nullptr;
    return [&f, domain, proper](const Inputs& t) {
        return domain.judges(f, t.data()) && (!proper || degeneracy(f, t.data()) == nullptr);
    };
}

Inputs simplify_floats(Inputs in, const std::function<bool(const Inputs&)>& ok_in_domain,
                       const std::function<bool(const Inputs&)>& still_fails) {
    // Every trial stays in the run's precision: a candidate with fewer
    // mantissa bits of a float subnormal is a double below float's grid,
    // which a float kernel would see rounded and the references would not.
    const auto ok = [&](const Inputs& trial) {
        for (double x : trial)
            if (!representable(x)) return false;
        return ok_in_domain(trial);
    };
    // After Ctrl-C or SIGTERM, only a short grace: then every trial fails
    // and the simplest input found so far is the witness.
    const auto fails = [&](const Inputs& trial) { return within_grace() && still_fails(trial); };
    const auto accept = [&](const Inputs& trial) {
        if (!ok(trial) || complexity(trial) >= complexity(in) || !fails(trial)) return false;
        in = trial;
        return true;
    };
    for (bool changed = true; changed;) {
        changed = false;
        // The whole input, scaled by 2^k towards magnitude 1.
        int e;
        std::frexp(largest_magnitude(in), &e);
        for (int k : {1 - e, -e, 2 - e, 4 - e}) {
            if (k == 0 || !scaling_exact(in, k)) continue;
            Inputs trial = in;
            for (double& x : trial) x = std::ldexp(x, k);
            if (accept(trial)) changed = true;
        }
        // Shared values: every occurrence of +-v at once.
        Inputs values;
        for (double x : in)
            if (x != 0 && std::isfinite(x)) values.push_back(std::fabs(x));
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        for (double v : values)
            for (double c : {1.0, 2.0, 0.5, 3.0, 4.0, std::round(v)}) {
                if (c == v || c == 0) continue;
                Inputs trial = in;
                for (double& x : trial)
                    if (std::fabs(x) == v) x = std::copysign(c, x);
                if (accept(trial)) {
                    changed = true;
                    break;
                }
            }
        // One number at a time.
        for (size_t s = 0; s < in.size(); ++s) {
            for (double c : candidates(in[s], in)) {
                if (!simpler(c, in[s])) continue;
                Inputs trial = in;
                trial[s] = c;
                if (!ok(trial) || !fails(trial)) continue;
                in = trial;
                changed = true;
                break;
            }
        }
    }
    return in;
}

Inputs minimise_witness(const Family& f, const Domain& domain, const Inputs& start,
                        const std::function<bool(const Inputs&)>& same_class) {
    const auto ok = witness_space(f, domain, start);
    Inputs out = simplify_floats(start, ok, same_class);
    // A parameter (a ray's tmax) reads best unbounded: inf where the class
    // keeps failing so (a ray with tmax 0 has no reach at all).
    size_t at = 0;
    for (const InputKey& k : f.inputs) {
        if (k.role == Role::parameter)
            for (int i = 0; i < k.count; ++i) {
                if (std::isinf(out[at + size_t(i)]) || !within_grace()) continue;
                Inputs trial = out;
                trial[at + size_t(i)] = INFINITY;
                if (ok(trial) && same_class(trial)) out = trial;
            }
        at += size_t(k.count);
    }
    return out;
}

}  // namespace isect::check
