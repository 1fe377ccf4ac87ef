#include "options.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <random>

#include "check/model/family.hpp"
#include "check/model/generate.hpp"
#include "report.hpp"

namespace isect::tool {

void add_run_options(CLI::App* cmd, RunArgs& a) {
    cmd->add_option("--seconds", a.seconds, "Time budget for generated cases, per family")->check(real_in(0, 1e7, true));
    cmd->add_option("--cases", a.cases, "Stop after this many cases per family instead of --seconds")
        ->check(whole_in(1, uint64_t(1e15)));
    cmd->add_option("--seed", a.seed, "Random seed (default: a fresh one, printed)")
        ->check(whole_in(0, UINT64_MAX))
        ->each([&a](const std::string&) { a.seed_given = true; });
    cmd->add_option("--jobs,-j", a.jobs,
                    "Workers judging the cases (default 0: every core available); the cases, classes and witnesses are "
                    "the same for any number")
        ->check(whole_in(0, 4096));
    cmd->add_option("--shard", a.shard,
                    "Judge part I of N of the case stream (0/4 ... 3/4; needs --seed); isect merge joins the shards' JSON "
                    "reports");
    cmd->add_option("--family", a.family, "One family only (default: every family)");
    cmd->add_option("--gen", a.gen, "Use one generator kind only (the report's mix line names them)");
    cmd->add_option("--precision", a.precision,
                    "float (default) or double: the inputs generated, the kernels run (a plugin's isect_FAMILY_d), "
                    "and the unit u of K and E (2^-24 or 2^-53)");
    cmd->add_option("--out", a.out, "Folder for the classes' witness cases (and the maps of check; default: findings)");
    cmd->add_option("--format", a.format, "Report as text, markdown, json or junit (default text)");
}

check::FamilyCheckOptions run_options(const RunArgs& a, const check::Shard& shard, const check::Domain& domain) {
    check::FamilyCheckOptions options;
    options.stream.seed = a.seed;
    options.stream.seconds = a.seconds;
    options.stream.max_cases = a.cases;
    options.stream.shard = shard;
    options.stream.gen_kind = a.gen;
    options.stream.domain = domain;
    if (!shard.whole()) options.minimize_classes = SIZE_MAX;
    return options;
}

bool has_gen_kind(const check::Family& f, const std::string& gen) {
    if (gen.empty()) return true;
    const std::vector<std::string> kinds = check::gen_kinds(f);
    return std::find(kinds.begin(), kinds.end(), gen) != kinds.end();
}

bool set_precision_arg(const std::string& command, const std::string& text) {
    if (text != "float" && text != "double") {
        std::cerr << "isect " << command << ": --precision '" << text << "' is not float or double\n";
        return false;
    }
    check::set_precision(text == "double" ? check::Precision::double_ : check::Precision::single);
    return true;
}

std::optional<check::Shard> settle_run_args(const std::string& command, RunArgs& a) {
    const std::string isect = "isect " + command + ": ";
    if (!known_format(a.format)) {
        std::cerr << isect << "--format '" << a.format << "' is not text, markdown, json or junit\n";
        return std::nullopt;
    }
    if (!set_precision_arg(command, a.precision)) return std::nullopt;
    if (!a.family.empty() && !check::find_family(a.family)) {
        std::string known;
        for (const check::Family* f : check::families()) known += (known.empty() ? "" : ", ") + f->name;
        std::cerr << isect << "no family named '" << a.family << "' (" << known << ")\n";
        return std::nullopt;
    }
    if (!a.seed_given) a.seed = std::random_device{}();
    check::Shard shard;
    if (!a.shard.empty()) {
        std::string why;
        const auto s = check::Shard::parse(a.shard, why);
        if (!s) {
            std::cerr << isect << "--shard " << why << "\n";
            return std::nullopt;
        }
        if (!a.seed_given) {
            std::cerr << isect << "--shard " << a.shard
                      << " needs --seed: the shards of a run must share its seed to judge one stream of cases\n";
            return std::nullopt;
        }
        shard = *s;
    }
    return shard;
}

}  // namespace isect::tool
