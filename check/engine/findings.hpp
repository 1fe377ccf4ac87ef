// The keeper of findings. Whatever finds them (isect check's and diff's
// failure classes, a fuzz campaign's inputs, isect minimize's case), a
// finding goes one way to its case file: its class minimised while it
// stays in that class (minimise_class: one predicate for a kernel's class,
// one for a relation's), its text saying where it came from and ending in
// its signature (finding_case), and its file named by what it is the
// witness of (FindingKey), de-duplicated against the folder's cases and
// written atomically (FindingFiles). CampaignFindings judges, keeps and
// counts a fuzz campaign's inputs through the same steps.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "check/engine/run.hpp"
#include "check/io/safe_write.hpp"

namespace isect::check {

/// Whether a class of this kind is minimised: a crash, hang or garbage
/// answer is kept as found (every trial would cost a worker or a timeout).
bool minimised_kind(FailureKind kind);

/// Minimises class c's witness, from its best member as found (c.found),
/// while it stays a violation of c's class by kernel k. A trial whose
/// violation the fast oracle decides is judged on it, the others on the
/// first reference where the family has one; the witness the trials end
/// on is judged by both references (a trial on which they disagree is not
/// the kernel's finding), and gives way to the member found where they
/// class it otherwise. Sets c's witness, why, truth, K's and minimised.
void minimise_class(const Family& f, const FamilyKernel& k, FailureClass& c, const Domain& domain);

/// The same for a relation's class: while the witness's calls break the
/// relation the same way.
void minimise_relation_class(const Family& f, const Relation& rel, const std::vector<FamilyKernel>& kernels,
                             FailureClass& c, const Domain& domain);

/// The class of one input's finding (fuzz_one), as found: its only member.
FailureClass class_of(const Finding& found, const Inputs& in);

/// Minimises c, the class of `found`, as its owner's predicate does (a
/// kernel's or a relation's); a crash, hang or garbage answer and the
/// references' disagreement stay as found. Returns whether it minimised.
bool minimise_finding(const Family& f, const std::vector<FamilyKernel>& kernels, const Finding& found, FailureClass& c,
                      const Domain& domain);

/// Where a finding came from, as its case file's comment says it.
struct FindingOrigin {
    /// The command and its run: "isect check, seed 1, domain 2^-10:2^10:
    /// kernel sat breaks tolerant=1".
    std::string run;
    /// Which of the run's classes: "class 2 of 5", "kept as found while the
    /// run went on".
    std::string place;
    /// A line after the judgement (where a witness's triangles came from);
    /// empty for none.
    std::string note;
};

/// The case text of class c's witness: the origin, the class (its size and
/// kind, minimised or as found), the witness's judgement and the class's
/// signature as comments, then the case with the class's truth (the
/// references' where it has none); a relation's class names the relation
/// and, drawn from a mesh, the triangles around it.
std::string finding_case(const Family& f, const FailureClass& c, const FindingOrigin& origin,
                         std::optional<RelationKind> relation = std::nullopt,
                         const std::vector<std::array<double, 9>>& neighbours = {});

/// What a case file is the witness of, among the files of one folder: a
/// kernel's failure class (by the run's kernel, for two kernels of one
/// name), a relation's class, a kernel's hang, or the references'
/// disagreement. Its text names the file (a hash of it), so that one class
/// keeps one file whatever the order classes opened in.
struct FindingKey {
    enum class Of { kernel_class, relation_class, hang, references };
    std::string family;
    Of of = Of::kernel_class;
    size_t kernel = 0;  ///< kernel_class and hang: which of the run's kernels
    ClassKey key;       ///< kernel_class and relation_class
    std::string str() const;
};

/// The case files a run leaves in one folder (--out, a corpus folder): each
/// witness is written as soon as its failure class opens (so that a run
/// killed later loses nothing it found), replaced in place by its
/// minimised form, never written twice (a case with the same kernel and
/// the same body, the lines that are not comments, is already there: that
/// file is named instead), and never written over another run's file.
class FindingFiles {
public:
    /// Reads the cases already in dir (if any) for de-duplication.
    explicit FindingFiles(std::string dir);
    /// Flushes the folder's new names to disk once (each file's bytes were
    /// flushed as it was written).
    ~FindingFiles();
    FindingFiles(const FindingFiles&) = delete;
    FindingFiles& operator=(const FindingFiles&) = delete;

    /// Keeps text as the witness of `key`: the first call for a key writes
    /// a new file DIR/STEM-HASH.case, HASH of the key (STEM-HASH-2.case
    /// where another run's case has that name), later calls replace that
    /// file. kernel is the name the de-duplication compares ("signature:
    /// KERNEL|..." in older files). A failed write is kept in errors() and
    /// returned.
    Written keep(const FindingKey& key, const std::string& stem, const std::string& kernel, const std::string& text);

    /// Keeps class c's case (finding_case) and says in c what its file
    /// holds: case_path (empty when nothing could be written), and where
    /// the minimised form could not replace the form as found, minimised
    /// unset and case_note why.
    Written keep_class(const Family& f, const FindingKey& key, const std::string& stem, FailureClass& c,
                       const FindingOrigin& origin, std::optional<RelationKind> relation = std::nullopt,
                       const std::vector<std::array<double, 9>>& neighbours = {});

    /// Whether keep() said the last text was already in the folder.
    bool was_duplicate() const { return duplicate_; }
    /// Whether the last keep() failed to replace this key's earlier file,
    /// which then holds its earlier text still (the witness as found).
    bool kept_earlier() const { return kept_earlier_; }

    /// Every file a write failed for, once each, with the last reason:
    /// "PATH: reason (nothing written)", or "PATH: reason; it holds ... still"
    /// where an earlier text stayed in it.
    std::vector<std::string> errors() const;

    const std::string& dir() const { return dir_; }

private:
    std::string dir_;
    bool unsynced_ = false;  ///< a name was written since the folder was last flushed
    std::map<std::string, std::string> by_body_;  ///< kernel + body -> file
    std::map<std::string, std::string> mine_;     ///< key -> the file this run wrote for it
    std::vector<std::string> error_paths_;         ///< in order of the first failure
    std::map<std::string, std::string> errors_;   ///< path -> its last failure
    std::map<std::string, std::set<std::string>> unwritten_;  ///< a folder's failure -> the keys it left without a file
    bool duplicate_ = false, kept_earlier_ = false;
};

/// The kernel a case file's "# signature: KERNEL|..." line names; empty
/// when it has none.
std::string signature_kernel(const std::string& text);

/// A fuzz campaign's findings, kept in its corpus folder and counted into
/// its report: each input judged again with the references on every input;
/// a class the folder has already is counted against that file; a new one
/// written as found, minimised (within a grace after a signal) and written
/// again in its place. The report counts over the findings only (libFuzzer
/// says nothing of the inputs every kernel got right).
class CampaignFindings {
public:
    /// origin: the campaign, "found by isect fuzz (ray_sphere, kernel rtg,
    /// domain any)". report gets a report per kernel and relation.
    CampaignFindings(const Family& f, const std::vector<FamilyKernel>& kernels, const std::vector<Relation>& relations,
                     const Domain& domain, const std::string& folder, std::string origin, FamilyCheckReport& report);

    /// What became of an input.
    struct Taken {
        enum class Fate { holds, new_case, duplicate, not_saved } fate = Fate::holds;
        std::string path;  ///< its case file (new_case, duplicate)
        std::string line;  ///< what it breaks (new_case), why not saved (not_saved)
    };
    Taken take(const Inputs& in);

    /// Every input taken: each class sorted, with the file of its witness,
    /// and every kernel and relation tried on `inputs`.
    void finish(uint64_t inputs);

    uint64_t new_cases() const { return new_cases_; }
    uint64_t duplicates() const { return duplicates_; }
    /// The case file of the first input the references disagreed on.
    const std::string& mismatch_path() const { return mismatch_path_; }
    const FindingFiles& files() const { return files_; }

private:
    const Family& f_;
    const std::vector<FamilyKernel>& kernels_;
    const std::vector<Relation>& relations_;
    const Domain& domain_;
    std::string origin_;
    FamilyCheckReport& report_;
    FindingFiles files_;
    std::map<std::string, std::string> known_;  ///< signatures in the folder -> their file
    std::vector<std::map<std::string, std::string>> witness_files_;  ///< per kernel: class -> case file
    std::set<std::string> written_;
    uint64_t new_cases_ = 0, duplicates_ = 0;
    std::string mismatch_path_;
};

}  // namespace isect::check
