// Slabs: a ray or segment o + t d against a box, on a number type; the
// bodies of ray_aabb, segment_aabb and moving_aabb (a segment from the
// origin against the Minkowski difference), their fast oracles and bands.
#pragma once

#include "isect/ref/moving_aabb.hpp"
#include "isect/ref/ray_aabb.hpp"
#include "policies.hpp"

namespace isect::ref::fast::detail {

/// The query and the box, by key: ray_aabb's and segment_aabb's inputs
/// differ only in the direction's name; moving_aabb's by key too.
struct SlabKeys {
    static constexpr size_t org = ray_aabb_input.at("org"), dir = ray_aabb_input.at("dir");
    static constexpr size_t lo = ray_aabb_input.at("box.lo"), hi = ray_aabb_input.at("box.hi");
    static_assert(org == segment_aabb_input.at("org") && dir == segment_aabb_input.at("delta") &&
                  lo == segment_aabb_input.at("box.lo") && hi == segment_aabb_input.at("box.hi"));
    static constexpr size_t s_lo = moving_aabb_input.at("stationary.lo"), s_hi = moving_aabb_input.at("stationary.hi");
    static constexpr size_t m_lo = moving_aabb_input.at("moving.lo"), m_hi = moving_aabb_input.at("moving.hi");
    static constexpr size_t motion = moving_aabb_input.at("d");
};

template <class Ops> struct Slabs {
    using NT = typename Ops::NT;
    using Point = std::array<NT, 3>;

    static int compare(const Frac<NT>& a, const Frac<NT>& b) { return Ops::sgn(a.num * b.den - b.num * a.den); }

    struct Result {
        bool hit = false;
        SlabVerdict verdict = SlabVerdict::apart;
        /// On a hit, and on a miss whose slabs are apart: the largest near
        /// parameter and the least far one, as the loop left them.
        Frac<NT> enter{NT(0), NT(1)}, exit{NT(0), NT(1)};
        bool exit_infinite = false;
        std::array<std::optional<Frac<NT>>, 3> near;
        int entered = -1;  ///< the axis whose near plane gave enter; -1 when enter is 0
    };

    /// ray_aabb_rational with the box corners lo, hi given as numbers (a
    /// Minkowski difference, a float box), and o, lo, hi all multiplied by
    /// scale > 0 (so that a band's grown box, whose margin is a fraction,
    /// stays exact): the direction is scale d. line: t over all reals (the
    /// `line` convention; d != 0), enter the latest near plane's t.
    static Result run(const Point& o, const double* d, const Point& lo, const Point& hi, bool segment,
                      const NT& scale = NT(1), bool line = false) {
        Result r;
        r.verdict = SlabVerdict::empty_box;
        for (int i = 0; i < 3; ++i)
            if (Ops::sgn(hi[size_t(i)] - lo[size_t(i)]) < 0) return r;
        r.verdict = SlabVerdict::parallel_outside;
        std::optional<Frac<NT>> t0;
        if (!line) t0 = Frac<NT>{NT(0), NT(1)};
        std::optional<Frac<NT>> t1;
        if (segment) t1 = Frac<NT>{NT(1), NT(1)};
        for (size_t i = 0; i < 3; ++i) {
            if (d[i] == 0) {
                if (Ops::sgn(o[i] - lo[i]) < 0 || Ops::sgn(hi[i] - o[i]) < 0) return r;
                continue;
            }
            // t = (plane - o) / d, with the sign moved into the numerator.
            const bool up = d[i] > 0;
            const NT den = scale * Ops::of(std::fabs(d[i]));
            const Frac<NT> tn{up ? NT(lo[i] - o[i]) : NT(o[i] - hi[i]), den};
            const Frac<NT> tf{up ? NT(hi[i] - o[i]) : NT(o[i] - lo[i]), den};
            r.near[i] = tn;
            if (!t0 || compare(tn, *t0) > 0) {
                t0 = tn;
                r.entered = int(i);
            }
            if (!t1 || compare(tf, *t1) < 0) t1 = tf;
        }
        if (!t0) return r;  // a line with d = 0: outside its domain
        r.enter = *t0;
        if (t1) r.exit = *t1;
        else r.exit_infinite = true;
        r.hit = !t1 || compare(*t0, *t1) <= 0;
        r.verdict = r.hit ? SlabVerdict::meets : SlabVerdict::apart;
        return r;
    }
};

/// ray_aabb / segment_aabb on a number type; Line: ray_aabb's `line`
/// convention, whose entry normal is always the entered face's.
template <bool Segment, bool Line = false> struct RayAabbBody {
    template <class Ops> struct Body {
        /// t_enter, t_exit (none for an infinite exit on exact numbers: a
        /// rational has no inf), the entry normal.
        static Out<Ops> run(const double* in) {
            using S = Slabs<Ops>;
            using K = SlabKeys;
            const auto s = S::run(point_of<Ops>(in + K::org), in + K::dir, point_of<Ops>(in + K::lo), point_of<Ops>(in + K::hi), Segment,
                                  typename Ops::NT(1), Line);
            Out<Ops> r;
            r.answer = s.hit ? 1 : 0;
            if (!s.hit) return r;
            put_quotient<Ops>(r, s.enter.num, s.enter.den);
            if (!s.exit_infinite) put_quotient<Ops>(r, s.exit.num, s.exit.den);
            else if constexpr (std::is_same_v<Out<Ops>, ExactResult>) put_none<Ops>(r);
            else push_exact(r, std::numeric_limits<double>::infinity());
            double normal[3] = {0, 0, 0};
            if (Line || Ops::sgn(s.enter.num) > 0)
                for (int i = 0; i < 3; ++i)
                    if (s.near[size_t(i)] && S::compare(*s.near[size_t(i)], s.enter) == 0) {
                        normal[i] = in[K::dir + size_t(i)] > 0 ? -1 : 1;
                        break;
                    }
            for (double n : normal) put_double<Ops>(r, n);
            return r;
        }
    };
};

/// moving_aabb on a number type: the segment from 0 along d against the
/// Minkowski difference S - M.
template <class Ops> struct MovingAabbBody {
    using Point = typename Slabs<Ops>::Point;
    /// The Minkowski difference S - M, as its corners.
    static void difference(const double* in, Point& lo, Point& hi) {
        using K = SlabKeys;
        for (size_t i = 0; i < 3; ++i) {
            lo[i] = Ops::of(in[K::s_lo + i]) - Ops::of(in[K::m_hi + i]);
            hi[i] = Ops::of(in[K::s_hi + i]) - Ops::of(in[K::m_lo + i]);
        }
    }
    static typename Slabs<Ops>::Result slabs(const double* in) {
        Point lo, hi, zero;
        difference(in, lo, hi);
        for (size_t i = 0; i < 3; ++i) zero[i] = typename Ops::NT(0);
        return Slabs<Ops>::run(zero, in + SlabKeys::motion, lo, hi, true);
    }
    static Out<Ops> run(const double* in) {
        const auto s = slabs(in);
        Out<Ops> r;
        r.answer = s.hit ? 1 : 0;
        if (s.hit) put_quotient<Ops>(r, s.enter.num, s.enter.den);
        return r;
    }
};

/// The box moves by delta_p (K u M, M the largest magnitude of the origin
/// and the box), the origin by delta_p, and the direction by delta_d (K u
/// |d|_inf for a ray; a segment's delta is a displacement and moves by
/// delta_p), so each point o + t d of the query moves by at most delta_p +
/// t delta_d. A perturbed query can only meet the perturbed box at t <= T:
/// T = 1 for a segment; for a ray the box and the origin lie within M +
/// delta_p of the coordinate origin, so along the axis of the largest |d_j|
/// a hit needs t (|d_j| - delta_d) <= 2 (M + delta_p). With g = 2 delta_p +
/// T delta_d, the answer cannot flip unless the exact query's answer
/// differs between the box grown by g and the box shrunk by g: if it meets
/// the shrunk box every perturbed query meets the perturbed box, and if it
/// misses the grown one no perturbed query can meet it. A zero direction is
/// the point o (delta_d = 0): g = 2 delta_p. A ray whose |d|_inf <=
/// delta_d (K >= 1/u) can point anywhere: always in band. Sound, and exact
/// up to the factor in g. On a number type: with D = dmax - delta_d, g D =
/// 2 delta_p D + 2 (M + delta_p) delta_d, so every coordinate is scaled by
/// D and the grown box stays exact.
///
/// Tighter, and exact, where the answer and the direction allow: each
/// number moves on its own, so every axis can be moved its own way. A miss
/// becomes a hit exactly where some t in [0, T] (for a line, in either of
/// the rays from o along d and along -d) has, on every axis i, the
/// reachable positions o_i + t d_i +- (delta_p + t delta_d) meeting the
/// grown slab [lo_i - delta_p, hi_i + delta_p]: two inequalities linear in
/// t per axis (can_meet). A hit becomes a miss exactly where the entry on
/// one axis, pushed as late as it goes, passes the exit on another, pushed
/// as early as it goes (or T, or 0), or a slab narrower than 2 delta_p
/// closes (can_miss): each side of that comparison is one axis's own
/// moves, and while no direction component can reach 0 each is a
/// quotient whose extreme is at a corner of its box. Where one can reach 0
/// the grown and shrunk boxes decide, as above.
template <bool Segment, bool Line = false> struct RayAabbBand {
    template <class Ops> struct Body {
        using NT = typename Ops::NT;
        using F = Frac<NT>;
        using K = SlabKeys;
        static int compare(const F& a, const F& b) { return Slabs<Ops>::compare(a, b); }
        /// The fraction num / den with den != 0, its denominator made positive.
        static F frac(const NT& num, const NT& den) { return Ops::sgn(den) > 0 ? F{num, den} : F{-num, -den}; }

        /// A slab query and what the band's moves can do to it, axis by
        /// axis: its start o and the slabs [lo, hi] (numbers: moving_aabb's
        /// are a Minkowski difference), its direction d (an input) and how
        /// far each component of d moves (dd), how far a point of the
        /// query and a face can close on each other besides t's share
        /// (`sides`: the start's move and the face's), and how far a slab
        /// can narrow (`close`: its two faces' moves).
        struct Reach {
            std::array<NT, 3> o, lo, hi, dd;
            const double* d = nullptr;
            NT sides, close;
        };
        /// A ray's or segment's reach: o, the box and a segment's delta
        /// each move by dp, a ray's direction by its own delta.
        static Reach reach_of(const double* in, const double* delta) {
            Reach q;
            const NT dp = Ops::of(delta[K::org]);
            for (size_t i = 0; i < 3; ++i) {
                q.o[i] = Ops::of(in[K::org + i]);
                q.lo[i] = Ops::of(in[K::lo + i]);
                q.hi[i] = Ops::of(in[K::hi + i]);
                q.dd[i] = Ops::of(delta[K::dir + i]);
            }
            q.d = in + K::dir;
            q.sides = 2 * dp;
            q.close = 2 * dp;
            return q;
        }

        /// Whether some move of the inputs makes a miss a hit.
        static bool can_meet(const Reach& q) {
            std::optional<F> from, to;
            if (!Line) from = F{NT(0), NT(1)};
            if (Segment) to = F{NT(1), NT(1)};
            // c + s t <= 0 for every t of [from, to].
            const auto bound = [&](const NT& c, const NT& s) {
                const int sign = Ops::sgn(s);
                if (sign == 0) return Ops::sgn(c) <= 0;
                const F t = frac(-c, s);
                if (sign > 0 && (!to || compare(t, *to) < 0)) to = t;
                if (sign < 0 && (!from || compare(t, *from) > 0)) from = t;
                return true;
            };
            for (size_t i = 0; i < 3; ++i) {
                const NT d = Ops::of(q.d[i]);
                // o - dp + t (d - dd) <= hi + dp, and o + dp + t (d + dd) >= lo - dp.
                if (!bound(q.o[i] - q.hi[i] - q.sides, d - q.dd[i]) || !bound(q.lo[i] - q.o[i] - q.sides, -(d + q.dd[i])))
                    return false;
            }
            return !to || !from || compare(*from, *to) <= 0;
        }

        /// For the witness search, a miss's join: at one t (where the
        /// moves' reach leaves the widest room, from the same bounds as
        /// can_meet, in plain double), each axis whose point o + t d lies
        /// outside its slab moved towards it, o and d against the gap and
        /// the near face towards the point, by the share of their reach the
        /// gap takes (capped at 1): the axes close together, where signs
        /// alone move each by its whole delta and overshoot. A line's t may
        /// be < 0 (d then moves with the gap).
        static void directions(const double* in, int exact_answer, const double* delta, Directions& out) {
            if (exact_answer != 0) return;
            const double dp = delta[K::org];
            double from = Line ? -INFINITY : 0, to = Segment ? 1 : INFINITY;
            for (size_t i = 0; i < 3; ++i) {
                const double o = in[K::org + i], d = in[K::dir + i], dd = delta[K::dir + i];
                const double lo = in[K::lo + i], hi = in[K::hi + i];
                const auto bound = [&](double c, double slope) {
                    if (slope == 0) return;
                    const double t = -c / slope;
                    if (slope > 0) to = std::min(to, t);
                    else from = std::max(from, t);
                };
                bound(o - hi - 2 * dp, d - dd);
                bound(lo - o - 2 * dp, -(d + dd));
            }
            const double t = std::isfinite(from) && std::isfinite(to) ? 0.5 * (from + to) : std::isfinite(from) ? from : to;
            if (!std::isfinite(t)) return;
            Direction v(ray_aabb_input.size(), 0);
            for (size_t i = 0; i < 3; ++i) {
                const double o = in[K::org + i], d = in[K::dir + i], dd = delta[K::dir + i];
                const double p = o + t * d, reach = 2 * dp + std::fabs(t) * dd;
                const double gap = p > in[K::hi + i] ? p - in[K::hi + i] : p < in[K::lo + i] ? p - in[K::lo + i] : 0;
                if (gap == 0 || !(reach > 0)) continue;
                const double w = std::min(1.0, std::fabs(gap) / reach), down = gap > 0 ? -w : w;
                v[K::org + i] = down;
                v[K::dir + i] = t >= 0 ? down : -down;
                v[(gap > 0 ? K::hi : K::lo) + i] = -down;
            }
            out.push_back(std::move(v));
        }

        /// Whether some move of the inputs makes a hit a miss; nullopt where
        /// a direction component can reach 0.
        static std::optional<bool> can_miss(const Reach& q) {
            std::array<F, 3> entry, exit;
            for (size_t i = 0; i < 3; ++i) {
                const double d = q.d[i];
                const NT ad = Ops::of(std::fabs(d)), dd = q.dd[i];
                if (Ops::sgn(ad - dd) <= 0) return std::nullopt;
                const NT &o = q.o[i], &lo = q.lo[i], &hi = q.hi[i];
                if (Ops::sgn(hi - lo - q.close) < 0) return true;  // the slab can close
                // Along |d|: the entry's numerator as large, the exit's as
                // small as the moves make them, each over |d| -+ dd as makes
                // the quotient later or earlier.
                const NT near = (d > 0 ? lo - o : o - hi) + q.sides, far = (d > 0 ? hi - o : o - lo) - q.sides;
                entry[i] = F{near, Ops::sgn(near) >= 0 ? NT(ad - dd) : NT(ad + dd)};
                exit[i] = F{far, Ops::sgn(far) >= 0 ? NT(ad + dd) : NT(ad - dd)};
            }
            const F zero{NT(0), NT(1)}, one{NT(1), NT(1)};
            for (size_t i = 0; i < 3; ++i) {
                if (!Line && (compare(exit[i], zero) < 0 || (Segment && compare(entry[i], one) > 0))) return true;
                for (size_t j = 0; j < 3; ++j)
                    if (j != i && compare(entry[i], exit[j]) > 0) return true;
            }
            return false;
        }

        static bool run(const double* in, int exact_answer, const double* delta) {
            if (exact_answer == 0) {
                if (!Line) return can_meet(reach_of(in, delta));
                // A line is two rays from o, along d and along -d: each
                // half's reachable positions are a ray's (for t <= 0 the
                // direction's moves turn round with t).
                std::array<double, ray_aabb_input.size()> back;
                std::copy(in, in + back.size(), back.begin());
                for (size_t i = 0; i < 3; ++i) back[K::dir + i] = -in[K::dir + i];
                return can_meet(reach_of(in, delta)) || can_meet(reach_of(back.data(), delta));
            }
            if (const std::optional<bool> miss = can_miss(reach_of(in, delta))) return *miss;
            return grown_or_shrunk(in, delta);
        }

        /// The grown and shrunk boxes' answers differ.
        static bool grown_or_shrunk(const double* in, const double* delta) {
            const NT dp = Ops::of(delta[K::org]);
            NT scale(1), margin = 3 * dp;  // a segment: T = 1, g = 3 delta_p
            if (!Segment) {
                double dmax = 0, m = 0;
                for (size_t i = 0; i < 3; ++i) {
                    dmax = std::max(dmax, double(std::fabs(in[K::dir + i])));
                    m = std::max({m, double(std::fabs(in[K::org + i])), double(std::fabs(in[K::lo + i])),
                                  double(std::fabs(in[K::hi + i]))});
                }
                const NT dd = Ops::of(delta[K::dir]);
                if (dmax == 0) {
                    margin = 2 * dp;  // the point o
                } else {
                    if (Ops::sgn(Ops::of(dmax) - dd) <= 0) return true;
                    scale = Ops::of(dmax) - dd;
                    margin = 2 * dp * scale + 2 * (Ops::of(m) + dp) * dd;
                }
            }
            auto glo = scaled_point<Ops>(in + K::lo, scale), ghi = scaled_point<Ops>(in + K::hi, scale);
            auto slo = glo, shi = ghi;
            for (size_t i = 0; i < 3; ++i) {
                glo[i] = glo[i] - margin;
                ghi[i] = ghi[i] + margin;
                slo[i] = slo[i] + margin;
                shi[i] = shi[i] - margin;
            }
            const auto o = scaled_point<Ops>(in + K::org, scale);
            using S = Slabs<Ops>;
            return S::run(o, in + K::dir, glo, ghi, Segment, scale, Line).hit !=
                   S::run(o, in + K::dir, slo, shi, Segment, scale, Line).hit;
        }
    };
};

/// Moving every input by delta moves each Minkowski bound by 2 delta on its
/// own (a face of each box), so a slab narrows by 4 delta, and each point
/// t d of the segment by t delta <= delta, the segment's start (the origin)
/// not at all: segment_aabb's exact band, on the difference box, with a
/// point and a face closing by 2 delta besides t's share and a slab
/// narrowing by 4 delta. Where a component of d can reach 0 (a hit's
/// entry then moves without bound), the answer cannot flip unless the
/// segment's answer differs between the difference box grown by 3 delta
/// and shrunk by 3 delta.
template <class Ops> struct MovingAabbBand {
    static_assert(positions_only(moving_aabb_input), "every number moves by one delta");
    static bool run(const double* in, int exact_answer, const double* delta) {
        using NT = typename Ops::NT;
        using K = SlabKeys;
        using Segment = typename RayAabbBand<true>::template Body<Ops>;
        typename Segment::Reach q;
        const NT dm = Ops::of(delta[0]);
        MovingAabbBody<Ops>::difference(in, q.lo, q.hi);
        for (size_t i = 0; i < 3; ++i) {
            q.o[i] = NT(0);
            q.dd[i] = dm;
        }
        q.d = in + K::motion;
        q.sides = 2 * dm;
        q.close = 4 * dm;
        if (exact_answer == 0) return Segment::can_meet(q);
        if (const std::optional<bool> miss = Segment::can_miss(q)) return *miss;
        const NT g = 3 * dm;
        std::array<NT, 3> glo, ghi, slo, shi;
        for (size_t i = 0; i < 3; ++i) {
            glo[i] = q.lo[i] - g;
            ghi[i] = q.hi[i] + g;
            slo[i] = q.lo[i] + g;
            shi[i] = q.hi[i] - g;
        }
        using S = Slabs<Ops>;
        return S::run(q.o, q.d, glo, ghi, true).hit != S::run(q.o, q.d, slo, shi, true).hit;
    }
};

}  // namespace isect::ref::fast::detail
