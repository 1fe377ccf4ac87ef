// The kernels a command judges, built from its command line once, for
// check, replay, fuzz, diff and minimize alike: a plugin's functions (run
// in a worker), one built-in kernel or planted bug by name, or every
// built-in one. A named built-in kernel is held to its own contract or to
// a stricter one given with --contract; every kernel runs in the requested
// floating-point environment; and the command line's scope (--domain,
// --require) is merged with what a plugin declares of itself.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "check/model/domain.hpp"
#include "check/model/family.hpp"
#include "check/io/fp_env.hpp"
#include "check/io/plugin_host.hpp"

namespace isect::tool {

/// What a command line says of the kernels to judge.
struct SubjectArgs {
    std::string plugin;                   ///< a plugin's path; empty: built-in kernels
    std::string kernel;                   ///< one built-in kernel or broken:NAME; empty: every built-in one
    std::string contract = "tolerant=1";  ///< a plugin's contract, or a named built-in kernel's stricter one
    bool contract_given = false;
    double error_e = 16;                  ///< a plugin's E
    int timeout_ms = 2000;                ///< a plugin call taking longer is a hang
    std::string fp_env;                   ///< --fp-env; empty: as loaded (the default for built-ins)
    std::string domain;                   ///< --domain LO:HI; empty: the plugin's, else every finite number
    std::string require;                  ///< --require NAME,...; empty: the plugin's, else none
    std::string convention;               ///< --convention NAME,...; empty: the plugin's, a named kernel's own, else none
    /// A folder for what a plugin prints (a log of its own there: --out);
    /// empty: a temporary file, kept only if the plugin printed anything.
    std::string output_dir;
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

    /// The family as this run declares it (check::declared_family: the
    /// required preconditions' slack, the conventions).
    const check::Family& family(const check::Family& base) const { return check::declared_family(base, domain_); }
    /// The families to judge base as: the declared one, and for every
    /// built-in kernel where no convention was declared, each convention
    /// some built-in kernel of base follows (a report of its own each).
    std::vector<const check::Family*> families_of(const check::Family& base) const;

    /// The kernels of family f (a declared family: those that follow its
    /// conventions, f.followed) in the run's precision, each in the
    /// kernels' floating-point environment, for worker `worker` of the run
    /// (a plugin's calls go to that worker's process); empty, with why,
    /// when there are none.
    std::vector<check::FamilyKernel> kernels(const check::Family& f, std::string* why = nullptr, size_t worker = 0) const;

    /// The plugin's (first) worker; null for built-in kernels.
    check::PluginHost* host() const { return hosts_.empty() ? nullptr : hosts_.front().get(); }
    /// "built-in kernels", a built-in kernel's name, or the plugin's name.
    const std::string& subject() const { return subject_; }
    /// The magnitudes and preconditions judged.
    const check::Domain& domain() const { return domain_; }
    /// The contract a plugin is held to (nullopt for built-in kernels,
    /// which declare theirs).
    const std::optional<check::Contract>& plugin_contract() const { return plugin_contract_; }
    double error_e() const { return error_e_; }
    /// The floating-point environment asked for, if one was.
    const std::optional<check::FpEnv>& fp_env() const { return fp_env_; }
    /// The report's line on the kernels' floating-point environment (and
    /// any change a kernel made to it).
    std::string fp_env_line() const;
    /// What the plugin's workers met that is no finding but must be said
    /// (slow batches, answers that depend on the batch), one line each.
    std::vector<std::string> notes() const;

private:
    std::string command_, kernel_;
    std::vector<std::unique_ptr<check::PluginHost>> hosts_;
    std::string subject_;
    check::Domain domain_;
    std::optional<check::Contract> plugin_contract_, builtin_contract_;
    double error_e_ = 16;
    std::optional<check::FpEnv> fp_env_;
    std::shared_ptr<check::FpWatch> watch_ = std::make_shared<check::FpWatch>();
    std::shared_ptr<check::PluginNotes> notes_ = std::make_shared<check::PluginNotes>();
    std::string output_log_;  ///< where the plugin's workers print
};

/// The workers a command runs for --jobs N (0: every core available): at
/// most four per core (a plugin's worker is a process each; more only wait
/// for each other), and no more than `work` items to share (0: no bound).
/// Says so in one line on stderr ("isect COMMAND: --jobs ...") when it
/// takes fewer than asked.
size_t workers_for(const std::string& command, size_t asked, uint64_t work = 0);

/// A built-in kernel under --contract: its own contract, or a stricter one
/// it is then held to (exact over anything, a smaller tolerant K); nullopt,
/// with the error printed, for a looser or another kind.
std::optional<check::FamilyKernel> held_to(const check::FamilyKernel& k, const std::optional<check::Contract>& contract,
                                           const std::string& command);

}  // namespace isect::tool
