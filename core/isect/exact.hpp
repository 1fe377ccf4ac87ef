// Exact arithmetic for the exact kernels' slow path, header-only: sums and
// products of doubles held as nonoverlapping expansions (Shewchuk,
// "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
// Predicates", 1997). An expansion is a sum of doubles whose value is exact;
// its sign is that of its largest component.
//
// The kernels use it only where their double filter cannot decide a sign.
// Degenerate input (touching, coplanar, grazing) is exactly where that
// happens, so it must not be slow: components live in place, sixteen of them
// (a degree-3 value of floats rarely needs more than four), and spill to the
// heap only beyond that. Boost.Container's small_vector does the same, but
// would make core/ depend on Boost; Components is the part of it needed here.
//
// Error-free transformations: TwoSum (a + b = s + e exactly) needs round to
// nearest and no overflow; TwoProduct (a b = p + e exactly) uses an explicit
// std::fma where the target has one, Dekker's splitting otherwise, and needs
// no overflow and no underflow of the error term (|a b| above 2^-969):
// products of float-derived values (at least 2^-300 here unless zero) are
// far inside that, and a product that is 0 is exact anyway. Build with
// -ffp-contract=off (isect::core does).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "isect/fp.hpp"

namespace isect::exact {

/// How many times the calling thread's exact kernels left their double
/// filter for exact arithmetic: one increment per fallback, nothing on the
/// filtered path. The benchmarks read it for fallback rates.
inline thread_local uint64_t fallbacks = 0;

/// The components of an expansion: up to kInPlace held in place, more on the
/// heap (copied there when the count first exceeds kInPlace).
class Components {
public:
    static constexpr size_t kInPlace = 16;
    Components() {}
    Components(const Components& o) : n_(o.n_), heap_(o.heap_) {
        if (!spilled()) std::copy(o.small_, o.small_ + n_, small_);
    }
    Components(Components&& o) noexcept : n_(o.n_), heap_(std::move(o.heap_)) {
        if (!spilled()) std::copy(o.small_, o.small_ + n_, small_);
    }
    Components& operator=(const Components& o) {
        if (this != &o) {
            n_ = o.n_;
            heap_ = o.heap_;
            if (!spilled()) std::copy(o.small_, o.small_ + n_, small_);
        }
        return *this;
    }
    Components& operator=(Components&& o) noexcept {
        n_ = o.n_;
        heap_ = std::move(o.heap_);
        if (!spilled()) std::copy(o.small_, o.small_ + n_, small_);
        return *this;
    }
    ~Components() = default;
    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    const double* begin() const { return spilled() ? heap_.data() : small_; }
    const double* end() const { return begin() + n_; }
    double* begin() { return spilled() ? heap_.data() : small_; }
    double* end() { return begin() + n_; }
    double operator[](size_t i) const { return begin()[i]; }
    double back() const { return begin()[n_ - 1]; }
    void push_back(double x) {
        if (n_ < kInPlace) {
            small_[n_++] = x;
            return;
        }
        if (n_ == kInPlace) heap_.assign(small_, small_ + n_);
        heap_.push_back(x);
        ++n_;
    }
    /// Shrinks to the first n components (n <= size()).
    void resize(size_t n) {
        if (spilled() && n <= kInPlace) std::copy(heap_.begin(), heap_.begin() + long(n), small_);
        if (n <= kInPlace) heap_.clear();
        else heap_.resize(n);
        n_ = n;
    }

private:
    bool spilled() const { return n_ > kInPlace; }
    double small_[kInPlace];
    size_t n_ = 0;
    std::vector<double> heap_;
};

/// a + b = s + e exactly.
inline void two_sum(double a, double b, double& s, double& e) {
    s = a + b;
    const double bb = s - a;
    e = (a - (s - bb)) + (b - bb);
}

/// a = hi + lo exactly, each with at most 26 significant bits (Veltkamp's
/// splitting; no overflow below 2^995).
inline void split(double a, double& hi, double& lo) {
    const double c = 134217729.0 * a;  // 2^27 + 1
    hi = c - (c - a);
    lo = a - hi;
}

/// a b = p + e exactly. With hardware FMA, e is one fused multiply-add;
/// without it (x86-64's baseline has none, and std::fma becomes a library
/// call), Dekker's product: the four partial products of the halves are
/// exact (26 + 26 bits), and so is the sum that recovers the error.
inline void two_product(double a, double b, double& p, double& e) {
    p = a * b;
#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
    e = std::fma(a, b, -p);
#else
    double ah, al, bh, bl;
    split(a, ah, al);
    split(b, bh, bl);
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
#endif
}

/// An exact value: the sum of its components, nonoverlapping, in increasing
/// magnitude, without zeros (the empty expansion is 0).
class Expansion {
public:
    Expansion() = default;
    explicit Expansion(double x) {
        if (x != 0) c_.push_back(x);
    }
    /// a - b exactly, for any two doubles.
    static Expansion difference(double a, double b) {
        double s, e;
        two_sum(a, -b, s, e);
        Expansion r;
        if (e != 0) r.c_.push_back(e);
        if (s != 0) r.c_.push_back(s);
        return r;
    }

    int sign() const { return c_.empty() ? 0 : (c_.back() > 0 ? 1 : -1); }
    /// The value rounded to about double precision (the largest components
    /// summed last).
    double estimate() const {
        double s = 0;
        for (double x : c_) s += x;
        return s;
    }
    const Components& components() const { return c_; }

    Expansion operator-() const {
        Expansion r = *this;
        for (double& x : r.c_) x = -x;
        return r;
    }
    Expansion& operator+=(const Expansion& b) {
        for (double x : b.c_) grow(x);
        return *this;
    }
    Expansion& operator+=(double b) {
        grow(b);
        return *this;
    }
    friend Expansion operator+(const Expansion& a, const Expansion& b) {
        const bool a_longer = a.c_.size() >= b.c_.size();
        Expansion r = a_longer ? a : b;
        return r += a_longer ? b : a;
    }
    friend Expansion operator-(const Expansion& a, const Expansion& b) { return a + (-b); }
    friend Expansion operator*(const Expansion& a, const Expansion& b) {
        Expansion r;
        for (double x : b.c_) r += a.scaled(x);
        return r;
    }

    /// This expansion times b (Shewchuk's Scale-Expansion, zeros eliminated).
    Expansion scaled(double b) const {
        Expansion r;
        if (c_.empty() || b == 0) return r;
        double q, hh;
        two_product(c_[0], b, q, hh);
        if (hh != 0) r.c_.push_back(hh);
        for (size_t i = 1; i < c_.size(); ++i) {
            double p1, p0, sum, e;
            two_product(c_[i], b, p1, p0);
            two_sum(q, p0, sum, e);
            if (e != 0) r.c_.push_back(e);
            two_sum(p1, sum, q, e);  // p1 is at least as large as sum: fast-two-sum would do
            if (e != 0) r.c_.push_back(e);
        }
        if (q != 0) r.c_.push_back(q);
        return r;
    }

private:
    /// Adds one double (Shewchuk's Grow-Expansion, zeros eliminated), in
    /// place: the h-th output is written after the h-th input is read.
    void grow(double b) {
        double* c = c_.begin();
        const size_t n = c_.size();
        size_t h = 0;
        double q = b;
        for (size_t j = 0; j < n; ++j) {
            double s, e;
            two_sum(q, c[j], s, e);
            if (e != 0) c[h++] = e;
            q = s;
        }
        c_.resize(h);
        if (q != 0) c_.push_back(q);
    }
    Components c_;
};

/// The sign (-1, 0, 1) of the exact sum of n doubles (n <= 32). The filter:
/// summed left to right in double, the sum is within gamma(n - 1) S of exact,
/// S the sum of the magnitudes (Higham, Accuracy and Stability, 4.2; an
/// addition's rounding never underflows). S itself is computed with n - 1
/// roundings and the bound with one more, so gamma(n) times the computed S
/// covers gamma(n - 1) S for n <= 32. A sum beyond the bound has the exact
/// sign; otherwise Shewchuk's grow-expansion with zero elimination turns the
/// values into a nonoverlapping expansion, whose sign is its largest
/// component's. Two-sum is exact while no partial sum overflows, which holds
/// for sums of products of two floats (below 2^257).
inline int sign_of_sum(const double* x, int n) {
    double s = 0, m = 0;
    for (int i = 0; i < n; ++i) {
        s += x[i];
        m += std::fabs(x[i]);
    }
    const double bound = gamma(n) * m;
    if (s > bound) return 1;
    if (s < -bound) return -1;
    ++fallbacks;
    double e[32];
    int k = 0;
    for (int i = 0; i < n; ++i) {
        double q = x[i];
        int h = 0;
        for (int j = 0; j < k; ++j) {
            double sum, err;
            two_sum(q, e[j], sum, err);
            if (err != 0) e[h++] = err;
            q = sum;
        }
        if (q != 0) e[h++] = q;
        k = h;
    }
    return k == 0 ? 0 : (e[k - 1] > 0 ? 1 : -1);
}

/// a - b for two floats, exactly: the rounded difference and its error
/// (|lo| <= ulp(hi) / 2, and lo = 0 when hi = 0, so the sign is hi's).
/// Both are multiples of 2^-149, so their products with floats are at least
/// 2^-298 unless zero: two_product is exact on them.
struct Difference {
    double hi = 0, lo = 0;
    Difference() = default;
    Difference(float a, float b) { two_sum(a, -double(b), hi, lo); }
    int sign() const { return hi > 0 ? 1 : (hi < 0 ? -1 : 0); }
    Difference operator-() const {
        Difference r;
        r.hi = -hi;
        r.lo = -lo;
        return r;
    }
};

/// A sum of at most kMax exact terms (products enter as two terms, zeros are
/// dropped), whose sign sign_of_sum decides: the flat exact paths, whose
/// term count each call site bounds.
class Terms {
public:
    static constexpr int kMax = 32;
    void add(double x) {
        if (x != 0) t_[n_++] = x;
    }
    void add_product(double a, double b) {
        double p, e;
        two_product(a, b, p, e);
        add(p);
        add(e);
    }
    /// d b exactly (four terms at most).
    void add_product(const Difference& d, double b) {
        add_product(d.hi, b);
        add_product(d.lo, b);
    }
    /// a b exactly (eight terms at most).
    void add_product(const Difference& a, const Difference& b) {
        add_product(a, b.hi);
        add_product(a, b.lo);
    }
    /// The sum as an expansion.
    Expansion expansion() const {
        Expansion e;
        for (int i = 0; i < n_; ++i) e += t_[i];
        return e;
    }
    int sign() const { return sign_of_sum(t_, n_); }

private:
    double t_[kMax];
    int n_ = 0;
};

/// Vectors of exact values: differences of floats, and expansions.
using DifferenceVec = std::array<Difference, 3>;
using ExpansionVec = std::array<Expansion, 3>;

/// a - b exactly, componentwise.
inline DifferenceVec difference(const Vec3f& a, const Vec3f& b) {
    return {Difference(a[0], b[0]), Difference(a[1], b[1]), Difference(a[2], b[2])};
}

/// a x b exactly: each component a sum of sixteen exact terms, compressed
/// into an expansion.
inline ExpansionVec cross(const DifferenceVec& a, const DifferenceVec& b) {
    ExpansionVec r;
    for (size_t i = 0; i < 3; ++i) {
        const size_t j = (i + 1) % 3, k = (i + 2) % 3;
        Terms t;
        t.add_product(a[j], b[k]);
        t.add_product(-a[k], b[j]);
        r[i] = t.expansion();
    }
    return r;
}

/// a . b exactly.
inline Expansion dot(const DifferenceVec& a, const ExpansionVec& b) {
    Expansion r;
    for (size_t i = 0; i < 3; ++i) {
        r += b[i].scaled(a[i].hi);
        r += b[i].scaled(a[i].lo);
    }
    return r;
}

}  // namespace isect::exact
