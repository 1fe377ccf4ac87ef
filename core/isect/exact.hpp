// Exact arithmetic for the exact kernels' slow path, header-only: sums and
// products of doubles held as nonoverlapping expansions (Shewchuk,
// "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
// Predicates", 1997). An expansion is a sum of doubles whose value is exact;
// its sign is that of its largest component.
//
// The kernels use it only where their double filter cannot decide a sign,
// so it favours simplicity over speed: components live in a std::vector.
//
// Error-free transformations: TwoSum (a + b = s + e exactly) needs round to
// nearest and no overflow; TwoProduct (a b = p + e exactly) uses an explicit
// std::fma, as the style notes ask, and needs no overflow and no underflow
// of the error term (|a b| above 2^-969): products of float-derived values
// (at least 2^-300 here unless zero) are far inside that, and a product that
// is 0 is exact anyway. Build with -ffp-contract=off (isect::core does).
#pragma once

#include <cmath>
#include <vector>

namespace isect::exact {

/// a + b = s + e exactly.
inline void two_sum(double a, double b, double& s, double& e) {
    s = a + b;
    const double bb = s - a;
    e = (a - (s - bb)) + (b - bb);
}

/// a b = p + e exactly.
inline void two_product(double a, double b, double& p, double& e) {
    p = a * b;
    e = std::fma(a, b, -p);
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
    const std::vector<double>& components() const { return c_; }

    Expansion operator-() const {
        Expansion r = *this;
        for (double& x : r.c_) x = -x;
        return r;
    }
    friend Expansion operator+(const Expansion& a, const Expansion& b) {
        Expansion r = a.c_.size() >= b.c_.size() ? a : b;
        for (double x : (a.c_.size() >= b.c_.size() ? b : a).c_) r.grow(x);
        return r;
    }
    friend Expansion operator-(const Expansion& a, const Expansion& b) { return a + (-b); }
    friend Expansion operator*(const Expansion& a, const Expansion& b) {
        Expansion r;
        for (double x : b.c_) r = r + a.scaled(x);
        return r;
    }

private:
    /// Adds one double (Shewchuk's Grow-Expansion, zeros eliminated).
    void grow(double b) {
        std::vector<double> h;
        h.reserve(c_.size() + 1);
        double q = b;
        for (double x : c_) {
            double s, e;
            two_sum(q, x, s, e);
            if (e != 0) h.push_back(e);
            q = s;
        }
        if (q != 0 || h.empty()) h.push_back(q);
        if (h.size() == 1 && h[0] == 0) h.clear();
        c_.swap(h);
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
    std::vector<double> c_;
};

}  // namespace isect::exact
