#include "check/engine/kernels_under_test.hpp"

#include "check/engine/relation.hpp"
#include "check/io/mesh_file.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "check/io/safe_write.hpp"

#include "check/engine/run.hpp"
#include "check/engine/witness.hpp"
#include "check/model/preconditions.hpp"

namespace isect::check {

namespace {

bool stricter_or_same(const Contract& wanted, const Contract& own) {
    if (wanted.kind == own.kind && wanted.k == own.k) return true;
    // Within a kind a smaller K is stricter; plain conservative (K = 0: no
    // false miss at all) is stricter than any conservative=K.
    return wanted.kind == Contract::Kind::exact ||
           (wanted.kind == own.kind && wanted.kind != Contract::Kind::exact && wanted.k < own.k);
}

/// The fields of SubjectArgs a fuzz target is handed, by key.
struct Field {
    const char* key;
    std::string SubjectArgs::*text;
};
constexpr Field kFields[] = {{"plugin", &SubjectArgs::plugin},   {"kernel", &SubjectArgs::kernel},
                             {"contract", &SubjectArgs::contract}, {"fp_env", &SubjectArgs::fp_env},
                             {"domain", &SubjectArgs::domain},   {"require", &SubjectArgs::require},
                             {"convention", &SubjectArgs::convention}, {"relation", &SubjectArgs::relation},
                             {"mesh", &SubjectArgs::mesh}};

/// The names of a --kernel list.
std::vector<std::string> split_names(const std::string& list) {
    std::vector<std::string> out;
    std::stringstream in(list);
    for (std::string name; std::getline(in, name, ',');)
        if (!name.empty()) out.push_back(name);
    return out;
}

/// The relations of a comma-separated list, added to `into` once each;
/// false with why for a name that is none.
bool parse_relations(const std::string& list, std::vector<Relation::Kind>& into, std::string& why) {
    for (const std::string& name : split_names(list)) {
        const auto kind = relation_named(name);
        if (!kind || *kind == RelationKind::agree) {
            why = "'" + name + "' is not symmetric, monotone, watertight or rotation";
            return false;
        }
        if (std::find(into.begin(), into.end(), *kind) == into.end()) into.push_back(*kind);
    }
    return true;
}

}  // namespace

std::string SubjectArgs::text() const {
    std::string out;
    for (const Field& f : kFields)
        if (!(this->*f.text).empty() && (f.text != &SubjectArgs::contract || contract_given || !plugin.empty()))
            out += std::string(f.key) + " " + this->*f.text + "\n";
    char e[32];
    std::snprintf(e, sizeof e, "%.17g", error_e);
    return out + "error_e " + e + "\n";
}

std::optional<SubjectArgs> SubjectArgs::read(const std::string& text, std::string& why) {
    SubjectArgs a;
    std::stringstream in(text);
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (line.empty()) continue;
        const size_t space = line.find(' ');
        const std::string key = line.substr(0, space), value = space == std::string::npos ? "" : line.substr(space + 1);
        bool known = false;
        for (const Field& f : kFields)
            if (key == f.key) {
                a.*f.text = value;
                known = true;
            }
        if (key == "contract") a.contract_given = true;
        if (key == "error_e") {
            char* end = nullptr;
            a.error_e = std::strtod(value.c_str(), &end);
            known = end && *end == '\0' && a.error_e >= 0;
        }
        if (!known) {
            why = "line " + std::to_string(n) + ": '" + line + "' is not one of plugin, kernel, contract, fp_env, domain, "
                  "require, convention, relation, mesh or error_e with its value";
            return std::nullopt;
        }
    }
    return a;
}

std::string not_held_to(const FamilyKernel& k, const Contract& contract) {
    if (stricter_or_same(contract, k.contract)) return {};
    return "--contract " + contract.str() + " is not " + k.name + "'s own contract (" + k.contract.str() +
           ") nor a stricter one; a built-in kernel is held to what it declares, or to more";
}

namespace {

/// Why a domain holds no number of the run's precision ("" when it holds
/// some): it would judge zeros only, and every kernel would hold. Replay
/// takes both precisions (each case's own).
std::string holds_none(const std::string& command, const Domain& d, const std::string& where) {
    if (command == "replay") {
        const std::string f = d.holds_none(Precision::single), g = d.holds_none(Precision::double_);
        return f.empty() || g.empty() ? "" : where + g + ", nor any float";
    }
    const std::string none = d.holds_none(precision());
    return none.empty() ? "" : where + none;
}

/// Where a plugin's workers print: a log of this run's own, in --out where
/// the command has one (a name no other run takes), else a temporary file.
std::string plugin_output_log(const SubjectArgs& a) {
    if (!a.output_dir.empty()) {
        const Written log =
            write_file_new(a.output_dir, file_stem(std::filesystem::path(a.plugin).stem().string()) + "-output", ".log", "");
        if (log.ok()) return log.path;
    }
    std::string temp = (std::filesystem::temp_directory_path() / "isect-plugin-output-XXXXXX").string();
    const int fd = mkstemp(temp.data());
    if (fd < 0) return {};
    close(fd);
    return temp;
}

}  // namespace

std::unique_ptr<KernelsUnderTest> KernelsUnderTest::make(const std::string& command, const SubjectArgs& a) {
    auto out = std::unique_ptr<KernelsUnderTest>(new KernelsUnderTest());
    out->command_ = command;
    out->kernel_ = a.kernel;
    out->kernel_names_ = split_names(a.kernel);
    out->error_e_ = a.error_e;
    const auto fail = [&](const std::string& why) {
        std::cerr << "isect " << command << ": " << why << "\n";
        return nullptr;
    };
    std::string why;
    if (!a.fp_env.empty()) {
        out->fp_env_ = FpEnv::parse(a.fp_env, why);
        if (!out->fp_env_) return fail("--fp-env " + why);
    }
    if (!a.domain.empty()) {
        const auto d = Domain::parse(a.domain, why);
        if (!d) return fail("--domain " + why);
        out->domain_ = *d;
    }
    if (!a.require.empty() && !parse_requirements(a.require, out->domain_.required, why))
        return fail("--require " + why);
    if (!a.convention.empty() && !parse_conventions(a.convention, out->domain_.conventions, why))
        return fail("--convention " + why);
    if (!parse_relations(a.relation, out->relations_, why)) return fail("--relation " + why);
    if (!a.mesh.empty()) {
        out->mesh_ = read_mesh(a.mesh, why);
        if (!out->mesh_) return fail("--mesh " + why);
    }
    std::optional<Contract> contract;
    if (a.contract_given || !a.plugin.empty()) {
        contract = Contract::parse(a.contract);
        if (!contract) return fail("--contract '" + a.contract + "' is not exact, conservative, conservative=K or tolerant=K");
    }
    if (const std::string none = holds_none(command, out->domain_, "--domain "); !none.empty()) return fail(none);
    const std::string refused = a.plugin.empty() ? out->take_builtins(a, contract) : out->take_plugin(a, *contract);
    if (!refused.empty()) return fail(refused);
    return out;
}

std::string KernelsUnderTest::take_plugin(const SubjectArgs& a, const Contract& contract) {
    if (!a.kernel.empty()) return "--kernel names a built-in kernel; with --plugin the plugin's kernels run";
    plugin_contract_ = contract;
    if (a.in_process) {
        // A fuzz target: the plugin is loaded where its kernels run, family by
        // family (kernels()); its scope is the one it is handed.
        plugin_path_ = resolve_plugin_path(a.plugin);
        subject_ = a.plugin;
        return {};
    }
    output_log_ = plugin_output_log(a);
    try {
        hosts_.push_back(std::make_unique<PluginHost>(a.plugin, a.timeout_ms, fp_env_, watch_, notes_, output_log_));
    } catch (const std::exception& e) {
        return e.what();
    }
    const PluginInfo& p = host()->info();
    subject_ = p.name;
    // What the plugin declares of itself, where the command line did not say.
    std::string why;
    if (a.domain.empty() && p.domain) {
        domain_.lo = p.domain->lo;
        domain_.hi = p.domain->hi;
        if (std::string none = holds_none(command_, domain_, p.path + ": isect_domain() declares "); !none.empty()) return none;
    }
    if (a.require.empty() && !p.requires_.empty() && !parse_requirements(p.requires_, domain_.required, why))
        return p.path + ": isect_requires() says " + why;
    if (a.convention.empty() && !p.conventions.empty() && !parse_conventions(p.conventions, domain_.conventions, why))
        return p.path + ": isect_conventions() says " + why;
    if (a.relation.empty() && !p.relations.empty() && !parse_relations(p.relations, relations_, why))
        return p.path + ": isect_relations() says " + why;
    return {};
}

std::string KernelsUnderTest::take_builtins(const SubjectArgs& a, const std::optional<Contract>& contract) {
    // Each named kernel, in either precision.
    const auto each_named = [&](const auto& fn) {
        for (const Precision p : {Precision::single, Precision::double_}) {
            const PrecisionScope scope(p);
            for (const Family* f : families())
                for (const std::string& name : kernel_names_)
                    if (const auto k = f->find_any_kernel(name))
                        if (std::string why = fn(*k); !why.empty()) return why;
        }
        return std::string();
    };
    // A named built-in kernel follows its own conventions: the run declares them.
    if (a.convention.empty())
        each_named([&](const FamilyKernel& k) {
            for (const std::string& c : k.conventions)
                if (std::find(domain_.conventions.begin(), domain_.conventions.end(), c) == domain_.conventions.end())
                    domain_.conventions.push_back(c);
            return std::string();
        });
    subject_ = a.kernel.empty() ? "built-in kernels" : a.kernel;
    if (!contract) return {};
    if (a.kernel.empty())
        return "--contract " + contract->str() +
               " without --plugin needs --kernel: each built-in kernel declares its own contract (`isect kernels` lists them)";
    // Held to its own contract or a stricter one.
    if (std::string why = each_named([&](const FamilyKernel& k) { return not_held_to(k, *contract); }); !why.empty()) return why;
    builtin_contract_ = contract;
    return {};
}

size_t workers_for(const std::string& command, size_t asked, uint64_t work) {
    const size_t cores = available_cores();
    if (asked == 0) return cores;
    size_t n = std::min(asked, 4 * cores);
    if (work > 0) n = std::min<size_t>(n, std::max<uint64_t>(work, 1));
    if (n < asked)
        std::cerr << "isect " << command << ": --jobs " << asked << " asks for more workers than "
                  << (n == 4 * cores ? "four per core (" + std::to_string(cores) + " here)"
                                     : "there is work for (" + std::to_string(work) + ")")
                  << "; running " << n << "\n";
    return n;
}

bool KernelsUnderTest::start_workers(const std::string& command, size_t n) {
    if (hosts_.empty()) return true;
    const PluginHost& first = *hosts_.front();
    try {
        while (hosts_.size() < n)
            hosts_.push_back(std::make_unique<PluginHost>(first.info().path, first.timeout_ms(), fp_env_, watch_, notes_,
                                                                 output_log_));
    } catch (const std::exception& e) {
        std::cerr << "isect " << command << ": " << e.what() << "\n";
        return false;
    }
    // Where a core is spare for every worker process, each watches for its
    // next chunk (and its checker for the answers) for up to 2 ms before
    // sleeping: no chunk waits for a wake-up.
    const uint32_t spin = 2 * n <= available_cores() ? 2000 : 0;
    for (auto& h : hosts_) h->set_spin(spin);
    return true;
}

const Family* KernelsUnderTest::meshed(const Family& f) const {
    if (!mesh_ || (!f.mesh_mixes && !f.mesh_shared_edges)) return &f;
    const std::lock_guard<std::mutex> lock(meshed_lock_);
    std::unique_ptr<Family>& g = meshed_[&f];
    if (!g) g = with_mesh(f, mesh_);
    return g.get();
}

std::vector<const Family*> KernelsUnderTest::families_of(const Family& base) const {
    std::vector<const Family*> out = families_declared(base);
    for (const Family*& f : out) f = meshed(*f);
    return out;
}

std::vector<const Family*> KernelsUnderTest::families_declared(const Family& base) const {
    std::vector<const Family*> out = {&family(base)};
    if (host() || !kernel_.empty() || !domain_.conventions.empty()) return out;
    std::vector<std::vector<std::string>> seen;
    for (const FamilyKernel& k : base.all_kernels()) {
        if (k.precision != precision()) continue;
        std::vector<std::string> c = conventions_of(base, k.conventions);
        std::sort(c.begin(), c.end());
        if (c.empty() || std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
        seen.push_back(c);
        Domain d = domain_;
        d.conventions = c;
        out.push_back(&declared_family(base, d));
    }
    return out;
}

std::vector<Relation> KernelsUnderTest::relations(const Family& f, const std::vector<FamilyKernel>& kernels) const {
    std::vector<Relation> out;
    for (size_t i = 0; i < kernels.size(); ++i) {
        // Those asked (--relation, or a plugin's isect_relations()), and
        // those the kernel claims of itself.
        std::vector<Relation::Kind> kinds = relations_;
        for (const RelationKind kind : kernels[i].relations)
            if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
        for (const RelationKind kind : kinds)
            if (relation_unsupported(f, kind).empty()) out.push_back({kind, i, i, 0});
    }
    return out;
}

namespace {

/// The names of `a` and `b` that are conventions of f, the same set.
bool same_conventions(const Family& f, const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<std::string> x = conventions_of(f, a), y = conventions_of(f, b);
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    return x == y;
}
std::string conventions_str(const std::vector<std::string>& c) {
    std::string out;
    for (const std::string& s : c) out += (out.empty() ? "" : ", ") + s;
    return out.empty() ? "none" : out;
}
}  // namespace

std::vector<FamilyKernel> KernelsUnderTest::kernels(const Family& f, std::string* why, size_t worker) const {
    if (!plugin_path_.empty()) {
        // Loaded for the family asked (a target fuzzes one; another family is
        // its own function of the plugin).
        if (!in_process_ || in_process_family_ != f.name) {
            in_process_ = plugin_kernel_in_process(plugin_path_, f, *plugin_contract_, error_e_, fp_env_);
            in_process_family_ = f.name;
        }
        return {in_process_->kernel};
    }
    if (const PluginHost* first = host()) {
        if (!same_conventions(f, f.followed, domain_.conventions)) {
            if (why)
                *why = "the case follows the convention " + conventions_str(f.followed) + ", the plugin " +
                       conventions_str(conventions_of(f, domain_.conventions));
            return {};
        }
        if (!first->info().exports(f, precision())) {
            if (why)
                *why = first->info().name + " does not export isect_" + f.name +
                       (precision() == Precision::double_ ? "_d" : "");
            return {};
        }
        return {hosts_[worker < hosts_.size() ? worker : 0]->kernel(f, *plugin_contract_, error_e_)};
    }
    std::vector<FamilyKernel> out;
    if (kernel_.empty()) out = f.kernels();  // those that follow its conventions
    for (const std::string& name : kernel_names_) {
        if (name == "broken:*") {  // every planted bug of the family that follows its conventions
            for (const FamilyKernel& k : f.broken()) out.push_back(k);
            if (out.empty() && why) *why = f.name + " has no planted " + precision_name(precision()) + " bug";
        } else if (auto k = f.find_any_kernel(name)) {
            if (builtin_contract_) k->contract = *builtin_contract_;
            if (f.follows(*k)) out.push_back(*k);
            else if (why)
                *why = name + " follows the convention " + conventions_str(conventions_of(f, k->conventions)) +
                       "; the case follows " + conventions_str(f.followed);
        } else if (why) {
            // Looked up in the case's precision: named in the other one, it is a skip.
            const Precision here = precision();
            const PrecisionScope other(here == Precision::single ? Precision::double_ : Precision::single);
            *why = f.find_any_kernel(name) ? name + " has no " + precision_name(here) + " version"
                                           : f.name + " has no kernel named '" + name + "'";
        }
    }
    if (out.empty() && why && why->empty())
        *why = f.name + " has no built-in " + precision_name(precision()) + " kernel";
    if (fp_env_)
        for (FamilyKernel& k : out) k = in_fp_env(k, fp_env_->control(), watch_);
    return out;
}

std::string KernelsUnderTest::fp_env_line() const {
    // Every worker of a plugin counts into the one watch.
    const FpWatch* watch = watch_.get();
    const PluginHost* h = host();
    if (fp_env_) return describe_kernel_env(fp_env_->control(), "--fp-env " + fp_env_->str(), watch);
    if (h && h->info().after_load != h->info().before_load)
        return describe_kernel_env(h->kernel_env(), "set by the plugin as it loaded: built with -ffast-math or -Ofast?",
                                          watch);
    return describe_kernel_env(h ? h->kernel_env() : default_fp_control(), "", watch);
}

namespace {

/// What a plugin printed, collapsed: how much, and its most frequent lines.
std::string output_summary(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::map<std::string, uint64_t> counts;
    uint64_t lines = 0, bytes = 0;
    for (std::string line; std::getline(in, line);) {
        ++lines;
        bytes += line.size() + 1;
        if (line.size() > 160) line = line.substr(0, 157) + "...";
        if (counts.size() < 10000 || counts.count(line)) ++counts[line];
    }
    if (lines == 0) return "";
    std::vector<std::pair<uint64_t, std::string>> top;
    for (const auto& [line, n] : counts) top.push_back({n, line});
    std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string out = "the plugin printed " + std::to_string(lines) + " line" + (lines == 1 ? "" : "s") + " (" +
                      std::to_string(bytes) + " bytes, " + (counts.size() >= 10000 ? "10000 or more" : std::to_string(counts.size())) +
                      " distinct), kept whole in " + path + "; most often:";
    for (size_t i = 0; i < top.size() && i < 3; ++i)
        out += (i ? "," : "") + std::string(" '") + top[i].second + "' (" + std::to_string(top[i].first) + "x)";
    return out;
}

}  // namespace

std::vector<std::string> KernelsUnderTest::notes() const {
    std::vector<std::string> out;
    if (mesh_) {
        out.push_back("the mesh " + mesh_->summary());
        if (const std::string reached = mesh_->reach_summary(); !reached.empty()) out.push_back("on the mesh, " + reached);
    }
    if (!output_log_.empty()) {
        std::string printed = output_summary(output_log_);
        if (printed.empty()) std::remove(output_log_.c_str());  // it printed nothing: no log
        else out.push_back(std::move(printed));
    }
    if (const uint64_t n = notes_->slow_batches.load())
        out.push_back("the batch entry took longer than the timeout (" + std::to_string(hosts_.front()->timeout_ms()) +
                      " ms) on " + std::to_string(n) + " call" + (n == 1 ? "" : "s") +
                      " in which no input hangs alone; those inputs were answered one at a time (raise --timeout-ms, or "
                      "make a call of ISECT_BATCH_MAX inputs cheaper)");
    if (const uint64_t n = notes_->batch_garbage.load())
        out.push_back("the batch entry answered " + std::to_string(n) + " input" + (n == 1 ? "" : "s") +
                      " with none of the family's answers in a batch, but properly alone (n = 1): its answers depend on "
                      "the batch (scratch memory sized below its n?); each was judged as answered alone");
    return out;
}

}  // namespace isect::check
