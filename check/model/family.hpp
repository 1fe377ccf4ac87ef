// A family as the checker sees it: the input as named groups of numbers,
// the answer (one of a few names) and the numbers a kernel builds, the
// exact truth from two references, the tolerance band, the error bound of
// the numbers, the constructions that generate inputs, its preconditions,
// its plugin call and its kernels. Each family describes itself once, in
// check/families/FAMILY.cpp; the list of families is model/families.def.
// Also the run's precision (float or double), which every part follows.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "check/model/contract.hpp"
#include "check/model/domain.hpp"
#include "check/model/preconditions.hpp"
#include "check/model/source.hpp"
#include "isect/ref/fast.hpp"
#include "isect/ref/layout.hpp"

namespace isect::check {

/// Thrown when the two references of a family disagree: a bug in one of
/// them, or an unchecked library precondition. Never swallowed.
struct ReferenceMismatch : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A family's numbers (its outputs: at most 12) without the heap: the
/// engine handles a million answers a second, and a vector for each was a
/// third of its time.
class Numbers {
public:
    static constexpr size_t kCapacity = 12;
    Numbers() = default;
    Numbers(std::initializer_list<double> xs) {
        for (double x : xs) push_back(x);
    }
    Numbers(size_t n, double x) { resize(n, x); }
    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    double& operator[](size_t i) { return v_[i]; }
    const double& operator[](size_t i) const { return v_[i]; }
    double* begin() { return v_.data(); }
    double* end() { return v_.data() + n_; }
    const double* begin() const { return v_.data(); }
    const double* end() const { return v_.data() + n_; }
    const double* data() const { return v_.data(); }
    void clear() { n_ = 0; }
    void push_back(double x) {
        if (n_ == kCapacity) throw std::length_error("more than 12 numbers in one answer");
        v_[n_++] = x;
    }
    void resize(size_t n, double x = 0) {
        if (n > kCapacity) throw std::length_error("more than 12 numbers in one answer");
        for (size_t i = n_; i < n; ++i) v_[i] = x;
        n_ = n;
    }

private:
    std::array<double, kCapacity> v_{};
    size_t n_ = 0;
};

/// The input: every number of the family's keys, in order. Each is a
/// float or a double, as the run's precision says (a float is held exactly
/// in a double).
using Inputs = std::vector<double>;

/// The precision of the inputs and of the kernels judged: float (the
/// contracts' unit u = 2^-24) or double (u = 2^-53).
enum class Precision { single, double_ };

/// The precision being judged: generators, decoders, bands and case files
/// follow it. A thread's own (replay judges cases of both at once); the
/// workers run_workers starts take their caller's.
void set_precision(Precision p);
Precision precision();
/// u = 2^-24 or 2^-53, the unit of K and E.
double unit_roundoff();
/// u as reports write it: "2^-24" or "2^-53".
const char* unit_name();
/// The name a case file and a report give it: "float" or "double".
const char* precision_name(Precision p);
/// Whether x is representable in the precision (always for double; a
/// float beyond FLT_MAX is not).
bool representable(double x);
/// x rounded to the precision (to nearest float in a float run; itself in
/// a double run), as the precision's own arithmetic would give it.
double to_precision(double x);
/// The same in precision p (for a loop that asks the precision once).
inline double to_precision(double x, Precision p) { return p == Precision::single ? double(float(x)) : x; }
/// The next number of the precision after x, towards `toward`.
double next_in_precision(double x, double toward);
/// Whether x 2^k is finite, representable in the precision and scales back
/// to x (no underflow into the subnormals); zero and non-finite x always do.
bool scales_exactly(double x, int k);
/// The least normal number of the precision: 2^-126 or 2^-1022.
double least_normal();
/// The greatest finite number of the precision.
double greatest_finite();
/// How numbers are written (case files, reports; io/case_file.cpp): the
/// shortest decimal that reads back to x (inf, -inf, nan for those).
std::string format_float(float x);
/// The same for a double (17 digits where the shortest form rounds).
std::string format_double(double x);
/// x in the run's precision (format_float or format_double).
std::string format_number(double x);

/// Sets the precision for a scope and restores the previous one.
class PrecisionScope {
public:
    explicit PrecisionScope(Precision p) : saved_(precision()) { set_precision(p); }
    ~PrecisionScope() { set_precision(saved_); }
    PrecisionScope(const PrecisionScope&) = delete;
    PrecisionScope& operator=(const PrecisionScope&) = delete;

private:
    Precision saved_;
};

/// A generated input and the generator mix that made it.
struct Generated {
    std::string_view kind;  ///< a name the family owns (its Mix::kind, or a shared transform's)
    Inputs in;
    const struct Family* family = nullptr;  ///< who made it (for showing it)
    bool adapted = false;   ///< changed to meet a required precondition
};

/// One of a family's constructions: touching, tangent, coplanar, a sliver...
/// Draws every choice from the Source, choice 0 being the plainest.
struct Mix {
    std::string kind;
    int weight = 1;  ///< how often, relative to the others
    std::function<Inputs(Source&)> make;
};

/// What a group of input numbers is, geometrically (isect/ref/layout.hpp).
using Role = ref::Role;

/// One named group of input numbers, as a case file writes it ("box.lo" 3).
struct InputKey {
    std::string key;
    int count = 0;
    Role role = Role::point;
};

/// A family's keys from its layout (isect/ref/FAMILY.hpp), where they and
/// their offsets are declared once.
template <size_t N> std::vector<InputKey> inputs_of(const ref::Layout<N>& layout) {
    std::vector<InputKey> out;
    for (const ref::Key& k : layout.keys) out.push_back({std::string(k.name), k.count, k.role});
    return out;
}

/// What a kernel answers: which of the family's answers, and the numbers it
/// built (in the family's value order; only read when the family says the
/// answer carries them).
struct Answer {
    int answer = 0;
    Numbers values;
    /// Bit i set: the kernel did not compute values[i] (a plugin left that
    /// output untouched); it is not checked.
    uint64_t unprovided = 0;
    /// What a plugin's function returned, where the ABI codes the answer
    /// another way (aabb_plane returns -1, 0, 1); reports name this value.
    std::optional<int> returned = std::nullopt;
};

enum class FailureKind;

/// What a kernel did with one input of a batch: its answer, or the failure
/// that took its place (a crash, a hang: what KernelFailure says of a call).
struct Outcome {
    Answer answer;
    std::optional<FailureKind> failure;
    std::string why;  ///< the failure's message
};

/// A kernel that takes many inputs at once and computes them while its
/// caller does other work: a plugin's worker process.
struct BatchCalls {
    virtual ~BatchCalls() = default;
    /// The most inputs one submit takes.
    virtual size_t capacity() const = 0;
    /// Starts the kernel on n inputs (one after another, each of the
    /// family's size) and returns at once; `in` stays valid and unchanged
    /// until collect.
    virtual void submit(const double* in, size_t n) = 0;
    /// Waits for the last submit and writes its outcomes: returns how many,
    /// n or fewer when input i hung (out[i] says so; the inputs after it
    /// were not run, each timeout being dear). Never throws KernelFailure:
    /// a failure is an outcome.
    virtual size_t collect(Outcome* out) = 0;
};

/// A relation between calls (check/engine/run.hpp's Relation says what
/// each claims). Named in reports, class keys, case files and --relation
/// by relation_name(); parsed back only by relation_named().
enum class RelationKind { agree, symmetric, monotone, watertight, rotation };
/// "agree", "symmetric", "monotone", "watertight", "rotation".
const char* relation_name(RelationKind kind);
/// The kind a name names (agree too), or nullopt.
std::optional<RelationKind> relation_named(std::string_view name);

/// A kernel under test. The contract is about the answer; the numbers must
/// stay within error_e times each output's documented scale u S (u = 2^-24 or 2^-53).
struct FamilyKernel {
    std::string name;
    Contract contract;
    double error_e = 0;
    /// Takes the input as doubles; a float kernel's wrapper rounds nothing
    /// (in a float run every input is a float).
    std::function<Answer(const double*)> fn;
    Precision precision = Precision::single;
    /// A built-in kernel's declared magnitudes: its contract is claimed for
    /// inputs inside them, and inputs outside are not judged for it (as a
    /// plugin's isect_domain() declares its own). Empty: every finite number.
    std::optional<Domain> domain = std::nullopt;
    /// Optional: the kernel on many inputs at once, computed while the
    /// judge works on others (a plugin's worker process takes a chunk of a
    /// block per round trip this way). The engine calls it where it is
    /// set, fn elsewhere.
    std::shared_ptr<struct BatchCalls> batch = nullptr;
    /// The family's conventions it follows (Family::conventions): judged
    /// against the truth of a family declared with exactly these.
    std::vector<std::string> conventions = {};
    /// The relations between calls it claims besides its contract
    /// (claimable_relations()), judged wherever it is: a claim, like its
    /// contract.
    std::vector<RelationKind> relations = {};
    /// Where those relations are claimed, when narrower than its domain
    /// (Woop's test in double leaks where a sliver narrower than rounding
    /// sits against unit coordinates): inputs outside are not judged for
    /// them. Empty: its domain.
    std::optional<Domain> relations_domain = std::nullopt;
};

/// k, claiming the relations named (FamilyKernel::relations), in the
/// magnitudes `domain` names (LO:HI) or, without it, in k's domain.
inline FamilyKernel claiming(FamilyKernel k, std::vector<RelationKind> relations, const char* domain = nullptr) {
    k.relations = std::move(relations);
    if (domain) k.relations_domain = Domain::declared(domain);
    return k;
}

/// The relations between calls a kernel can claim or be judged for
/// (--relation, FamilyKernel::relations, a case file's `relation` line):
/// symmetric, monotone, watertight, rotation (check/engine/run.hpp's
/// Relation); `agree` is isect diff's.
const std::vector<RelationKind>& claimable_relations();
/// Why family f cannot be judged for the relation: f has no two arguments
/// of one kind, no tmax, no shared edges, no polygon. Empty when it can.
std::string relation_unsupported(const Family& f, RelationKind kind);

/// What went wrong in a violation, as a kind (the rest of a failure class
/// says which answer, output or test).
enum class FailureKind {
    false_hit,     ///< a yes/no family: answered yes, exact is no
    false_miss,    ///< answered no, exact is yes
    wrong_answer,  ///< another answer of a family with more than two
    output,        ///< a number off its error bound
    non_finite,    ///< a non-finite number where the exact one is finite
    cuts,          ///< a construction that cuts what it must contain
    crash,         ///< the kernel crashed (a plugin's worker died)
    hang,          ///< no answer within the timeout
    garbage,       ///< an answer that is none of the family's
    relation,      ///< calls that break a relation between them (run.hpp's Relation)
};
/// "false hit", "crash", ... (the kind's own name).
const char* failure_kind_name(FailureKind k);
/// The kind failure_kind_name names; nullopt for another name.
std::optional<FailureKind> failure_kind_named(const std::string& name);

/// Thrown by a kernel that could not answer: a plugin that crashed, hung
/// or replied with garbage. The engine judges it as a broken contract of
/// that kind, with this message as the reason.
struct KernelFailure : std::runtime_error {
    KernelFailure(FailureKind k, const std::string& why) : std::runtime_error(why), kind(k) {}
    FailureKind kind;
};

/// The exact answer, from both references, which agreed. values are the
/// exact numbers rounded to double, when the answer carries them.
struct Truth {
    int answer = 0;
    Numbers values;
    /// From the fast oracle: lo[i] <= exact value i <= hi[i], and values is
    /// one of the two ends (judge evaluates both). Empty when the truth
    /// comes from the references.
    Numbers lo, hi;
};

/// How far a kernel's numbers are from the exact ones: the smallest E that
/// covers every output (+inf for a broken promise such as containment), and
/// which output needed it.
struct ValueError {
    double e = 0;
    std::string_view output;  ///< a name the family owns (Family::outputs, or a literal)
    std::string detail;
    /// A construction that must contain something (a transformed box) and
    /// cuts it: the smallest K whose band explains the cut (the exact image
    /// of some input within delta = K u M reaches that far), and which
    /// output cuts. 0 when nothing is cut. Allowed under tolerant=K' for
    /// K <= K', never under exact or conservative.
    double cut_k = 0;
    std::string_view cut_output;
    /// Set when the numbers were judged against an enclosure (Truth::lo,
    /// hi) that cannot decide them: the references must.
    bool undecided = false;
};

/// What the fast exact oracle knows of an input: the exact answer, and for
/// each number an enclosure [lo, hi] of its exact value (empty vectors when
/// the answer carries none).
struct FastTruth {
    int answer = 0;
    Numbers lo, hi;
};

struct Family {
    std::string name;
    std::vector<InputKey> inputs;
    std::vector<std::string> answers;        ///< answer names, as expect writes them
    std::vector<bool> answer_has_values;     ///< per answer: are the numbers defined
    std::vector<std::string> outputs;        ///< names of the numeric outputs (a Truth or Answer holds their values, in this order)
    int safe_answer = 1;                     ///< what a conservative kernel may answer instead (hit, straddle)
    std::string references;                  ///< the two references, for reports

    /// Whether the input is in the domain the references decide; where it
    /// is not and `why` is given, *why says why, naming the key ("box.hi: 1
    /// is below box.lo 2 on axis x"). The engine asks it of every case
    /// several times (generating, fitting the declared domain, judging): a
    /// reason is built only when asked for.
    std::function<bool(const double* in, std::string* why)> in_domain;
    /// Why an input is outside the domain (in_domain's reason); empty when
    /// it is inside.
    std::string outside_domain(const double* in) const {
        std::string why;
        if (!in_domain(in, &why) && why.empty()) why = "outside the domain of " + name;
        return why;
    }
    /// Both references; throws ReferenceMismatch when they disagree.
    std::function<Truth(const double*)> truth;
    /// The first of them alone (the fast body on exact numbers), where it
    /// costs a fraction of both: the engine takes it, checked against the
    /// fast oracle, for a later member of a failure class that both
    /// confirmed (CaseJudge::finish_on_first_reference). Optional.
    std::function<Truth(const double*)> first_reference;
    /// The keys whose positions set M, the scale of every position's delta
    /// (position_magnitude): those the answer depends on. Empty: every
    /// position (polygon_measures' convexity does not depend on its query
    /// point, which may be far larger than the polygon).
    std::vector<std::string> answer_keys;
    /// The band of tolerant=K: whether moving each input number i by at most
    /// delta[i] (band_deltas: K u times the scale of its role) could make an
    /// answer other than the exact one exact. May say yes too often (a wider
    /// band), never too rarely. Written once, over a number policy (reference/fast/), and
    /// instantiated as `exact` (rationals), `fast` (intervals then Mpzf,
    /// where it answers the same) and `wrong` (plain double, a planted
    /// wrong band the band property must catch; optional).
    struct Band {
        std::function<bool(const double* in, int exact_answer, const double* delta)> exact;
        std::function<std::optional<bool>(const double* in, int exact_answer, const double* delta)> fast;
        std::function<bool(const double* in, int exact_answer, const double* delta)> wrong;
        /// Where a first-order band looks (isect/ref/fast.hpp): moves the
        /// witnessed-K search tries first. Optional.
        std::function<ref::fast::Directions(const double* in, int exact_answer, const double* delta)> directions;
    };
    Band band;
    /// Error of a kernel's numbers, called when its answer is the exact one
    /// and that answer carries values.
    std::function<ValueError(const double*, const Truth&, const Answer&)> value_error;

    /// The fast exact oracle: the exact answer from filtered arithmetic, or
    /// nullopt where it cannot decide. Optional (empty: the references
    /// decide every case).
    std::function<std::optional<FastTruth>(const double*)> fast_truth;
    /// Where a fast truth differs from the rational reference, decided
    /// exactly: another answer, or a number outside its enclosure. Empty
    /// when they agree. For the property that the fast oracle is exact.
    std::function<std::string(const double*, const FastTruth&)> oracle_check;
    /// A planted wrong oracle (signs decided in plain double) that
    /// oracle_check must catch: the property can fail.
    std::function<FastTruth(const double*)> wrong_oracle;

    /// The input's smallest nonzero feature, for the validity map: a leg, a
    /// direction component, a gap. Optional (default: the smallest nonzero
    /// input magnitude); 0 when there is none.
    std::function<double(const double*)> feature;
    /// Whether an answer other than the exact one is right as well: a point
    /// on the boundary of two Voronoi regions has both (point_triangle).
    /// Decided exactly; optional (empty: only the exact answer is right).
    std::function<bool(const double* in, int answer)> also_right;
    /// The test that decided the exact answer, for failure classes ("edge
    /// x*f1", "u < 0"); optional.
    std::function<std::string(const double*, const Truth&, int answer)> deciding;

    /// The CGAL reference alone, for the benchmarks' ratios; returns
    /// something of its result so that the call is not optimised away.
    std::function<double(const double*)> cgal;

    /// Calls a plugin's function for the family (isect/plugin.h): its C
    /// signature, written once in the family's file with the keys by name,
    /// for float (isect_FAMILY) and double (isect_FAMILY_d). What it
    /// returns and writes becomes an Answer by plugin_answer
    /// (check/model/plugin_call.hpp), as a batch's columns do.
    Answer (*plugin_call_f)(const Family& f, void* fn, const float* in) = nullptr;
    Answer (*plugin_call_d)(const Family& f, void* fn, const double* in) = nullptr;
    /// What the plugin's function returns for each answer, where that is
    /// not the answer's index (aabb_plane returns -1, 0, 1 for back,
    /// straddle, front); a family of one answer ignores what it returns.
    std::vector<int> plugin_returns;
    /// The plugin function's arguments after its inputs, in C, over an
    /// array `out` of the family's outputs (and the int of
    /// plugin_int_output, named as that output): "&out[0], &out[1], out +
    /// 2". What a reproducer writes to call a plugin's function (isect
    /// report); the inputs come first, one argument per key, in the
    /// layout's order.
    std::string plugin_out_args;
    /// The output the plugin function writes as an int of its own (-1 when
    /// it writes none) rather than into `out`: sphere_aabb's `contains`.
    std::optional<size_t> plugin_int_output;

    /// Built-in kernels, as core/ declares them, and planted bugs
    /// ("broken:NAME"), of either precision and every convention: kernels()
    /// and broken() give those of the run's precision that follow this
    /// family's conventions (`followed`: none, unless declared), the ones
    /// its truth judges.
    std::function<std::vector<FamilyKernel>()> all_kernels;
    std::function<std::vector<FamilyKernel>()> all_broken;
    std::vector<FamilyKernel> kernels() const { return judged_here(all_kernels()); }
    std::vector<FamilyKernel> broken() const { return judged_here(all_broken()); }
    /// The family's own constructions; family_gen.hpp adds the shared
    /// transforms (magnitude, subnormal, ulp, signed zeros) of any of them.
    std::vector<Mix> mixes;
    /// Constructions from a user's mesh (--mesh: its triangles, its shared
    /// edges and vertices, its voxels), added to `mixes` for a run that
    /// has one; empty for a family that takes no triangle.
    std::function<std::vector<Mix>(const std::shared_ptr<const struct Mesh>&)> mesh_mixes;
    /// What a kernel may declare it needs (--require NAME): a nonzero
    /// direction, a proper triangle... (preconditions.hpp).
    std::vector<Precondition> preconditions;

    /// A convention a kernel of the family may follow (--convention NAME):
    /// another truth for the same input, that both references implement
    /// (ray_sphere's `surface`: the sphere's first crossing, not the ball's;
    /// ray_triangle's `cull_back`).
    struct Convention {
        std::string name;  ///< as --convention takes it
        std::string says;  ///< for isect kernels and reports
    };
    std::vector<Convention> conventions;
    /// Makes this family (a copy: declared_family's) what a run declares:
    /// the conventions it follows (each one of `conventions`) and the
    /// preconditions it requires (each one of `preconditions`). Replaces
    /// truth, the fast oracle, the band, the value error... as they need;
    /// optional (the generic part, the preconditions' slack, is
    /// declared_family's).
    std::function<void(Family&, const std::vector<std::string>& required, const std::vector<std::string>& conventions)>
        declare;
    /// In a declared family: the conventions it follows, and each input
    /// number's slack in units of u (Precondition::slack; empty: none).
    std::vector<std::string> followed;
    std::vector<double> slack;
    /// Whether the truth depends on a winding (ray_triangle under
    /// cull_back): a mirror, an odd permutation of the axes and a reversal
    /// of the vertices each turn a front face into a back one.
    bool handed = false;
    /// For --relation watertight (check/engine/run.hpp's Relation): a case's
    /// neighbourhoods, each a group of the family's inputs for the same
    /// query against the triangles that close the case's triangle around
    /// one of its edges (the triangle across it) or one of its vertices (the
    /// fan of three more), wound alike; which group's edge interior or
    /// vertex the query passes exactly through, if any (at most one: decided
    /// exactly, on the case alone); whether it crosses every plane of that
    /// group the same way as the case's; and a name for each group ("edge
    /// ab", "vertex a"). Empty for a family without shared edges. In a
    /// run with a mesh, also which of the mesh's triangles the case's is
    /// (its index in Mesh::triangles; nullopt for any other case), so that
    /// a witness found on the mesh is minimised without leaving it, and
    /// where it is in the file.
    struct SharedEdges {
        std::function<std::vector<std::vector<Inputs>>(const double* in)> neighbours;
        std::function<std::optional<size_t>(const double* in)> crossing;
        std::function<bool(const double* in, const std::vector<Inputs>& group)> crosses_alike;
        std::vector<std::string> names;
        std::function<std::optional<uint32_t>(const double* in)> mesh_triangle;
        /// Where such a case is in the mesh's file: its triangle and those
        /// around the edge or vertex it passes through, by the file's own
        /// face and vertex numbers (Mesh::name_in_file).
        std::function<std::string(const double* in)> mesh_place;
    };
    SharedEdges shared_edges;
    /// The same from a user's mesh (--mesh): a case whose triangle is one of
    /// the mesh's gets the mesh's own neighbours (the triangle across each
    /// shared edge, the closed fan around each inner vertex), any other
    /// case the family's. Optional.
    std::function<SharedEdges(const SharedEdges& own, const std::shared_ptr<const struct Mesh>&)> mesh_shared_edges;
    /// Two arguments of one kind, in either order: the first `exchangeable`
    /// inputs and the next as many (aabb_aabb's a and b, triangle_triangle's
    /// t1 and t2). The answer and every band must not depend on their order
    /// (properties/family_props.cpp checks it); 0 for a family with none.
    size_t exchangeable = 0;

    /// Whether the answer is yes or no (answers[1] the yes: hit, overlap),
    /// so that a differing answer is a false hit or a false miss.
    bool yes_no() const { return answers.size() == 2 && answer_has_values.size() == 2; }

    size_t size() const {
        size_t n = 0;
        for (const InputKey& k : inputs) n += size_t(k.count);
        return n;
    }
    /// The offset of a key's first float; throws std::out_of_range.
    size_t offset(std::string_view key) const {
        size_t n = 0;
        for (const InputKey& k : inputs) {
            if (k.key == key) return n;
            n += size_t(k.count);
        }
        throw std::out_of_range("family " + name + " has no key " + std::string(key));
    }
    /// The index of an answer's name; -1 when unknown.
    int answer_index(const std::string& a) const {
        for (size_t i = 0; i < answers.size(); ++i)
            if (answers[i] == a) return int(i);
        return -1;
    }
    /// A built-in kernel or broken:NAME of kernels() or broken().
    std::optional<FamilyKernel> find_kernel(const std::string& name) const;
    /// The same among the run's precision's kernels of every convention
    /// (what a name asks for before the family is declared).
    std::optional<FamilyKernel> find_any_kernel(const std::string& name) const;
    /// Whether a kernel follows exactly this family's conventions.
    bool follows(const FamilyKernel& k) const;

private:
    std::vector<FamilyKernel> judged_here(std::vector<FamilyKernel> all) const {
        std::vector<FamilyKernel> out;
        for (FamilyKernel& k : all)
            if (k.precision == precision() && follows(k)) out.push_back(std::move(k));
        return out;
    }
};

/// The families, one function each, defined in check/families/FAMILY.cpp
/// and listed once, in families.def.
#define ISECT_FAMILY(name) const Family& name##_family();
#include "check/model/families.def"
#undef ISECT_FAMILY
/// A planted bug for the watertightness property: strict edge tests, so a
/// ray through a shared edge misses both triangles. Inside the band of
/// tolerant=1, so the contract check cannot see it; the property does.
FamilyKernel ray_triangle_strict_edges_kernel();

/// Every family, in report order (aabb_triangle first).
const std::vector<const Family*>& families();
/// A family by name; nullptr when none.
const Family* find_family(const std::string& name);
/// The family as a run declares it (Domain::required, Domain::conventions,
/// those it has): itself when nothing it has is declared, else a copy made
/// once (and kept: the reference stays valid) with each required
/// precondition's slack and the family's own declare() applied. Every
/// command judges through it.
const Family& declared_family(const Family& base, const Domain& declared);
/// The names among `wanted` that are conventions of f.
std::vector<std::string> conventions_of(const Family& f, const std::vector<std::string>& wanted);
/// Every convention name some family has, sorted.
std::vector<std::string> known_conventions();
/// Parses --convention's comma-separated names into out; false with why for
/// a name no family has (listing the known ones). "none" names none (it
/// overrides what a plugin declares).
bool parse_conventions(const std::string& text, std::vector<std::string>& out, std::string& why);

/// The largest magnitude among the inputs; NaN and inf ignored.
double largest_magnitude(const Inputs& in);
/// The same for n numbers at in.
double largest_magnitude(const double* in, size_t n);

/// The largest finite magnitude among the numbers a domain bounds: every
/// key's but a parameter's (tmax, whose FLT_MAX means "unbounded" and says
/// nothing of the geometry's scale). What scale buckets and the validity
/// map bin by.
double input_magnitude(const Family& f, const double* in);

/// M in the contracts: the largest finite magnitude among the numbers of
/// f's keys that move with the positions (ref::moves_with_positions:
/// points, boxes, lengths, displacements) and that the answer depends on
/// (Family::answer_keys); where those are all zero, the
/// largest of the other numbers a 2^k scale moves (an offset, a direction),
/// and 1 where those are zero too (every exact answer is then the same for
/// the input scaled by any 2^k, so every delta > 0 gives the same band).
double position_magnitude(const Family& f, const double* in);

/// How far the band of tolerant=K moves each input number (ku = K u), the
/// one rule by role (isect/ref/layout.hpp): numbers of keys that move with
/// the positions by ku M (position_magnitude); a direction, a normal, a
/// plane's offset or a matrix by ku times its own largest magnitude (per
/// row of three for a key of nine: an oriented box's axes, a matrix); a
/// parameter (tmax) by ku |tmax|. Non-finite numbers move by 0 (a band
/// reads tmax = inf as unbounded); every delta is at most DBL_MAX. out has
/// f.size() numbers. Why each role moves so: docs/contracts.md.
void band_deltas(const Family& f, const double* in, double ku, double* out);

/// The offsets of each box's lo and hi corners (keys NAME.lo and NAME.hi;
/// a box_lo key named otherwise, as a toy family's, is no box here).
std::vector<std::pair<size_t, size_t>> box_corners(const Family& f);
/// Whether output i is a lower corner's coordinate (an output named
/// NAME.lo or NAME.lo.x, by the same rule): a box that must contain the
/// exact one may not raise it.
bool lower_corner_output(const Family& f, size_t i);
}  // namespace isect::check
