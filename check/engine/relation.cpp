#include "check/engine/relation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "check/engine/witness.hpp"

namespace isect::check {

std::string Relation::subject(const std::vector<FamilyKernel>& kernels) const {
    if (kind == Kind::agree) return "A = " + kernels[a].name + ", B = " + kernels[b].name;
    return kernels[a].name;
}

RelationReport relation_report_for(const Relation& rel, const std::vector<FamilyKernel>& kernels) {
    RelationReport r;
    r.relation = rel.kind;
    r.subject = rel.subject(kernels);
    if (rel.kind == Relation::Kind::agree) r.sides = {{"A", 0}, {"B", 0}, {"neither", 0}, {"both", 0}};
    return r;
}

namespace {

std::string answer_name(const Family& f, int a) {
    return a >= 0 && a < int(f.answers.size()) ? f.answers[size_t(a)] : "no answer (crash or hang)";
}

/// Kernel k on in, a crash or hang as answer -1.
Answer call(const FamilyKernel& k, const Inputs& in) {
    try {
        return k.fn(in.data());
    } catch (const KernelFailure&) {
        return Answer{-1, {}, 0};
    }
}

/// Whether two answers' numbers differ by more than tol u max(|x|, |y|);
/// names the output that differs most.
bool numbers_differ(const Family& f, const Answer& x, const Answer& y, double tol, std::string& output) {
    double worst = 0;
    for (size_t i = 0; i < x.values.size() && i < y.values.size() && i < f.outputs.size(); ++i) {
        const double a = x.values[i], b = y.values[i];
        if (a == b || (std::isnan(a) && std::isnan(b))) continue;
        const double scale = std::max({std::fabs(a), std::fabs(b), least_normal()});
        const double units = std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b)
                                 ? INFINITY
                                 : std::fabs(a - b) / scale / unit_roundoff();
        if (units > tol && units > worst) {
            worst = units;
            output = f.outputs[i];
        }
    }
    return worst > 0;
}

/// Whether A's and B's answers break `agree`: another answer, or numbers
/// further apart than the tolerance (output names the one furthest).
bool disagree(const Family& f, const Answer& a, const Answer& b, double tolerance, std::string& output) {
    if (a.answer != b.answer) return true;
    const bool carries = a.answer >= 0 && a.answer < int(f.answers.size()) && f.answer_has_values[size_t(a.answer)];
    return carries && numbers_differ(f, a, b, tolerance, output);
}

/// The input with a two-object family's arguments swapped, into out.
void swap_into(const Family& f, const Inputs& in, Inputs& out) {
    out.assign(in.begin(), in.end());
    const size_t n = f.exchangeable;
    for (size_t i = 0; i < n; ++i) std::swap(out[i], out[n + i]);
}
Inputs swapped(const Family& f, const Inputs& in) {
    Inputs out;
    swap_into(f, in, out);
    return out;
}

/// A larger tmax and how a person names it.
struct Larger {
    double tmax;
    const char* what;
};

/// At most three larger tmax, without the heap (asked of every hit).
struct Largers {
    Larger at[3];
    size_t n = 0;
    const Larger* begin() const { return at; }
    const Larger* end() const { return at + n; }
};

/// Every larger tmax the relation tries (twice it, the precision's largest
/// number, +inf), beyond the case's.
Largers larger_tmax(double tmax) {
    const double largest = precision() == Precision::single ? double(std::numeric_limits<float>::max())
                                                            : std::numeric_limits<double>::max();
    Largers out;
    const auto add = [&](double t, const char* what) {
        if (t > tmax) out.at[out.n++] = {t, what};
    };
    if (tmax > 0) add(2 * tmax > largest ? INFINITY : 2 * tmax, "2 tmax");
    add(largest, precision() == Precision::single ? "the largest float" : "the largest double");
    add(INFINITY, "+inf");
    return out;
}

/// The first output, the entry (t, t_enter), as the same number: equal, or
/// both NaN.
bool same_entry(const Answer& x, const Answer& y) {
    if (x.values.empty() || y.values.empty()) return true;
    const double a = x.values[0], b = y.values[0];
    return a == b || (std::isnan(a) && std::isnan(b));
}

std::string number(double x) { return format_k(x); }

/// The references' truth of in, or nullopt where they disagree (the input
/// decides nothing; the run reports the disagreement elsewhere).
std::optional<Truth> references(const Family& f, const Inputs& in) {
    try {
        return f.truth(in.data());
    } catch (const ReferenceMismatch&) {
        return std::nullopt;
    }
}

std::optional<RelationBreak> judge_agree(const Family& f, const Relation& rel, const std::vector<FamilyKernel>& kernels,
                                         const Inputs& in) {
    const std::vector<FamilyKernel> both{kernels[rel.a], kernels[rel.b]};
    CaseJudge judged(f, both, in, Oracle::slow, false);
    judged.finish();
    if (!judged.disagreement().empty()) return std::nullopt;
    const std::vector<FamilyJudgement>& j = judged.judgements();
    if (j[0].outside || j[1].outside) return std::nullopt;
    const Answer &a = judged.answer(0), &b = judged.answer(1);
    std::string output;
    if (!disagree(f, a, b, rel.tolerance, output)) return std::nullopt;
    const Truth& truth = judged.truth();
    RelationBreak out;
    if (a.answer != b.answer) {
        out.side = a.answer == truth.answer ? "A" : b.answer == truth.answer ? "B" : "neither";
        out.key.what = "A " + answer_name(f, a.answer) + ", B " + answer_name(f, b.answer) + ", exact " +
                       answer_name(f, truth.answer);
        out.why = "A answers " + answer_name(f, a.answer) + ", B " + answer_name(f, b.answer) + "; the references " +
                  answer_name(f, truth.answer);
    } else {
        // The numbers: each side's error against the exact ones, in units
        // of u S (the family's scales); the smaller is the one the
        // references side with, both when each is within 1.
        const double ea = j[0].error.e, eb = j[1].error.e;
        out.side = ea <= 1 && eb <= 1 ? "both" : ea < eb ? "A" : eb < ea ? "B" : "neither";
        out.key.what = "numbers: " + output + ", " +
                       (out.side == "both"      ? std::string("each within 1 u S")
                        : out.side == "neither" ? std::string("neither nearer")
                                                : out.side + " nearer");
        out.why = "both answer " + answer_name(f, a.answer) + "; their numbers are off the exact ones by " + number(ea) +
                  " (A) and " + number(eb) + " (B) u S";
    }
    out.truth = truth;
    return out;
}

/// The input with every polygon's vertices rotated by one (b c a): the
/// symmetry's vertex rotation (symmetry.hpp), written as the permutation it
/// is, which moves no number.
void rotate_into(const Family& f, const Inputs& in, Inputs& out) {
    out.assign(in.begin(), in.end());
    size_t at = 0;
    for (const InputKey& k : f.inputs) {
        if (k.role == Role::polygon) {
            const size_t n = size_t(k.count);
            for (size_t i = 0; i < n; ++i) out[at + i] = in[at + (i + 3) % n];
        }
        at += size_t(k.count);
    }
}
Inputs rotated(const Family& f, const Inputs& in) {
    Inputs out;
    rotate_into(f, in, out);
    return out;
}

/// A relation that the kernel answers `other`, a transform of in, as it
/// answers in (`name` the transform's participle, `how` what it did to the
/// input): broken where the two answers differ.
std::optional<RelationBreak> judge_same_answer(const Family& f, const FamilyKernel& k, const Inputs& in,
                                               const Inputs& other, const std::string& name, const std::string& how) {
    const Answer a = call(k, in), b = call(k, other);
    if (a.answer == b.answer) return std::nullopt;
    const std::optional<Truth> truth = references(f, in);
    if (!truth) return std::nullopt;
    RelationBreak out;
    out.side = a.answer == truth->answer ? "as given" : b.answer == truth->answer ? name : "neither";
    out.key.what = "answers " + answer_name(f, a.answer) + ", " + name + " " + answer_name(f, b.answer) + ", exact " +
                   answer_name(f, truth->answer);
    out.why = "answers " + answer_name(f, a.answer) + " as given and " + answer_name(f, b.answer) + " with " + how +
              "; the references " + answer_name(f, truth->answer);
    out.truth = *truth;
    return out;
}

/// Whether a crossing at the exact parameter t lies within the band of the
/// ray's ends, where the watertight claim says nothing (a ray that ends
/// within rounding of a shared edge may miss every triangle there, each
/// call inside its own band): at or past tmax - K u |tmax| (the band moves a
/// finite tmax by K u of itself), or within K u M of the origin (t |d|_inf
/// <= K u M: the band moves the origin by K u M). K is the contract's, 1
/// for one without a band.
bool within_band_of_an_end(const Family& f, const FamilyKernel& k, const Inputs& in, double t) {
    const double ku =
        (k.contract.kind == Contract::Kind::tolerant || k.contract.has_band() ? k.contract.k : 1.0) * unit_roundoff();
    const double tmax = in[f.offset("tmax")];
    if (std::isfinite(tmax) && t >= tmax - ku * std::fabs(tmax)) return true;
    const size_t dir = f.offset("dir");
    const double d = std::max({std::fabs(in[dir]), std::fabs(in[dir + 1]), std::fabs(in[dir + 2])});
    return t * d <= ku * position_magnitude(f, in.data());
}

std::optional<RelationBreak> judge_monotone(const Family& f, const FamilyKernel& k, const Inputs& in) {
    const Answer at = call(k, in);
    if (at.answer != 1) return std::nullopt;
    const size_t t_at = f.offset("tmax");
    Inputs larger_in = in;
    for (const Larger& l : larger_tmax(in[t_at])) {
        larger_in[t_at] = l.tmax;
        const Answer later = call(k, larger_in);
        if (later.answer == 1 && same_entry(at, later)) continue;
        const std::optional<Truth> truth = references(f, in), truth_later = references(f, larger_in);
        if (!truth || !truth_later) return std::nullopt;
        // As for watertight: nothing is claimed where the crossing lies
        // within the band of tmax or of the origin (a hit at tmax there is
        // itself inside its band).
        const Truth& crossing = truth->answer == 1 ? *truth : *truth_later;
        if (crossing.answer == 1 && !crossing.values.empty() && within_band_of_an_end(f, k, in, crossing.values[0]))
            return std::nullopt;
        RelationBreak out;
        const std::string entry = f.outputs.empty() ? "entry" : f.outputs[0];
        const std::string larger = format_number(l.tmax) + " (" + l.what + ")";
        if (later.answer != 1) {
            out.key.what = "a hit at tmax, " + answer_name(f, later.answer) + " at a larger tmax, exact " +
                           answer_name(f, truth_later->answer);
            out.why = "hits at tmax = " + format_number(in[f.offset("tmax")]) + ", answers " +
                      answer_name(f, later.answer) + " at tmax = " + larger + "; the references " +
                      answer_name(f, truth_later->answer);
        } else {
            out.key.what = "the entry moves as tmax grows";
            out.why = entry + " = " + format_number(at.values[0]) + " at tmax = " + format_number(in[f.offset("tmax")]) +
                      ", " + format_number(later.values[0]) + " at tmax = " + larger;
        }
        out.side = "";
        out.truth = *truth;
        return out;
    }
    return std::nullopt;
}

/// Whether kernel k hits any of the group's calls.
bool hits_any(const FamilyKernel& k, const std::vector<Inputs>& group) {
    for (const Inputs& n : group)
        if (call(k, n).answer == 1) return true;
    return false;
}

/// The group of the case's neighbours whose shared edge or vertex the ray
/// passes exactly through, when the kernel misses the case and every
/// triangle of that group although they cross every plane alike: a leak.
/// Which group it is, or nullopt.
std::optional<size_t> leak(const Family& f, const FamilyKernel& k, const Inputs& in,
                           std::vector<std::vector<Inputs>>& around) {
    const std::optional<size_t> g = f.shared_edges.crossing(in.data());
    if (!g) return std::nullopt;
    around = f.shared_edges.neighbours(in.data());
    if (*g >= around.size() || around[*g].empty() || hits_any(k, around[*g])) return std::nullopt;
    if (!f.shared_edges.crosses_alike(in.data(), around[*g])) return std::nullopt;
    return g;
}

std::optional<RelationBreak> judge_watertight(const Family& f, const FamilyKernel& k, const Inputs& in) {
    if (call(k, in).answer == 1) return std::nullopt;
    std::vector<std::vector<Inputs>> around;
    const std::optional<size_t> g = leak(f, k, in, around);
    if (!g) return std::nullopt;
    // The references confirm the ray meets the triangle and each of its
    // neighbours there.
    const std::optional<Truth> truth = references(f, in);
    if (!truth || truth->answer != 1 || truth->values.empty() || within_band_of_an_end(f, k, in, truth->values[0]))
        return std::nullopt;
    for (const Inputs& n : around[*g]) {
        const std::optional<Truth> t = references(f, n);
        if (!t || t->answer != 1) return std::nullopt;
    }
    const std::string name = *g < f.shared_edges.names.size() ? f.shared_edges.names[*g] : std::to_string(*g);
    const bool vertex = name.rfind("vertex", 0) == 0;
    RelationBreak out;
    out.key.what = vertex ? "a leak: misses every triangle around a vertex the ray passes through"
                          : "a leak: misses both triangles of an edge the ray passes through";
    out.why = "misses the triangle and the " + std::to_string(around[*g].size()) + " closing it around its " + name +
              ", each wound alike; the references hit all " + std::to_string(around[*g].size() + 1);
    out.truth = *truth;
    return out;
}

}  // namespace

bool claimed_on(const Family& f, const FamilyKernel& k, const Inputs& in) {
    if (k.relations_domain) return k.relations_domain->covers(f, in.data());
    return !k.domain || k.domain->covers(f, in.data());
}

bool breaks(const Family& f, const Relation& rel, const std::vector<FamilyKernel>& kernels, const Inputs& in,
            const CaseJudge& judged) {
    const FamilyKernel& k = kernels[rel.a];
    const Answer& got = judged.answer(rel.a);
    switch (rel.kind) {
        case Relation::Kind::agree: {
            std::string output;
            return disagree(f, got, judged.answer(rel.b), rel.tolerance, output);
        }
        // Into a thread's own buffer: asked of every case a relation claims.
        case Relation::Kind::symmetric: {
            thread_local Inputs other;
            swap_into(f, in, other);
            return call(k, other).answer != got.answer;
        }
        case Relation::Kind::rotation: {
            thread_local Inputs other;
            rotate_into(f, in, other);
            return call(k, other).answer != got.answer;
        }
        case Relation::Kind::monotone: {
            if (got.answer != 1) return false;
            const size_t t_at = f.offset("tmax");
            thread_local Inputs larger_in;
            larger_in.assign(in.begin(), in.end());
            for (const Larger& l : larger_tmax(in[t_at])) {
                larger_in[t_at] = l.tmax;
                const Answer later = call(k, larger_in);
                if (later.answer != 1 || !same_entry(got, later)) return true;
            }
            return false;
        }
        case Relation::Kind::watertight: {
            // Only a triangle the ray meets can share an edge it passes
            // through; a kernel that hits it keeps the claim.
            if (got.answer == 1 || judged.truth().answer != 1) return false;
            std::vector<std::vector<Inputs>> around;
            return leak(f, k, in, around).has_value();
        }
    }
    return false;
}

std::optional<RelationBreak> judge_relation(const Family& f, const Relation& rel,
                                            const std::vector<FamilyKernel>& kernels, const Inputs& in) {
    std::optional<RelationBreak> out;
    const FamilyKernel& k = kernels[rel.a];
    if (!claimed_on(f, k, in)) return std::nullopt;
    switch (rel.kind) {
        case Relation::Kind::agree: out = judge_agree(f, rel, kernels, in); break;
        case Relation::Kind::symmetric:
            out = judge_same_answer(f, k, in, swapped(f, in), "swapped", "the arguments swapped");
            break;
        case Relation::Kind::monotone: out = judge_monotone(f, k, in); break;
        case Relation::Kind::watertight: out = judge_watertight(f, k, in); break;
        case Relation::Kind::rotation:
            out = judge_same_answer(f, k, in, rotated(f, in), "rotated", "the vertices rotated (b c a)");
            break;
    }
    if (!out) return out;
    out->key.kernel = rel.subject(kernels);
    out->key.contract = rel.name();
    out->key.kind = FailureKind::relation;
    if (f.deciding) out->key.decided = f.deciding(in.data(), out->truth, out->truth.answer);
    out->key.scale = scale_bucket(f, in);
    return out;
}

const FailureClass* tally_relation(const Family& f, const Relation& rel, const std::vector<FamilyKernel>& kernels,
                                   RelationReport& r, const Inputs& in, const CaseJudge& judged, uint64_t case_number) {
    if (judged.outside(rel.a) || (rel.kind == Relation::Kind::agree && judged.outside(rel.b))) return nullptr;
    if (!claimed_on(f, kernels[rel.a], in)) return nullptr;
    ++r.tried;
    if (!breaks(f, rel, kernels, in, judged)) return nullptr;
    const std::optional<RelationBreak> b = judge_relation(f, rel, kernels, in);
    if (!b) return nullptr;
    ++r.violations;
    if (!b->side.empty()) ++r.sides[b->side];
    return &count_in_class(f, r.classes, b->key, in, case_number, b->why);
}

void merge_relation(const Family& f, RelationReport& into, const RelationReport& from) {
    into.tried += from.tried;
    into.violations += from.violations;
    for (const auto& [side, n] : from.sides) into.sides[side] += n;
    join_classes(f, into.classes, from.classes);
}

std::unique_ptr<Family> with_mesh(const Family& f, const std::shared_ptr<const Mesh>& m) {
    auto g = std::make_unique<Family>(f);
    if (f.mesh_mixes)
        for (Mix& mix : f.mesh_mixes(m)) g->mixes.push_back(std::move(mix));
    if (f.mesh_shared_edges) g->shared_edges = f.mesh_shared_edges(f.shared_edges, m);
    return g;
}

std::unique_ptr<Family> with_neighbours(const Family& f, const Inputs& in, std::vector<std::array<double, 9>> neighbours) {
    const size_t tri = f.offset("tri");
    std::array<double, 9> own;
    std::copy(in.begin() + long(tri), in.begin() + long(tri) + 9, own.begin());
    neighbours.insert(neighbours.begin(), own);
    return with_mesh(f, mesh_of(neighbours));
}

std::vector<std::array<double, 9>> witness_neighbours(const Family& f, const Inputs& in) {
    std::vector<std::array<double, 9>> out;
    if (!f.shared_edges.neighbours) return out;
    const size_t tri = f.offset("tri");
    for (const std::vector<Inputs>& group : f.shared_edges.neighbours(in.data()))
        for (const Inputs& n : group) {
            std::array<double, 9> t;
            std::copy(n.begin() + long(tri), n.begin() + long(tri) + 9, t.begin());
            if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
        }
    return out;
}

}  // namespace isect::check
