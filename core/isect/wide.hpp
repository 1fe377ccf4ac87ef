// Exact binary numbers of a fixed width: ±m 2^(64 e), m an integer of at
// most kLimbs 64-bit limbs, e any int. A number built from floats by +, -
// and * up to degree 12 fits (every float is an integer times 2^-149 below
// 2^128, so such a value spans at most about 3,400 bits: the closest-point
// kernels compare fractions of degree 6), and then costs what its limbs
// cost, however far apart its terms' exponents are: the expansions of
// exact.hpp grow with that spread instead (an input with 2^-149 and 2^127 in
// it makes them hundreds of components long). A result that needs more
// limbs is marked inexact and settles nothing (the staged filter of
// filter.hpp then goes on to expansions). Header-only, no dependencies;
// the limb products take unsigned __int128 (gcc and clang).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace isect::exact {

class Wide {
public:
    static constexpr int kLimbs = 64;

    Wide() = default;
    /// Copies only the limbs in use (a number is 32 limbs wide, and most use a few).
    Wide(const Wide& o) : sign_(o.sign_), inexact_(o.inexact_), n_(o.n_), e_(o.e_) {
        std::memcpy(m_, o.m_, sizeof(uint64_t) * size_t(n_));
    }
    Wide& operator=(const Wide& o) {
        sign_ = o.sign_;
        inexact_ = o.inexact_;
        n_ = o.n_;
        e_ = o.e_;
        std::memmove(m_, o.m_, sizeof(uint64_t) * size_t(n_));
        return *this;
    }
    /// x exactly; a NaN or an infinity is inexact.
    explicit Wide(double x) {
        if (x == 0) return;
        if (!std::isfinite(x)) {
            inexact_ = true;
            return;
        }
        int k = 0;
        const double f = std::frexp(std::fabs(x), &k);  // |x| = f 2^k, f in [0.5, 1)
        const uint64_t mant = uint64_t(std::ldexp(f, 53)); // exact: 53 bits
        const int q = k - 53;                               // |x| = mant 2^q
        const int e = q >= 0 ? q / 64 : -((-q + 63) / 64);  // floor(q / 64)
        const int shift = q - 64 * e;                       // 0 .. 63
        const unsigned __int128 v = (unsigned __int128)mant << shift;
        m_[0] = uint64_t(v);
        m_[1] = uint64_t(v >> 64);
        n_ = 2;
        e_ = e;
        sign_ = x > 0 ? 1 : -1;
        normalise();
    }

    /// -1, 0 or 1; meaningful only when exact().
    int sign() const { return sign_; }
    bool exact() const { return !inexact_; }
    /// The value to about double precision (its top 128 bits).
    double estimate() const {
        if (n_ == 0) return 0;
        const double hi = double(m_[n_ - 1]), lo = n_ > 1 ? double(m_[n_ - 2]) : 0.0;
        return sign_ * std::ldexp(hi + std::ldexp(lo, -64), 64 * (e_ + n_ - 1));
    }

    Wide operator-() const {
        Wide r = *this;
        r.sign_ = -r.sign_;
        return r;
    }
    friend Wide operator+(const Wide& a, const Wide& b) {
        if (a.inexact_ || b.inexact_) return poisoned();
        if (a.sign_ == 0) return b;
        if (b.sign_ == 0) return a;
        return a.sign_ == b.sign_ ? add_magnitudes(a, b, a.sign_) : subtract_magnitudes(a, b);
    }
    friend Wide operator-(const Wide& a, const Wide& b) { return a + (-b); }
    friend Wide operator*(const Wide& a, const Wide& b) {
        if (a.inexact_ || b.inexact_) return poisoned();
        Wide r;
        if (a.sign_ == 0 || b.sign_ == 0) return r;
        if (a.n_ + b.n_ > kLimbs) return poisoned();
        r.n_ = a.n_ + b.n_;
        std::memset(r.m_, 0, sizeof(uint64_t) * size_t(r.n_));
        for (int i = 0; i < a.n_; ++i) {
            uint64_t carry = 0;
            for (int j = 0; j < b.n_; ++j) {
                const unsigned __int128 t = (unsigned __int128)a.m_[i] * b.m_[j] + r.m_[i + j] + carry;
                r.m_[i + j] = uint64_t(t);
                carry = uint64_t(t >> 64);
            }
            r.m_[i + b.n_] = carry;
        }
        r.e_ = a.e_ + b.e_;
        r.sign_ = a.sign_ * b.sign_;
        r.normalise();
        return r;
    }

private:
    static Wide poisoned() {
        Wide r;
        r.inexact_ = true;
        return r;
    }
    /// Limb i of the magnitude counted from limb exponent e (0 outside it).
    uint64_t limb_at(int e) const {
        const int i = e - e_;
        return i >= 0 && i < n_ ? m_[i] : 0;
    }
    /// Drops zero limbs at both ends (low ones into the exponent).
    void normalise() {
        while (n_ > 0 && m_[n_ - 1] == 0) --n_;
        int low = 0;
        while (low < n_ && m_[low] == 0) ++low;
        if (low > 0) {
            std::memmove(m_, m_ + low, sizeof(uint64_t) * size_t(n_ - low));
            n_ -= low;
            e_ += low;
        }
        if (n_ == 0) {
            sign_ = 0;
            e_ = 0;
        }
    }
    static Wide add_magnitudes(const Wide& a, const Wide& b, int sign) {
        const int lo = std::min(a.e_, b.e_), hi = std::max(a.e_ + a.n_, b.e_ + b.n_);
        if (hi - lo + 1 > kLimbs) return poisoned();
        Wide r;
        uint64_t carry = 0;
        for (int e = lo; e < hi; ++e) {
            const unsigned __int128 t = (unsigned __int128)a.limb_at(e) + b.limb_at(e) + carry;
            r.m_[e - lo] = uint64_t(t);
            carry = uint64_t(t >> 64);
        }
        r.n_ = hi - lo;
        if (carry) r.m_[r.n_++] = carry;
        r.e_ = lo;
        r.sign_ = sign;
        r.normalise();
        return r;
    }
    /// a + b for a and b of opposite signs: the larger magnitude less the
    /// smaller, with the larger's sign.
    static Wide subtract_magnitudes(const Wide& a, const Wide& b) {
        const int lo = std::min(a.e_, b.e_), hi = std::max(a.e_ + a.n_, b.e_ + b.n_);
        if (hi - lo > kLimbs) return poisoned();
        int order = 0;  // sign of |a| - |b|
        for (int e = hi - 1; e >= lo && order == 0; --e) {
            const uint64_t x = a.limb_at(e), y = b.limb_at(e);
            order = x > y ? 1 : (x < y ? -1 : 0);
        }
        Wide r;
        if (order == 0) return r;
        const Wide& big = order > 0 ? a : b;
        const Wide& small = order > 0 ? b : a;
        uint64_t borrow = 0;
        for (int e = lo; e < hi; ++e) {
            const uint64_t x = big.limb_at(e), y = small.limb_at(e);
            const uint64_t d = x - y - borrow;
            borrow = (x < y || (x == y && borrow)) ? 1 : 0;
            r.m_[e - lo] = d;
        }
        r.n_ = hi - lo;
        r.e_ = lo;
        r.sign_ = big.sign_;
        r.normalise();
        return r;
    }

    int8_t sign_ = 0;
    bool inexact_ = false;
    int n_ = 0;   ///< limbs in use
    int e_ = 0;   ///< the lowest limb's exponent, in units of 64 bits
    uint64_t m_[kLimbs];
};

}  // namespace isect::exact
