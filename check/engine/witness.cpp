#include "check/engine/witness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
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

namespace {

/// The exact answer of x (the fast oracle where it decides), or nullopt
/// outside the family's domain or where the references disagree.
std::optional<int> exact_answer(const Family& f, const Inputs& x) {
    if (!f.in_domain(x.data(), nullptr)) return std::nullopt;
    if (f.fast_truth)
        if (const std::optional<FastTruth> fast = f.fast_truth(x.data())) return fast->answer;
    try {
        return f.truth(x.data()).answer;
    } catch (const ReferenceMismatch&) {
        return std::nullopt;
    }
}

/// A flip by numbers moved onto others' values: two boxes smaller than the
/// doubles' grid at their offset meet only where their centres land on the
/// same double, which no move along a sign pattern does but by chance. Each
/// number may go to the nearest other value of the input within its delta;
/// they are taken in the order of the K each needs, and the first prefix
/// whose exact answer is `answer` gives K (at most `below`).
std::optional<Perturbation> snapped_perturbation(const Family& f, const Inputs& in, int answer, double below) {
    const size_t n = in.size();
    std::vector<double> unit(n), delta(n);
    band_deltas(f, in.data(), unit_roundoff(), unit.data());
    struct Snap {
        double k;
        size_t i, j;  ///< number i goes to number j's value
    };
    std::vector<Snap> snaps;
    for (size_t i = 0; i < n; ++i) {
        if (!(unit[i] > 0) || !std::isfinite(in[i])) continue;
        Snap best{INFINITY, i, i};
        for (size_t j = 0; j < n; ++j)
            if (std::isfinite(in[j]) && in[j] != in[i])
                if (const double k = std::fabs(in[j] - in[i]) / unit[i] * (1 + 0x1p-40); k < best.k) best = {k, i, j};
        if (best.k < below) snaps.push_back(best);
    }
    std::sort(snaps.begin(), snaps.end(), [](const Snap& a, const Snap& b) { return a.k < b.k; });
    // A number another went to stays (two numbers going to each other's
    // values would only swap them).
    Inputs x = in;
    std::vector<char> kept(n, 0);
    for (const Snap& s : snaps) {
        if (kept[s.i] || x[s.j] != in[s.j]) continue;
        x[s.i] = in[s.j];
        kept[s.j] = 1;
        band_deltas(f, in.data(), s.k * unit_roundoff(), delta.data());
        bool within = true;
        for (size_t i = 0; i < n && within; ++i) within = x[i] == in[i] || std::fabs(x[i] - in[i]) <= delta[i];
        if (!within) continue;
        if (const std::optional<int> a = exact_answer(f, x); a && *a == answer) return Perturbation{s.k, x};
    }
    return std::nullopt;
}

}  // namespace

std::optional<Perturbation> flipping_perturbation(const Family& f, const Inputs& in, int answer, double from, double to,
                                                  Moves moves) {
    const size_t n = in.size();
    if (n > 64) return std::nullopt;
    std::vector<double> delta(n);
    const std::vector<std::pair<size_t, size_t>> boxes = box_corners(f);
    // in moved by K deltas along the signs s, each number then rounded
    // towards where it was, to the run's precision (an input a kernel can
    // be given) or to a double (finer than a float run's grid), so that each
    // move stays within its delta.
    const auto moved = [&](const std::vector<double>& s, double k) {
        band_deltas(f, in.data(), k * unit_roundoff(), delta.data());
        Inputs x = in;
        for (size_t i = 0; i < n; ++i) {
            if (s[i] == 0 || !std::isfinite(in[i]) || !std::isfinite(delta[i])) continue;
            const double exact = in[i] + std::clamp(s[i], -1.0, 1.0) * delta[i] * (1 - 0x1p-30);
            double r = moves == Moves::run_precision ? to_precision(exact) : exact;
            if (std::fabs(r - in[i]) > std::fabs(exact - in[i]))
                r = moves == Moves::run_precision ? next_in_precision(r, in[i]) : std::nextafter(r, in[i]);
            if (std::isfinite(r)) x[i] = r;
        }
        // A box turned inside out (lo above hi) is outside the domain: the
        // side that did not move inwards goes along, or both meet halfway,
        // each still within its delta.
        for (const auto& [lo, hi] : boxes)
            for (size_t j = 0; j < 3; ++j) {
                double &l = x[lo + j], &h = x[hi + j];
                if (!(l > h)) continue;
                if (l <= in[lo + j]) l = h;
                else if (h >= in[hi + j]) h = l;
                else l = h = l + (h - l) / 2;
            }
        return x;
    };
    const auto flips = [&](const std::vector<double>& s, double k) {
        const std::optional<int> a = exact_answer(f, moved(s, k));
        return a && *a == answer;
    };
    // Half the band's K, so that a band too narrow shows; but no lower than
    // the least K a band reports (an input that touches: any move flips it).
    const double floor = std::max(from / 2, 0x1p-40);
    // The least K of pattern s that flips, on a grid of 2^(1/64) steps, given
    // that it flips at hi.
    const auto least = [&](const std::vector<double>& s, double hi) {
        double lo = floor;
        for (int step = 0; step < 40 && hi / lo > 1.011; ++step) {
            const double mid = std::sqrt(lo * hi);
            (flips(s, mid) ? hi : lo) = mid;
        }
        return hi;
    };
    // Where each phase starts looking: the band's K (a touch's least K
    // flips at once, and a scan from 0 would never move).
    const double start = std::max(from, 0x1p-20);
    std::vector<double> s(n, 0);
    double k = 0;
    // A first-order band's own directions first: each is the way one of its
    // deciding functions (or a pair that must hold together) moves fastest
    // towards another answer, so it flips from about the band's K on, often
    // only in a narrow window (the other function closes it): from the
    // band's K up in steps of 1%, then of 10% to 8 times it.
    const std::optional<int> here = exact_answer(f, in);
    if (f.band.directions && here) {
        band_deltas(f, in.data(), start * unit_roundoff(), delta.data());
        for (const std::vector<double>& e : f.band.directions(in.data(), *here, delta.data())) {
            if (e.size() != n) continue;
            const double end = std::min(to, (k > 0 ? k : 8 * start));
            for (double at = start; at <= end; at *= at < 1.5 * start ? 1.01 : 1.1)
                if (flips(e, at)) {
                    if (const double ke = least(e, at); k == 0 || ke < k) {
                        k = ke;
                        s = e;
                    }
                    break;
                }
        }
    }
    // Where they leave more than half of K to find (or there are none): each
    // number alone, both ways, up to 256 times the band's K: where the answer
    // turns on one predicate, each number's least K tells
    // the direction it moves the predicate, and together they flip it at
    // about 1 / sum(1 / K_i) (exact for a linear predicate).
    const bool settled = k > 0 && k <= 1.5 * start;
    const double probe = std::min(to, start * 256);
    std::vector<double> alone(n, 0);
    double first = INFINITY;  // the least K of one number alone
    for (size_t i = 0; i < n && !settled; ++i) {
        double best = INFINITY;
        for (const int sign : {-1, 1}) {
            std::vector<double> e(n, 0);
            e[i] = sign;
            // From the band's K up (a window can close further out: one
            // end of a segment into a ball, then the other).
            for (double at = start; at <= probe; at *= M_SQRT2) {
                if (!flips(e, at)) continue;
                if (const double ki = least(e, at); ki < best) {
                    best = ki;
                    alone[i] = sign;
                }
                break;
            }
        }
        first = std::min(first, best);
    }
    // Together at or below the least K of one alone (further out, moving
    // every number can carry the input past the other answer: both ends of
    // a segment into a ball).
    for (double at = first; std::isfinite(at) && at >= floor && (k == 0 || at < k); at /= 1.1892)
        if (flips(alone, at)) {
            k = least(alone, at);
            s = alone;
            break;
        }
    // And random sign patterns, from the input's bits: the first that flips,
    // where it flips lower (the answer turns on more than one predicate, or
    // on none that one number moves).
    uint64_t state = n;
    for (double x : in) {
        uint64_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        state = state * 31 + bits;
    }
    std::vector<double> r(n, 0);
    bool found = settled;
    for (double at = start; at <= to && !found && (k == 0 || at < k); at *= 4)
        for (int trial = 0; trial < 32 && !found; ++trial) {
            for (double& x : r) x = double(splitmix64(state) % 3) - 1;
            if (flips(r, at)) {
                found = true;
                if (const double kr = least(r, at); k == 0 || kr < k) {
                    k = kr;
                    s = r;
                }
            }
        }
    if (k == 0) return snapped_perturbation(f, in, answer, to);
    // Then each number's move dropped or reversed while that lowers K by 5%
    // or more: at most four passes, and none once K is at the band's (no
    // lower K flips where the band is sound).
    for (int pass = 0, lowered = 1; lowered && pass < 4 && k > from * 1.05; ++pass) {
        lowered = 0;
        for (size_t i = 0; i < n; ++i)
            for (const double alt : {-1.0, 0.0, 1.0}) {
                if (alt == s[i]) continue;
                std::vector<double> t = s;
                t[i] = alt;
                if (!flips(t, k / 1.05)) continue;
                s = t;
                k = least(s, k / 1.05);
                lowered = 1;
            }
    }
    // Numbers moved onto others' values, where that flips below every
    // sign pattern's K (asked only where that K is more than twice the
    // band's).
    if (k > 2 * from)
        if (std::optional<Perturbation> snap = snapped_perturbation(f, in, answer, k)) return snap;
    return Perturbation{k, moved(s, k)};
}

}  // namespace isect::check
