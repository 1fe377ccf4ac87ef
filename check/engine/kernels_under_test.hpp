// The kernels a run judges, chosen once for every command (check, replay,
// fuzz, diff, minimize, report) and for the fuzz targets: a plugin's
// functions (in a worker process, or loaded into a fuzz target), built-in
// kernels or planted bugs by name ("broken:*" for every planted bug), or
// every built-in one. A named built-in kernel is held to its own contract or to
// a stricter one given with --contract; every kernel runs in the requested
// floating-point environment; and the command line's scope (--domain,
// --require) is merged with what a plugin declares of itself.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "check/engine/run.hpp"
#include "check/model/domain.hpp"
#include "check/model/family.hpp"
#include "check/model/mesh.hpp"
#include "check/io/fp_env.hpp"
#include "check/io/plugin_host.hpp"

namespace isect::check {

/// What a command line says of the kernels to judge; a fuzz target is handed
/// the same, as text (ISECT_FUZZ_SUBJECT: text() and read()).
struct SubjectArgs {
    std::string plugin;                   ///< a plugin's path; empty: built-in kernels
    /// Built-in kernels or planted bugs by name, comma-separated (broken:*:
    /// every planted bug); empty: every built-in kernel.
    std::string kernel;
    std::string contract = "tolerant=1";  ///< a plugin's contract, or a named built-in kernel's stricter one
    bool contract_given = false;
    double error_e = 16;                  ///< a plugin's E
    int timeout_ms = 2000;                ///< a plugin call taking longer is a hang
    std::string fp_env;                   ///< --fp-env; empty: as loaded (the default for built-ins)
    std::string domain;                   ///< --domain LO:HI; empty: the plugin's, else every finite number
    std::string require;                  ///< --require NAME,...; empty: the plugin's, else none
    std::string convention;               ///< --convention NAME,...; empty: the plugin's, a named kernel's own, else none
    /// --relation NAME,...: claims about several calls each kernel is
    /// judged for besides its contract (symmetric, monotone, watertight).
    std::string relation;
    /// --mesh FILE: a mesh (OBJ, PLY, STL) cases are drawn from too.
    std::string mesh;
    /// A folder for what a plugin prints (a log of its own there: --out);
    /// empty: a temporary file, kept only if the plugin printed anything.
    std::string output_dir;
    /// The plugin loaded into this process (a fuzz target: no worker, its
    /// coverage is the fuzzer's); else each worker's calls go to a process
    /// of its own.
    bool in_process = false;

    /// As a fuzz target reads it: "key value" lines, one per field set.
    std::string text() const;
    /// What text() wrote; nullopt with why on a line it does not know.
    static std::optional<SubjectArgs> read(const std::string& text, std::string& why);
};

class KernelsUnderTest {
public:
    /// Builds them, or prints why it cannot ("isect COMMAND: ...") and
    /// returns null: the command exits 2.
    static std::unique_ptr<KernelsUnderTest> make(const std::string& command, const SubjectArgs& args);

    /// A plugin's worker process for each of n workers of the run (one is
    /// there from make()); nothing for built-in kernels. Prints why and
    /// returns false when one cannot start.
    bool start_workers(const std::string& command, size_t n);

    /// The family as this run declares it (declared_family: the
    /// required preconditions' slack, the conventions).
    const Family& family(const Family& base) const { return declared_family(base, domain_); }
    /// The families to judge base as: the declared one, and for every
    /// built-in kernel where no convention was declared, each convention
    /// some built-in kernel of base follows (a report of its own each).
    std::vector<const Family*> families_of(const Family& base) const;

    /// The kernels of family f (a declared family: those that follow its
    /// conventions, f.followed) in the run's precision, each in the
    /// kernels' floating-point environment, for worker `worker` of the run
    /// (a plugin's calls go to that worker's process); empty, with why,
    /// when there are none.
    std::vector<FamilyKernel> kernels(const Family& f, std::string* why = nullptr, size_t worker = 0) const;

    /// The floating-point environment of an in-process plugin: what loading
    /// it left and what its kernels run in (for the fuzz target's note).
    const std::optional<InProcessPlugin>& in_process() const { return in_process_; }
    /// The kernels' floating-point watch (every call that changed the state).
    const std::shared_ptr<FpWatch>& watch() const { return in_process_ ? in_process_->watch : watch_; }

    /// The plugin's (first) worker; null for built-in kernels.
    PluginHost* host() const { return hosts_.empty() ? nullptr : hosts_.front().get(); }
    /// "built-in kernels", a built-in kernel's name, or the plugin's name.
    const std::string& subject() const { return subject_; }
    /// The magnitudes and preconditions judged.
    const Domain& domain() const { return domain_; }
    /// The contract a plugin is held to (nullopt for built-in kernels,
    /// which declare theirs).
    const std::optional<Contract>& plugin_contract() const { return plugin_contract_; }
    double error_e() const { return error_e_; }
    /// The floating-point environment asked for, if one was.
    const std::optional<FpEnv>& fp_env() const { return fp_env_; }
    /// The report's line on the kernels' floating-point environment (and
    /// any change a kernel made to it).
    std::string fp_env_line() const;
    /// What the plugin's workers met that is no finding but must be said
    /// (slow batches, answers that depend on the batch), one line each.
    std::vector<std::string> notes() const;

    /// Whether the kernels were named (--kernel, --plugin), not every
    /// built-in one: a case's own relation is then judged for each.
    bool named() const { return !kernel_.empty() || !hosts_.empty() || !plugin_path_.empty(); }
    /// The mesh cases are drawn from too (--mesh), or null.
    const std::shared_ptr<const Mesh>& mesh() const { return mesh_; }
    /// The relations asked (--relation, or a plugin's isect_relations()), by kind.
    const std::vector<Relation::Kind>& relation_kinds() const { return relations_; }
    /// The relations to judge on family f's kernels: for each kernel, every
    /// kind asked and every one it claims (FamilyKernel::relations) that f
    /// supports.
    std::vector<Relation> relations(const Family& f, const std::vector<FamilyKernel>& kernels) const;

private:
    /// The plugin's kernels (in worker processes, or in this one), with what
    /// the plugin declares where the command line did not say: why not, or "".
    std::string take_plugin(const SubjectArgs& a, const Contract& contract);
    /// Built-in kernels, every one or those named, held to their contracts or
    /// to a stricter one: why not, or "".
    std::string take_builtins(const SubjectArgs& a, const std::optional<Contract>& contract);

    std::string command_, kernel_;
    std::vector<std::string> kernel_names_;  ///< kernel_, split at commas
    std::vector<std::unique_ptr<PluginHost>> hosts_;
    std::string plugin_path_;                ///< an in-process plugin's
    mutable std::optional<InProcessPlugin> in_process_;  ///< loaded by kernels(), for the family named
    mutable std::string in_process_family_;
    std::string subject_;
    Domain domain_;
    std::optional<Contract> plugin_contract_, builtin_contract_;
    double error_e_ = 16;
    std::optional<FpEnv> fp_env_;
    std::shared_ptr<FpWatch> watch_ = std::make_shared<FpWatch>();
    std::shared_ptr<PluginNotes> notes_ = std::make_shared<PluginNotes>();
    std::string output_log_;  ///< where the plugin's workers print
    std::vector<Relation::Kind> relations_;
    std::shared_ptr<const Mesh> mesh_;
    /// The families as a run with a mesh declares them: their mixes and
    /// the mesh's, by the declared family they extend.
    mutable std::map<const Family*, std::unique_ptr<Family>> meshed_;
    mutable std::mutex meshed_lock_;
    const Family* meshed(const Family& f) const;
    /// families_of without the mesh's mixes.
    std::vector<const Family*> families_declared(const Family& base) const;
};

/// The workers a command runs for --jobs N (0: every core available): at
/// most four per core (a plugin's worker is a process each; more only wait
/// for each other), and no more than `work` items to share (0: no bound).
/// Says so in one line on stderr ("isect COMMAND: --jobs ...") when it
/// takes fewer than asked.
size_t workers_for(const std::string& command, size_t asked, uint64_t work = 0);

/// Why a built-in kernel cannot be held to `contract` (a looser one or
/// another kind than its own); empty when it can (its own, or a stricter:
/// exact over anything, a smaller K of its kind).
std::string not_held_to(const FamilyKernel& k, const Contract& contract);

}  // namespace isect::check
