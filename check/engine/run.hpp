// The check run: a family's case stream (case_stream.hpp) judged by one or
// more workers, each counting into a report of its own (wrong answers,
// bands, errors, the validity map, violations grouped into failure
// classes); the workers' reports merged, and each class's witness
// minimised. Every count of a report is a sum or an extreme over its cases
// and every class keeps the best witness its cases offer (ties to the
// earlier case), so merge_reports gives the same report however the cases
// were split: among workers (--jobs) or among machines (--shard, isect
// merge).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "check/engine/case_stream.hpp"
#include "check/engine/judge.hpp"

namespace isect::check {

/// How many of a kernel's largest failure classes a run minimises.
constexpr size_t kMinimisedClasses = 8;

/// A claim about several calls of a run's kernels, judged beside their
/// contracts (relation.hpp). A contract judges one call; what users build
/// relies on relations between calls, which no contract shows.
struct Relation {
    /// What each kind claims:
    /// - agree: kernels a and b give the same answer on every input, and
    ///   numbers within `tolerance` u max(|x|, |y|) of each other (isect diff);
    /// - symmetric: kernel a gives the same answer with a two-object
    ///   family's arguments swapped (Family::exchangeable);
    /// - monotone: kernel a's hit at tmax stays a hit, with the same entry,
    ///   at every larger tmax (twice it, the precision's largest number,
    ///   +inf): families with a tmax;
    /// - watertight: a ray through the interior of an edge that kernel a's
    ///   triangle shares with a neighbour (the triangle across that edge,
    ///   wound alike), crossing both planes the same way, hits at least one
    ///   of them (Woop, Benthin and Wald 2013): ray_triangle;
    /// - rotation: kernel a gives the same answer with every polygon's
    ///   vertices rotated (a b c to b c a): families with a polygon.
    using Kind = RelationKind;
    Kind kind = Kind::agree;
    size_t a = 0, b = 1;   ///< the run's kernels it is about (b: agree only)
    double tolerance = 0;  ///< agree: how far the numbers may differ, in u
    /// As reports, class keys and --relation name it (relation_name).
    std::string name() const { return relation_name(kind); }
    /// Who it is about, as reports name it: "A = moller_trumbore, B =
    /// watertight" for agree, else the kernel's name.
    std::string subject(const std::vector<FamilyKernel>& kernels) const;
};

struct FamilyCheckOptions {
    Oracle oracle = Oracle::fast;  ///< fast oracles first, or the references alone
    StreamOptions stream;     ///< which cases: seed, budget, shard, generator kind, domain
    size_t jobs = 1;          ///< workers judging the stream
    /// The kernels worker w >= 1 calls, when they must be its own (a
    /// plugin's worker process each); empty: every worker calls the
    /// kernels given to run_family_check (built-in ones are pure).
    std::vector<std::vector<FamilyKernel>> worker_kernels;
    /// Whether the kernels' contracts are judged and reported (isect diff
    /// judges its relation alone).
    bool contracts = true;
    std::vector<Relation> relations;  ///< claims about several calls, judged on every case
    bool progress = false;
    bool minimize = true;     ///< minimise each failure class's witness
    /// The largest classes minimised; the rest keep their witness as found.
    /// A shard minimises every class (SIZE_MAX), so that isect merge can
    /// give the top ones their minimised witness whichever shard found it.
    size_t minimize_classes = kMinimisedClasses;
    bool stop_at_first = false;
    bool stop_at_hang = false;  ///< a kernel that hung once costs the timeout on every case after
    /// Called when kernel i's violation opens a failure class a worker had
    /// not seen, with the class and that member: its witness can be kept at
    /// once, so that a run killed later loses nothing found (then replaced
    /// by the minimised one). Called by one worker at a time.
    std::function<void(size_t kernel, const struct FailureClass&)> on_new_class;
    /// The same for relation i's classes.
    std::function<void(size_t relation, const struct FailureClass&)> on_new_relation_class;
};

/// The violations of one kernel that share a failure class
/// (violation_class): as far as isect can tell, one bug.
struct FailureClass {
    ClassKey key;
    uint64_t count = 0;
    double measured_k = 0;   ///< widest band among its wrong answers (0 when none)
    Inputs witness;          ///< found, minimised (when minimised is set)
    /// Why the case file named beside the class holds another witness than
    /// this one (a minimised form that could not be written); empty else.
    std::string case_note;
    std::string why;         ///< the judgement of the witness, one line
    /// The references' truth of the witness, from the judgement that
    /// minimised it (carried to its case file: never judged again).
    std::optional<Truth> truth;
    bool minimised = false;
    uint64_t first_case = 0; ///< 1-based case number of its first member
    /// Its best member as found (better_witness: proper, then most
    /// ordinary; of equals the earliest), the case number of that member
    /// and its judgement: what witness was minimised from.
    Inputs found;
    uint64_t found_case = 0;
    std::string found_why;
    /// For a watertight class of a run with a mesh whose found case's
    /// triangle is the mesh's: the mesh's triangles around it, nine numbers
    /// each (what the relation judged it against). Empty otherwise.
    std::vector<std::array<double, 9>> found_neighbours;
    /// For a watertight class whose witness is on the user's mesh: where it
    /// is in the mesh's file, by the file's face and vertex numbers
    /// (Family::SharedEdges::mesh_place). Empty otherwise.
    std::string in_file;
    /// For a wrong answer's minimised witness: the band's K (measured_k of
    /// the witness alone) and, where a search found one, a perturbation of
    /// the witness whose exact answer is the kernel's and its K
    /// (flipping_perturbation): the least K that explains the answer lies
    /// between the two. 0 and empty where not searched or not found.
    double band_k = 0, witnessed_k = 0;
    Inputs perturbed;
    /// The case file of its witness, once a command kept it: a path, or
    /// empty when the write failed (reports say NOT SAVED); nullopt when no
    /// file was asked for.
    std::optional<std::string> case_path;
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
    std::string domain;          ///< a built-in kernel's declared domain ("" for none)
    uint64_t outside_domain = 0; ///< cases outside it, not judged for the kernel
    uint64_t tried = 0;
    uint64_t wrong_answers = 0;
    uint64_t false_hits = 0;    ///< yes/no families: answered yes, exact is no
    uint64_t false_misses = 0;  ///< answered no, exact is yes
    uint64_t in_band = 0;
    uint64_t violations = 0;
    double measured_k = 0;   ///< smallest K covering every differing answer
    double measured_e = 0;   ///< largest error of the numbers, in units of u S
    std::vector<FailureClass> classes;  ///< largest first
    ValidityMap map;
    bool stopped_at_hang = false;
    std::optional<Inputs> hang_input;  ///< the input it hung on, when stopped there
    std::string hang_case;             ///< where that input was written, when it was
    std::string map_picture;           ///< the validity map picture, when drawn
    bool holds() const { return violations == 0; }
};

/// A relation's part of a family's report: the cases it was judged on, the
/// ones that broke it, and its failure classes.
struct RelationReport {
    RelationKind relation = RelationKind::agree;
    std::string subject;   ///< Relation::subject()
    uint64_t tried = 0;
    uint64_t violations = 0;
    /// agree: whom the references side with on the violations: "A", "B",
    /// "neither", or "both" (numbers each within 1 u S of the exact ones).
    std::map<std::string, uint64_t> sides;
    std::vector<FailureClass> classes;  ///< largest first, once settled
    bool holds() const { return violations == 0; }
};

struct FamilyCheckReport {
    std::string family;
    uint64_t cases = 0;
    double seconds = 0;
    std::map<std::string, uint64_t> mix;
    uint64_t reference_mismatches = 0;  ///< the two references disagreed, or the fast oracle with them
    std::optional<Inputs> mismatch;  ///< the earliest case they disagreed on
    uint64_t mismatch_case = 0;
    std::string mismatch_message;
    std::vector<FamilyKernelReport> kernels;
    std::vector<RelationReport> relations;
    // How the truth was reached:
    Oracle oracle = Oracle::fast;
    uint64_t fast_cases = 0;       ///< cases whose answer the fast oracle decided
    uint64_t sampled = 0;          ///< of those, the references checked too (1 in 256)
    /// Cases the fast oracle could not settle alone: undecided, sampled,
    /// or a suspected violation. Both references judge each, but a later
    /// member of a failure class they confirmed, which the oracle or the
    /// first reference classes as they would (CaseJudge::trust_fast,
    /// finish_on_first_reference).
    uint64_t reference_cases = 0;
    bool interrupted = false;      ///< a signal stopped it (interrupt.hpp)
    uint64_t adapted = 0;          ///< generated cases changed to meet a required precondition
    bool holds() const;
};

/// Judges f's case stream with the kernels: options.jobs workers, their
/// reports merged, the classes sorted and the largest minimised.
FamilyCheckReport run_family_check(const Family& f, const std::vector<FamilyKernel>& kernels,
                                   const FamilyCheckOptions& options);

/// One family of a run of several.
struct FamilyRun {
    const Family* family = nullptr;
    std::vector<FamilyKernel> kernels;  ///< worker 0's (and every worker's, unless options.worker_kernels)
    FamilyCheckOptions options;         ///< its stream and callbacks (options.jobs is not read: the run's is)
};

/// Judges several families on one set of `jobs` workers, in order: a worker
/// that finds a family's cases all claimed goes on to the next family while
/// the others finish theirs, and any worker minimises a family's classes
/// once its last block is judged, so that no worker waits while there is
/// work (a family's time budget starts when its first case is claimed).
/// Each report is what run_family_check would give; on_done(i, report) is
/// called as family i ends, one at a time. A family not begun when a signal
/// came is nullopt.
std::vector<std::optional<FamilyCheckReport>> run_family_checks(
    const std::vector<FamilyRun>& runs, size_t jobs,
    const std::function<void(size_t run, FamilyCheckReport& report)>& on_done = nullptr);

/// Adds `from` into `into`, two reports of the same family and kernels on
/// other cases: counts added, extremes kept, classes joined by their key
/// keeping the better found witness (with its minimised form). Commutative
/// and associative. `into` may be empty (no kernels yet): it becomes a copy.
void merge_reports(const Family& f, FamilyCheckReport& into, const FamilyCheckReport& from);

/// The classes of a merged report as one run would leave them: largest
/// first, and beyond the first `minimised` of them the witness as found.
void settle_classes(std::vector<FailureClass>& classes, size_t minimised = kMinimisedClasses);

/// An empty report for kernel k: its name, contract and E.
FamilyKernelReport kernel_report_for(const FamilyKernel& k);

/// Counts one judged case into r, the way run_family_check counts every
/// generated case (replay and fuzz count theirs the same way): tried, wrong
/// answers, in band, K and E, the validity map, and a violation's failure
/// class (the case becomes its witness when it is the class's first or most
/// ordinary member). case_number is 1-based. Returns the violation's class,
/// or null when j keeps the contract. `key`, when given, is the
/// violation's class as violation_class gives it (already computed);
/// `place`, the input's map_cell (computed once for a case's kernels).
const FailureClass* tally_judgement(const Family& f, const FamilyKernel& k, FamilyKernelReport& r, const Inputs& in,
                                    const Truth& truth, const FamilyJudgement& j, uint64_t case_number,
                                    Oracle oracle = Oracle::fast, const ClassKey* key = nullptr,
                                    const std::pair<int, int>* place = nullptr);

/// The validity map's cell of an input (ValidityMap's key).
std::pair<int, int> map_cell(const Family& f, const Inputs& in);


/// Counts a violation found on case `case_number` (1-based) into its class
/// of `classes`, opened when new; the case becomes the class's witness when
/// it is its first or best member (better_member).
FailureClass& count_in_class(const Family& f, std::vector<FailureClass>& classes, const ClassKey& key, const Inputs& in,
                             uint64_t case_number, const std::string& why);

/// Adds the classes of another part of a run into `into`, joined by their
/// key (the better found witness kept, with its minimised form).
void join_classes(const Family& f, std::vector<FailureClass>& into, const std::vector<FailureClass>& from);

/// Largest failure class first; of equal ones, the one found first.
void sort_classes(std::vector<FailureClass>& classes);

// The worker threads (workers.cpp).

/// How many workers `--jobs 0` means: the cores this process may use.
size_t available_cores();

/// Runs fn(worker) for worker = 0..jobs-1, each on a thread of its own but
/// worker 0, which runs on the calling thread, and waits for all. Each
/// starts in the caller's precision. The first exception a worker throws is
/// rethrown here, after every worker ended.
void run_workers(size_t jobs, const std::function<void(size_t worker)>& fn);

}  // namespace isect::check
