// A family as the checker sees it: the input as named groups of floats, the
// answer (one of a few names) and the numbers a kernel builds, the exact
// truth from two references, the tolerance band, the error bound of the
// numbers, the constructions that generate inputs, and the kernels.
//
// One engine (family.cpp) runs every family: generated cases, judgement
// under the contracts, simplification of counterexamples, case files. Each
// family lives in check/FAMILY.cpp and describes itself in one Family value.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "isect/check/contract.hpp"
#include "isect/check/domain.hpp"
#include "isect/check/preconditions.hpp"
#include "isect/check/source.hpp"

namespace isect::check {

/// A family's numbers (its outputs: at most 8) without the heap: the
/// engine handles a million answers a second, and a vector for each was a
/// third of its time.
class Numbers {
public:
    static constexpr size_t kCapacity = 8;
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
        if (n_ == kCapacity) throw std::length_error("more than 8 numbers in one answer");
        v_[n_++] = x;
    }
    void resize(size_t n, double x = 0) {
        if (n > kCapacity) throw std::length_error("more than 8 numbers in one answer");
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

/// The precision being judged, process-wide like the oracle: generators,
/// decoders, bands and case files follow it.
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
/// The next number of the precision after x, towards `toward`.
double next_in_precision(double x, double toward);
/// Whether x 2^k is finite, representable in the precision and scales back
/// to x (no underflow into the subnormals); zero and non-finite x always do.
bool scales_exactly(double x, int k);
/// The least normal number of the precision: 2^-126 or 2^-1022.
double least_normal();
/// The greatest finite number of the precision.
double greatest_finite();
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

/// What a group of input numbers is, geometrically: how it moves when the
/// whole input is mirrored, its axes permuted, scaled by 2^k or translated.
enum class Role {
    point,      ///< points (x y z, repeated): every transform
    polygon,    ///< points in order (a triangle, a polygon): also vertex rotation and reversal
    box_lo,     ///< a box's low corner; mirroring swaps it with the key NAME.hi
    box_hi,
    vector,     ///< a direction or displacement: permuted, mirrored, scaled, never translated
    normal,     ///< a plane's normal: permuted and mirrored only
    offset,     ///< a plane's offset: scaled only (a family with one is not translated)
    length,     ///< a radius: scaled only
    parameter,  ///< a ray's tmax: never changes
    matrix,     ///< a 3x3 linear map, row-major: P m P^T, S m S (a family with one is not translated)
};

/// One named group of input numbers, as a case file writes it ("box.lo" 3).
struct InputKey {
    std::string key;
    int count = 0;
    Role role = Role::point;
};

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

/// A kernel under test. The contract is about the answer; the numbers must
/// stay within error_e times each output's documented scale 2^-24 S.
struct FamilyKernel {
    std::string name;
    Contract contract;
    double error_e = 0;
    /// Takes the input as doubles; a float kernel's wrapper rounds nothing
    /// (in a float run every input is a float).
    std::function<Answer(const double*)> fn;
    Precision precision = Precision::single;
};

/// Thrown by a kernel that could not answer: a plugin that crashed, hung
/// or replied with garbage. The engine judges it as a broken contract, with
/// this message as the reason.
struct KernelFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
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
    std::string_view output;  ///< a name the family owns (Family::values, or a literal)
    std::string detail;
    /// A construction that must contain something (a transformed box) and
    /// cuts it: the smallest K whose band explains the cut (the exact image
    /// of some input within delta = K 2^-24 M reaches that far), and which
    /// output cuts. 0 when nothing is cut. Allowed under tolerant=K' for
    /// K <= K', never under exact or conservative.
    double cut_k = 0;
    std::string_view cut_output;
    /// Set when the numbers were judged against an enclosure (Truth::lo,
    /// hi) that cannot decide them: the references must.
    bool undecided = false;
};

/// A three-valued verdict from a fast test: certainly no, certainly yes, or
/// not decided (the exact path decides).
enum class Tri { no, yes, unknown };

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
    std::vector<std::string> values;         ///< names of the numeric outputs
    int safe_answer = 1;                     ///< what a conservative kernel may answer instead (hit, straddle)
    std::string references;                  ///< the two references, for reports

    /// Empty when the input is in the domain the references decide; else
    /// why, naming the key ("box.hi: 1 is below box.lo 2 on axis x").
    std::function<std::string(const double*)> domain;
    /// Both references; throws ReferenceMismatch when they disagree.
    std::function<Truth(const double*)> truth;
    /// Whether moving every input by at most delta = K 2^-24 M (M the
    /// largest input magnitude) could make `answer` the exact one. May say
    /// yes too often (a wider band), never too rarely. False for K = 0 unless
    /// the input itself decides nothing.
    std::function<bool(const double*, const Truth&, int answer, double k)> in_band;
    /// Error of a kernel's numbers, called when its answer is the exact one
    /// and that answer carries values.
    std::function<ValueError(const double*, const Truth&, const Answer&)> value_error;

    /// The fast exact oracle: the exact answer from filtered arithmetic, or
    /// nullopt where it cannot decide. Optional (empty: the references
    /// decide every case).
    std::function<std::optional<FastTruth>(const double*)> fast_truth;
    /// in_band decided fast: yes or no only where that is certain.
    std::function<Tri(const double*, const FastTruth&, int answer, double k)> fast_in_band;
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
    /// The test that decided the exact answer, for failure classes ("edge
    /// x*f1", "u < 0"); optional.
    std::function<std::string(const double*, const Truth&, int answer)> deciding;

    /// The CGAL reference alone, for the benchmarks' ratios; returns
    /// something of its result so that the call is not optimised away.
    std::function<double(const double*)> cgal;

    /// Built-in kernels, as core/ declares them, and planted bugs
    /// ("broken:NAME"), of either precision: kernels() and broken() give
    /// those of the run's.
    std::function<std::vector<FamilyKernel>()> all_kernels;
    std::function<std::vector<FamilyKernel>()> all_broken;
    std::vector<FamilyKernel> kernels() const { return of_run_precision(all_kernels()); }
    std::vector<FamilyKernel> broken() const { return of_run_precision(all_broken()); }
    /// The family's own constructions; family_gen.hpp adds the shared
    /// transforms (magnitude, subnormal, ulp, signed zeros) of any of them.
    std::vector<Mix> mixes;
    /// What a kernel may declare it needs (--require NAME): a nonzero
    /// direction, a proper triangle... (preconditions.hpp).
    std::vector<Precondition> preconditions;

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
    std::optional<FamilyKernel> find_kernel(const std::string& name) const;  ///< built-in or broken:NAME

private:
    static std::vector<FamilyKernel> of_run_precision(std::vector<FamilyKernel> all) {
        std::vector<FamilyKernel> out;
        for (FamilyKernel& k : all)
            if (k.precision == precision()) out.push_back(std::move(k));
        return out;
    }
};

/// The families, one function each, defined in check/FAMILY.cpp.
const Family& aabb_triangle_family();
const Family& ray_triangle_family();
/// A planted bug for the watertightness property: strict edge tests, so a
/// ray through a shared edge misses both triangles. Inside the band of
/// tolerant=1, so the contract check cannot see it; the property does.
FamilyKernel ray_triangle_strict_edges_kernel();
const Family& ray_aabb_family();
const Family& segment_aabb_family();
const Family& aabb_aabb_family();
const Family& aabb_plane_family();
const Family& aabb_plane_overlap_family();
const Family& sphere_aabb_family();
const Family& moving_aabb_family();
const Family& moving_aabb_plane_family();
const Family& transformed_aabb_family();
const Family& triangle_measures_family();
const Family& polygon_measures_family();

/// Every family, in report order (aabb_triangle first).
const std::vector<const Family*>& families();
/// A family by name; nullptr when none.
const Family* find_family(const std::string& name);

/// The largest magnitude among the inputs (M in the contracts); NaN ignored.
double largest_magnitude(const Inputs& in);

/// M as the bands take it: the largest magnitude, or 1 for an input of
/// zeros only. Every exact answer is the same for the input scaled by any
/// 2^k, so for all-zero input every delta > 0 gives the same band; taking
/// M = 1 treats two point boxes touching at the origin as touching is
/// treated at every other scale, in float and in double alike (with M = 0
/// the band was empty and touching "needed" K = inf).
double band_magnitude(const Inputs& in);

/// delta = K u M for an input (M from band_magnitude).
double band_delta(const Inputs& in, double k);

/// The smallest K whose band explains `answer` (bisection over in_band,
/// 2^-40 to 2^40): 0 when the input decides nothing, +inf when no K does.
double measured_k(const Family& f, const Inputs& in, const Truth& truth, int answer);

/// A kernel's result on one input, judged.
struct FamilyJudgement {
    Answer got;
    bool answer_differs = false;
    bool in_band = false;   ///< the differing answer is within the declared (or K=1) band
    ValueError error;       ///< when the answers agree and carry values
    bool cuts = false;      ///< a construction cuts what it must contain (error.cut_k says how far)
    bool violates = false;
    std::string why;        ///< one line when violates
};

FamilyJudgement judge(const Family& f, const FamilyKernel& k, const Inputs& in, const Truth& truth);

/// The judgement against the fast oracle, where it is certain: the answer
/// compared, the band decided fast or (where the intervals cannot) by the
/// rational band, and the numbers judged at both ends of their enclosures.
/// nullopt where only the references can decide: the numbers undecided, or
/// a violation (every violation is judged against the references before it
/// counts). A kernel that crashed, hung or answered garbage is decided.
std::optional<FamilyJudgement> judge_fast(const Family& f, const FamilyKernel& k, const Inputs& in, const FastTruth& fast);

/// How the truth is reached: the fast oracles first (the default), or the
/// references alone (isect check --oracle slow, to measure what the fast
/// path buys). Process-wide; the verdicts are the same either way.
enum class Oracle { fast, slow };
void set_oracle(Oracle o);
Oracle oracle();

/// Whether answering `answer` is inside the band of K where the exact answer
/// is exact_answer: the fast band where it decides, the rational one where
/// it does not (the same verdict either way).
bool band(const Family& f, const double* in, int exact_answer, int answer, double k);

/// The scale bucket of an input, from its largest magnitude M and its
/// smallest nonzero magnitude m: "mixed scales" when M / m > 2^40, else
/// "tiny" when m < 2^-20, "huge" when M > 2^20, else "ordinary". Coarse on
/// purpose: a bug is one class at a scale; the validity map has the detail.
std::string scale_bucket(const Inputs& in);

/// The failure class of a violation, as "kernel|contract|what|decided|scale":
/// what went wrong (false hit, false miss, "answers X, exact Y", "output
/// NAME", "non-finite NAME", "cuts NAME", crash, hang, garbage; NAME without
/// its axis), the family's deciding test where it has one (axis-free too),
/// and the scale bucket. Violations of one class are one bug, as far as
/// isect can tell.
std::string violation_class(const Family& f, const FamilyKernel& k, const Inputs& in, const Truth& truth,
                            const FamilyJudgement& j);

// --- The check engine --------------------------------------------------------

struct FamilyCheckOptions {
    Oracle oracle = Oracle::fast;  ///< fast oracles first, or the references alone
    double seconds = 10;
    uint64_t max_cases = 0;   ///< stop after this many; 0: by seconds
    uint64_t seed = 0;
    std::string gen_kind;     ///< one mix only; empty: all
    Domain domain;            ///< the magnitudes generated and judged
    bool progress = false;
    bool minimize = true;     ///< minimise each failure class's witness
    size_t minimize_classes = 8;  ///< the largest classes minimised; the rest keep their witness as found
    bool stop_at_first = false;
    bool stop_at_hang = false;  ///< a kernel that hung once costs the timeout on every case after
    /// Called when kernel i's violation opens a new failure class, with the
    /// class and its first member: its witness can be kept at once, so that
    /// a run killed later loses nothing found (then replaced by the
    /// minimised one).
    std::function<void(size_t kernel, const struct FailureClass&)> on_new_class;
};

/// The violations of one kernel that share a failure class
/// (violation_class): as far as isect can tell, one bug.
struct FailureClass {
    std::string signature;
    uint64_t count = 0;
    double measured_k = 0;   ///< widest band among its wrong answers (0 when none)
    Inputs witness;          ///< its most ordinary member (magnitudes nearest 1, fewest bits), minimised
    std::string why;         ///< the judgement of the witness, one line
    bool minimised = false;
    uint64_t first_case = 0; ///< 1-based case number of its first member
};

/// One cell of a validity map: the cases whose largest magnitude M and
/// smallest nonzero feature (Family::feature) fall in a band of 10 binades
/// each (log2 M in [m_bin, m_bin + 10)).
struct MapCell {
    uint64_t cases = 0, wrong_answers = 0, violations = 0;
    double measured_k = 0;  ///< widest band of a wrong answer in the cell
};
/// Cells by (floor(log2 M / 10) * 10, floor(log2 feature / 10) * 10); an
/// all-zero input or feature is at -10000 (below the bins of every double).
using ValidityMap = std::map<std::pair<int, int>, MapCell>;

struct FamilyKernelReport {
    std::string name;
    Contract contract;
    double error_e = 0;
    uint64_t tried = 0;
    uint64_t wrong_answers = 0;
    uint64_t false_hits = 0;    ///< yes/no families: answered yes, exact is no
    uint64_t false_misses = 0;  ///< answered no, exact is yes
    uint64_t in_band = 0;
    uint64_t violations = 0;
    double measured_k = 0;   ///< smallest K covering every differing answer
    double measured_e = 0;   ///< largest error of the numbers, in units of 2^-24 S
    std::vector<FailureClass> classes;  ///< largest first
    ValidityMap map;
    bool stopped_at_hang = false;
    std::optional<Inputs> hang_input;  ///< the input it hung on, when stopped there
    bool holds() const { return violations == 0; }
};

struct FamilyCheckReport {
    std::string family;
    uint64_t cases = 0;
    double seconds = 0;
    std::map<std::string, uint64_t> mix;
    uint64_t reference_mismatches = 0;  ///< the two references disagreed, or the fast oracle with them
    std::optional<Inputs> mismatch;
    std::string mismatch_message;
    std::vector<FamilyKernelReport> kernels;
    // How the truth was reached:
    Oracle oracle = Oracle::fast;
    uint64_t fast_cases = 0;       ///< cases whose answer the fast oracle decided
    uint64_t sampled = 0;          ///< of those, the references checked too (1 in 256)
    uint64_t reference_cases = 0;  ///< cases the references judged (undecided, sampled, or a kernel's numbers or violation)
    bool interrupted = false;      ///< a signal stopped it (interrupt.hpp)
    uint64_t adapted = 0;          ///< generated cases changed to meet a required precondition
    bool holds() const;
};

FamilyCheckReport run_family_check(const Family& f, const std::vector<FamilyKernel>& kernels,
                                   const FamilyCheckOptions& options);

/// An empty report for kernel k: its name, contract and E.
FamilyKernelReport kernel_report_for(const FamilyKernel& k);

/// Counts one judged case into r, the way run_family_check counts every
/// generated case (replay and fuzz count theirs the same way): tried, wrong
/// answers, in band, K and E, the validity map, and a violation's failure
/// class (the case becomes its witness when it is the class's first or most
/// ordinary member). case_number is 1-based. Returns the violation's class,
/// or null when j keeps the contract.
const FailureClass* tally_judgement(const Family& f, const FamilyKernel& k, FamilyKernelReport& r, const Inputs& in,
                     const Truth& truth, const FamilyJudgement& j, uint64_t case_number);

/// Largest failure class first.
void sort_classes(FamilyKernelReport& r);

/// A transform of a whole input that keeps the exact answer: an axis
/// permutation (0..5), a mirror mask (bit i negates axis i), a scale 2^k, a
/// translation, and for polygon keys a rotation of the vertices and a
/// reversal of their order.
struct Symmetry {
    int perm = 0;
    int mirror = 0;
    int scale = 0;
    std::array<double, 3> translate = {0, 0, 0};
    int rotate = 0;
    bool reverse = false;
};

/// The input moved by s; nullopt when some value would round (a scaling
/// into the subnormals, an inexact translation) or s translates a family
/// that cannot be (a plane offset, a matrix).
std::optional<Inputs> transformed(const Family& f, const Inputs& in, const Symmetry& s);

/// The feature the validity map bins an input by (Family::feature, or the
/// smallest nonzero magnitude).
double input_feature(const Family& f, const Inputs& in);

/// How ordinary an input looks: lower for magnitudes nearer 1, fewer
/// mantissa bits, fewer signs. Witnesses are the least complex.
int complexity(const Inputs& in);

/// The first of f's degeneracies the input has, as its precondition says
/// it ("dir != 0", "tri has nonzero area"), or null when it has none.
const Precondition* degeneracy(const Family& f, const double* in);

/// Whether a is the better witness than b: not degenerate where b is,
/// else less complex. A bug shown on a proper triangle, a box with extent
/// and a nonzero direction tells its author more than one shown on zeros.
bool better_witness(const Family& f, const Inputs& a, const Inputs& b);

/// The trials a witness may be minimised into: inside f's own domain and
/// the declared one (magnitudes and preconditions), and not degenerate when
/// `start` is not.
std::function<bool(const Inputs&)> witness_space(const Family& f, const Domain& domain, const Inputs& start);

/// Greedy simplification of a flat input keeping still_fails true (the
/// minimiser of every family): zeroes, small integers, fewer mantissa bits,
/// shared values, whole-input power-of-two scaling. Candidates stay in the
/// domain `ok`.
Inputs simplify_floats(Inputs in, const std::function<bool(const Inputs&)>& ok,
                       const std::function<bool(const Inputs&)>& still_fails);

// --- Case files -------------------------------------------------------------

/// A case of a generic family: the input, the expected exact answer and,
/// when it carries them, the exact numbers rounded to double.
struct FamilyCase {
    std::string path;
    std::string origin;
    const Family* family = nullptr;
    Precision precision = Precision::single;  ///< `precision double` in the file
    Inputs in;
    int expect = 0;
    std::map<std::string, double> expect_values;     ///< expect.NAME lines
    std::map<std::string, double> expect_tolerance;  ///< expect.NAME X +- TOL: |exact - X| <= TOL
    /// Decimals in the file that are not floats and were rounded to one
    /// ("0.1"); errors instead when read strictly.
    std::vector<std::string> warnings;
};

/// The text of a case: origin comment, family, keys, expect and the values.
std::string format_family_case(const Family& f, const Inputs& in, const Truth& truth, const std::string& origin);
/// The same with the truth from the references; when they disagree the
/// origin says so and expect holds the family's first answer (replay then
/// reports the disagreement).
std::string format_family_case(const Family& f, const Inputs& in, const std::string& origin);

/// Where the exact truth does not reproduce a case's expect and
/// expect.NAME lines; empty when it does.
std::vector<std::string> expectation_problems(const FamilyCase& c, const Truth& truth);

/// Where a fast oracle's truth disagrees with the references': a different
/// answer, or a number of theirs outside its enclosure (by more than the one
/// ulp their double carries). Empty when they agree.
std::string oracle_disagreement(const Family& f, const FastTruth& fast, const Truth& truth);

/// Shows an input the way RapidCheck prints counterexamples: as a case.
std::string show_family_input(const Family& f, const Inputs& in);

}  // namespace isect::check
