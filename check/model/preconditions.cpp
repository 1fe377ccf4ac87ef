#include "check/model/preconditions.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "check/model/domain.hpp"
#include "check/model/family.hpp"
#include "isect/exact.hpp"
#include "isect/ref/exact.hpp"

namespace isect::check {

namespace {

/// x, or the nearest magnitude the domain allows (zero is always allowed).
double into_domain(double x, const Domain& d) {
    if (x == 0 || !std::isfinite(x)) return x;
    double m = std::fabs(x);
    if (m < d.lo) m = d.lo;
    if (m > d.hi) m = d.hi;
    m = std::min(m, greatest_finite());
    return std::copysign(to_precision(m), x);
}

/// A magnitude of the input's own scale: its largest finite one, or 1.
double own_scale(const double* in, size_t n) {
    double m = 0;
    for (size_t i = 0; i < n; ++i)
        if (std::isfinite(in[i])) m = std::max(m, std::fabs(in[i]));
    return m > 0 ? m : 1;
}

/// The next number of the precision above x, kept in the domain.
double step_up(double x, const Domain& d) {
    double y = next_in_precision(x, INFINITY);
    if (y > 0 && y < d.lo) y = d.lo;
    if (y < 0 && -y < d.lo) y = 0.0;
    return to_precision(y);
}

bool all_zero(const double* v) { return v[0] == 0 && v[1] == 0 && v[2] == 0; }
bool all_equal(const double* a, const double* b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

/// Whether the triangle t (9 numbers) has nonzero area, settled in double
/// where it can be: 1 proper, 0 degenerate, -1 not settled (the rationals
/// decide). n = (b - a) x (c - a) with each component's rounding bounded
/// (three roundings per product term and one for the difference, with room,
/// and an absolute floor for underflow): a component that clears its bound
/// proves n != 0. n = 0 is proved where every difference and product is
/// exact (error-free transformations) and the components cancel exactly:
/// the collinear and repeated vertices the generators make. Slivers at the
/// rounding level and overflow are left to the rationals.
int area_in_double(const double* t) {
    double e1[3], e2[3];
    bool exact = true;
    const auto diff = [&exact](double x, double y) {
        double d, err;
        exact::two_sum(x, -y, d, err);
        if (err != 0 || !std::isfinite(d)) exact = false;
        return d;
    };
    for (int i = 0; i < 3; ++i) e1[i] = diff(t[3 + i], t[i]), e2[i] = diff(t[6 + i], t[i]);
    const auto product_exact = [](double x, double y, double p) {
        return std::isfinite(p) && (p == 0 ? (x == 0 || y == 0) : std::fabs(p) >= 0x1p-960 && std::fma(x, y, -p) == 0);
    };
    bool zero = exact;
    for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        const double x = e1[j] * e2[k], y = e1[k] * e2[j], v = x - y;
        const double bound = 8 * 0x1p-53 * (std::fabs(x) + std::fabs(y)) + 0x1p-1000;
        if (std::isfinite(v) && std::isfinite(bound) && std::fabs(v) > bound) return 1;
        if (!(product_exact(e1[j], e2[k], x) && product_exact(e1[k], e2[j], y) && x == y)) zero = false;
    }
    return zero ? 0 : -1;
}

}  // namespace

namespace preconditions {

Precondition nonzero_vector(const Family& f, const std::string& name, const std::string& key) {
    const size_t at = f.offset(key), n = f.size();
    Precondition p;
    p.name = name;
    p.says = key + " != 0";
    p.degeneracy = true;
    p.holds = [at](const double* in) { return !all_zero(in + at); };
    p.adapt = [at, n](double* in, Source& s, const Domain& d) {
        if (!all_zero(in + at)) return;
        // An axis of the input's own scale, either way.
        in[at + s.below(3)] = into_domain((s.coin() ? -1.0 : 1.0) * own_scale(in, n), d);
    };
    return p;
}

Precondition unit_vector(const Family& f, const std::string& name, const std::string& key) {
    const size_t at = f.offset(key);
    Precondition p;
    p.name = name;
    p.says = "|" + key + "| = 1 within 16 u";
    p.slack = 16;
    p.at = at;
    p.count = 3;
    p.holds = [at](const double* in) {
        const double* v = in + at;
        const double n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        return std::fabs(n2 - 1) <= 32 * unit_roundoff();  // |v|^2 - 1 = 2 (|v| - 1) to first order
    };
    p.adapt = [at, holds = p.holds](double* in, Source& s, const Domain& d) {
        double* v = in + at;
        for (int attempt = 0; attempt < 4 && !holds(in); ++attempt) {
            if (all_zero(v)) v[s.below(3)] = s.coin() ? -1.0 : 1.0;
            const double len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            for (int i = 0; i < 3; ++i) {
                double c = to_precision(v[i] / len);
                if (c != 0 && std::fabs(c) < d.lo) c = std::copysign(0.0, c);  // below the domain: zero
                v[i] = c;
            }
        }
    };
    return p;
}

Precondition orthonormal_rows(const Family& f, const std::string& name, const std::string& key) {
    const size_t at = f.offset(key);
    Precondition p;
    p.name = name;
    p.says = key + " orthonormal within 16 u";
    // Rows whose products are within 32 u of the identity's lie within
    // about 3 x 16 u of the nearest orthonormal rows (the polar factor).
    p.slack = 48;
    p.at = at;
    p.count = 9;
    p.holds = [at](const double* in) {
        const double* a = in + at;
        for (int i = 0; i < 3; ++i)
            for (int j = i; j < 3; ++j) {
                const double d = a[3 * i] * a[3 * j] + a[3 * i + 1] * a[3 * j + 1] + a[3 * i + 2] * a[3 * j + 2];
                if (!(std::fabs(d - (i == j ? 1.0 : 0.0)) <= 32 * unit_roundoff())) return false;
            }
        return true;
    };
    p.adapt = [at, holds = p.holds](double* in, Source& s, const Domain&) {
        double* a = in + at;
        for (int attempt = 0; attempt < 4 && !holds(in); ++attempt) {
            double r[3][3];
            for (int i = 0; i < 3; ++i)
                for (int c = 0; c < 3; ++c) r[i][c] = std::isfinite(a[3 * i + c]) ? a[3 * i + c] : 0.0;
            // Gram-Schmidt; a row that vanishes (dependent on the ones before
            // it) becomes the coordinate axis farthest from their span.
            const auto reduce = [&r](double (&v)[3], int rows) {
                for (int j = 0; j < rows; ++j) {
                    const double d = v[0] * r[j][0] + v[1] * r[j][1] + v[2] * r[j][2];
                    for (int c = 0; c < 3; ++c) v[c] -= d * r[j][c];
                }
                return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            };
            for (int i = 0; i < 3; ++i) {
                double len = reduce(r[i], i);
                if (!(len > 1e-3)) {
                    for (int k = 0; k < 3; ++k) {
                        double e[3] = {0, 0, 0};
                        e[k] = s.coin() ? 1 : -1;
                        const double l = reduce(e, i);
                        if (l > len) {
                            len = l;
                            for (int c = 0; c < 3; ++c) r[i][c] = e[c];
                        }
                    }
                }
                for (int c = 0; c < 3; ++c) r[i][c] /= len;
            }
            for (int i = 0; i < 3; ++i)
                for (int c = 0; c < 3; ++c) a[3 * i + c] = to_precision(r[i][c]);
        }
    };
    return p;
}

Precondition distinct_points(const Family& f, const std::string& name,
                             const std::vector<std::pair<std::string, std::string>>& pairs) {
    std::vector<std::pair<size_t, size_t>> at;
    std::string says;
    for (const auto& [p, q] : pairs) {
        at.push_back({f.offset(p), f.offset(q)});
        says += (says.empty() ? "" : ", ") + p + " != " + q;
    }
    Precondition p;
    p.name = name;
    p.says = says;
    p.degeneracy = true;
    const auto same = [](const double* a, const double* b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; };
    p.holds = [at, same](const double* in) {
        for (const auto& [a, b] : at)
            if (same(in + a, in + b)) return false;
        return true;
    };
    p.adapt = [at, same](double* in, Source& s, const Domain& d) {
        for (const auto& [a, b] : at)
            if (same(in + a, in + b)) {
                const size_t i = b + s.below(3);
                in[i] = s.coin() ? step_up(in[i], d) : -step_up(-in[i], d);
            }
    };
    return p;
}

Precondition proper_triangle(const Family& f, const std::string& key) {
    const size_t at = f.offset(key);
    Precondition p;
    p.name = "proper_triangle";
    p.says = key + " has nonzero area";
    p.degeneracy = true;
    p.holds = [at](const double* in) {
        const double* t = in + at;
        if (const int settled = area_in_double(t); settled >= 0) return settled == 1;
        const ref::Point a = ref::exact(Vec3d{t[0], t[1], t[2]}), b = ref::exact(Vec3d{t[3], t[4], t[5]}),
                         c = ref::exact(Vec3d{t[6], t[7], t[8]});
        const ref::Point nrm = ref::cross(ref::sub(b, a), ref::sub(c, a));
        return !(nrm[0] == 0 && nrm[1] == 0 && nrm[2] == 0);
    };
    p.adapt = [at](double* in, Source& s, const Domain& d) {
        // Constructed, not retried: the three vertices are on a line (or a
        // point). Moving a vertex v by e along axis k, with p != q two of
        // the vertices, changes n by e (q - p) x e_k, which is not zero
        // when q - p is not along e_k: take k where |q - p| is least (a
        // zero there, unless q - p has no zero, and then any k will do).
        // The area is then exactly nonzero after one move (two for a
        // point triangle), an ulp each, so slivers stay slivers.
        double* t = in + at;
        const auto vertex = [t](int i) { return t + 3 * i; };
        const auto same = [&](int i, int j) { return all_equal(vertex(i), vertex(j)); };
        const auto nudge = [&](int v, int k) {
            double& x = vertex(v)[k];
            const double up = step_up(x, d), down = -step_up(-x, d);
            const bool up_ok = std::isfinite(up) && d.contains(up) && up != x, down_ok = std::isfinite(down) && d.contains(down) && down != x;
            if (up_ok && (!down_ok || s.coin())) x = up;
            else if (down_ok) x = down;
        };
        const auto off_line = [&](int v, int p0, int q0) {
            int k = 0;
            for (int i = 1; i < 3; ++i)
                if (std::fabs(vertex(q0)[i] - vertex(p0)[i]) < std::fabs(vertex(q0)[k] - vertex(p0)[k])) k = i;
            nudge(v, k);
        };
        if (!same(0, 1)) off_line(2, 0, 1);
        else if (!same(0, 2)) off_line(1, 0, 2);
        else if (!same(1, 2)) off_line(0, 1, 2);
        else {
            nudge(1, int(s.below(3)));
            off_line(2, 0, 1);
        }
    };
    return p;
}

Precondition positive_extent(const Family& f) {
    const std::vector<std::pair<size_t, size_t>> boxes = box_corners(f);
    std::string keys;
    for (const InputKey& k : f.inputs) {
        const size_t len = k.key.size();
        if (len >= 3 && k.key.compare(len - 3, 3, ".lo") == 0) keys += (keys.empty() ? "" : ", ") + k.key + " < " + k.key.substr(0, len - 3) + ".hi";
    }
    Precondition p;
    p.name = "positive_extent";
    p.says = keys + " on every axis";
    p.degeneracy = true;
    p.holds = [boxes](const double* in) {
        for (const auto& [lo, hi] : boxes)
            for (size_t i = 0; i < 3; ++i)
                if (!(in[lo + i] < in[hi + i])) return false;
        return true;
    };
    p.adapt = [boxes](double* in, Source& s, const Domain& d) {
        // A flat or point box opened by an ulp, up or down.
        for (const auto& [lo, hi] : boxes)
            for (size_t i = 0; i < 3; ++i)
                if (!(in[lo + i] < in[hi + i])) {
                    if (s.coin()) in[hi + i] = step_up(in[hi + i], d);
                    else in[lo + i] = -step_up(-in[lo + i], d);
                    if (!(in[lo + i] < in[hi + i])) in[hi + i] = step_up(in[hi + i], d);
                }
    };
    return p;
}

Precondition positive_value(const Family& f, const std::string& name, const std::string& key) {
    const size_t at = f.offset(key), n = f.size();
    Precondition p;
    p.name = name;
    p.says = key + " > 0";
    p.degeneracy = true;
    p.holds = [at](const double* in) { return in[at] > 0; };
    p.adapt = [at, n](double* in, Source& s, const Domain& d) {
        if (in[at] > 0) return;
        in[at] = in[at] < 0 ? -in[at] : into_domain(std::ldexp(own_scale(in, n), -int(s.below(8))), d);
        if (!(in[at] > 0)) in[at] = into_domain(1, d);
    };
    return p;
}

Precondition finite_value(const Family& f, const std::string& name, const std::string& key) {
    const size_t at = f.offset(key), n = f.size();
    Precondition p;
    p.name = name;
    p.says = key + " finite";
    p.holds = [at](const double* in) { return std::isfinite(in[at]); };
    p.adapt = [at, n](double* in, Source& s, const Domain& d) {
        if (!std::isfinite(in[at])) in[at] = into_domain(std::ldexp(own_scale(in, n), int(s.below(8)) - 2), d);
    };
    return p;
}

Precondition infinite_value(const Family& f, const std::string& name, const std::string& key) {
    const size_t at = f.offset(key);
    Precondition p;
    p.name = name;
    p.says = key + " = +inf";
    p.holds = [at](const double* in) { return in[at] == INFINITY; };
    p.adapt = [at](double* in, Source&, const Domain&) { in[at] = INFINITY; };
    return p;
}

}  // namespace preconditions

std::vector<std::string> known_preconditions() {
    std::set<std::string> names;
    for (const Family* f : families())
        for (const Precondition& p : f->preconditions) names.insert(p.name);
    return {names.begin(), names.end()};
}

bool parse_name_list(const std::string& text, const std::vector<std::string>& known, const std::string& what,
                     const std::string& none, std::vector<std::string>& out, std::string& why) {
    std::stringstream in(text);
    for (std::string name; std::getline(in, name, ',');) {
        if (name.empty() || (!none.empty() && name == none)) continue;
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            std::string list;
            for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
            if (!none.empty()) list += ", or " + none;
            why = "'" + name + "' is no family's " + what + " (" + list + "; `isect kernels` says which family has which)";
            return false;
        }
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
    return true;
}

bool parse_requirements(const std::string& text, std::vector<std::string>& out, std::string& why) {
    return parse_name_list(text, known_preconditions(), "precondition", "", out, why);
}

}  // namespace isect::check
