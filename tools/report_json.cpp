// The JSON report: written (print_json) and read back (read_json_report)
// in one place, so that what one writes the other reads.
#include <cmath>
#include <nlohmann/json.hpp>

#include "check/engine/witness.hpp"
#include "check/io/case_file.hpp"
#include "report.hpp"

namespace isect::tool {

using check::FailureClass;
using check::Family;
using check::FamilyKernelReport;

namespace {

/// A number as JSON has none for inf and NaN: "inf", "-inf", null.
nlohmann::json number(double x) {
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    if (std::isnan(x)) return nullptr;
    return x;
}

/// An input as a list of number(x); a NaN in it is "nan" (an input is
/// read back exactly).
nlohmann::json numbers(const check::Inputs& in) {
    nlohmann::json out = nlohmann::json::array();
    for (double x : in) out.push_back(std::isnan(x) ? nlohmann::json("nan") : number(x));
    return out;
}

}  // namespace

/// A claim's failure classes (a kernel's contract's, a relation's).
nlohmann::json classes_json(const FamilyResult& r, const RunInfo& info, const std::vector<FailureClass>& classes) {
    using nlohmann::json;
    json out = json::array();
    for (const FailureClass& fc : classes) {
        json cj = {{"count", fc.count}, {"kind", check::failure_kind_name(fc.key.kind)},
                   {"what", fc.key.what}, {"decided", fc.key.decided},
                   {"scale", fc.key.scale}, {"why", fc.why},   {"measured_k", number(fc.measured_k)},
                   {"minimised", fc.minimised}, {"witness", numbers(fc.witness)},
                   {"hint", class_hint(r, info.domain, fc)}, {"first_case", fc.first_case},
                   {"found", numbers(fc.found)}, {"found_case", fc.found_case}, {"found_why", fc.found_why}};
        if (fc.case_path) cj["case"] = fc.case_path->empty() ? json(nullptr) : json(*fc.case_path);
        if (!fc.found_neighbours.empty()) {
            json around = json::array();
            for (const auto& t : fc.found_neighbours) around.push_back(numbers(std::vector<double>(t.begin(), t.end())));
            cj["found_neighbours"] = around;
        }
        if (!fc.in_file.empty()) cj["in_file"] = fc.in_file;
        if (fc.witnessed_k > 0) {
            cj["band_k"] = number(fc.band_k);
            cj["witnessed_k"] = number(fc.witnessed_k);
            cj["perturbed"] = numbers(fc.perturbed);
        }
        out.push_back(cj);
    }
    return out;
}

/// A relation's part of a family's report.
nlohmann::json relation_json(const FamilyResult& r, const RunInfo& info, const check::RelationReport& rel) {
    return {{"relation", check::relation_name(rel.relation)},
            {"subject", rel.subject},
            {"cases", rel.tried},
            {"violations", rel.violations},
            {"sides", rel.sides},
            {"verdict", rel.holds() ? "holds" : "broken"},
            {"classes", classes_json(r, info, rel.classes)}};
}

/// A kernel's part of a family's report: its counts, verdict, classes and
/// validity map.
nlohmann::json kernel_json(const FamilyResult& r, const RunInfo& info, const FamilyKernelReport& k) {
    using nlohmann::json;
    const Family& f = *r.family;
    json kj;
    kj["family"] = f.name;
    kj["kernel"] = k.name;
    kj["contract"] = k.contract.str();
    kj["error_e"] = number(k.error_e);
    if (!k.domain.empty()) {
        kj["domain"] = k.domain;
        kj["outside_domain"] = k.outside_domain;
    }
    kj["cases"] = k.tried;
    kj["wrong_answers"] = k.wrong_answers;
    if (f.yes_no()) {
        kj["false_hits"] = k.false_hits;
        kj["false_misses"] = k.false_misses;
    }
    kj["in_band"] = k.in_band;
    kj["measured_k"] = number(k.measured_k);
    kj["measured_e"] = number(k.measured_e);
    kj["violations"] = k.violations;
    kj["verdict"] = k.holds() ? "holds" : "broken";
    if (k.stopped_at_hang) kj["stopped_at_hang"] = true;
    if (!k.hang_case.empty()) kj["hang_case"] = k.hang_case;
    if (k.hang_input) kj["hang_input"] = numbers(*k.hang_input);
    if (!k.classes.empty() && k.classes[0].case_path) kj["counterexample"] = *k.classes[0].case_path;
    kj["classes"] = classes_json(r, info, k.classes);
    kj["map"] = json::array();
    for (const auto& [key, cell] : k.map)
        kj["map"].push_back({{"log2_m", key.first},
                             {"log2_feature", key.second},
                             {"cases", cell.cases},
                             {"wrong_answers", cell.wrong_answers},
                             {"violations", cell.violations},
                             {"measured_k", number(cell.measured_k)}});
    if (!k.map_picture.empty()) kj["map_picture"] = k.map_picture;
    return kj;
}

/// A family's part of the report: its scope, its cases and how they were
/// judged, what was replayed, each kernel's part.
nlohmann::json family_json(const FamilyResult& r, const RunInfo& info) {
    using nlohmann::json;
    const Family& f = *r.family;
    const check::FamilyCheckReport& rep = r.report;
    json fam;
    fam["family"] = f.name;
    fam["precision"] = check::precision_name(r.precision);
    fam["conventions"] = f.followed;
    fam["requires"] = json::array();
    for (const std::string& n : info.domain.required)
        for (const check::Precondition& p : f.preconditions)
            if (p.name == n) fam["requires"].push_back(n);
    if (info.command == "check" || info.command == "diff") fam["adapted"] = rep.adapted;
    {
        // The family's own precision: its domain and its unit.
        const check::PrecisionScope scope(r.precision);
        fam["domain"] = r.report_domain.empty() ? info.domain.str() : r.report_domain;
        fam["unit"] = check::unit_name();
    }
    fam["cases"] = rep.cases;
    fam["seconds"] = rep.seconds;
    fam["cases_per_second"] = rep.seconds > 0 ? double(rep.cases) / rep.seconds : 0.0;
    fam["mix"] = rep.mix;
    fam["references_agree"] = rep.reference_mismatches == 0;
    fam["oracle"] = rep.oracle == check::Oracle::fast ? "fast" : "slow";
    fam["fast_oracle_cases"] = rep.fast_cases;
    fam["reference_cases"] = rep.reference_cases;
    fam["sampled"] = rep.sampled;
    if (rep.reference_mismatches) {
        fam["reference_mismatches"] = rep.reference_mismatches;
        fam["mismatch"] = rep.mismatch_message;
        if (!r.mismatch_path.empty()) fam["mismatch_case"] = r.mismatch_path;
        if (rep.mismatch) fam["mismatch_input"] = numbers(*rep.mismatch);
        fam["mismatch_case_number"] = rep.mismatch_case;
    }
    fam["findings_replayed"] = json::array();
    for (const ReplayedFinding& p : r.replayed)
        fam["findings_replayed"].push_back(
            {{"case", p.path}, {"kernel", p.kernel}, {"still_failing", p.still_failing}, {"why", p.why}});
    fam["problems"] = json::array();
    for (const CaseProblem& p : r.problems) fam["problems"].push_back({{"case", p.path}, {"why", p.why}});
    if (info.command == "replay") fam["outside_domain"] = r.outside_domain;
    if (info.command == "fuzz") {
        fam["new_cases"] = r.new_cases;
        fam["duplicates"] = r.duplicates;
    }
    fam["holds"] = r.holds();
    fam["passed"] = r.passed(info.expect_broken);
    fam["kernels"] = json::array();
    for (const FamilyKernelReport& k : rep.kernels) fam["kernels"].push_back(kernel_json(r, info, k));
    fam["relations"] = json::array();
    for (const check::RelationReport& rel : rep.relations) fam["relations"].push_back(relation_json(r, info, rel));
    return fam;
}

void print_json(std::ostream& out, const RunInfo& info, const std::vector<FamilyResult>& results) {
    using nlohmann::json;
    json run;
    run["command"] = info.command;
    run["subject"] = info.subject;
    if (info.expect_broken) run["expect_broken"] = true;
    if (!info.plugin_path.empty()) run["plugin"] = info.plugin_path;
    if (info.contract) {
        run["contract"] = info.contract->str();
        run["error_e"] = number(info.error_e);
    }
    if (info.command == "diff") run["tolerance"] = info.tolerance;
    if (info.command == "check" || info.command == "diff") {
        run["seed"] = info.seed;
        run["shard"] = info.shard.str();
        if (info.max_cases) run["max_cases"] = info.max_cases;
        run["jobs"] = info.jobs;
        if (!info.merged.empty()) run["merged"] = info.merged;
    }
    if (info.timeout_ms) run["timeout_ms"] = info.timeout_ms;
    run["show_maps"] = info.show_maps;
    run["domain"] = info.domain.str();
    run["domain_lo"] = number(info.domain.lo);
    run["domain_hi"] = number(info.domain.hi);
    run["requires"] = info.domain.required;
    run["conventions"] = info.domain.conventions;
    if (!info.fp_env.empty()) run["fp_env"] = info.fp_env;
    run["notes"] = info.notes;
    run["interrupted"] = info.interrupted.empty() ? nlohmann::json(nullptr) : nlohmann::json(info.interrupted);
    run["errors"] = json::array();
    for (const CaseProblem& e : info.errors) run["errors"].push_back({{"path", e.path}, {"why", e.why}});
    if (info.command == "replay") {
        run["cases"] = json::array();
        for (const RunInfo::CaseOutcome& c : info.cases)
            run["cases"].push_back({{"path", c.path},
                                    {"family", c.family},
                                    {"precision", c.precision},
                                    {"status", c.status},
                                    {"why", c.why}});
    }
    bool holds = true;
    run["families"] = json::array();
    for (const FamilyResult& r : results) {
        holds = holds && r.holds();
        run["families"].push_back(family_json(r, info));
    }
    run["holds"] = holds;
    run["passed"] = info.passed(results);
    out << run.dump(2) << "\n";
}


namespace {

using nlohmann::json;

/// Why a report cannot be read, naming where in it.
struct BadReport : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Reads fields of one object of a report, naming it in errors
/// ("families[2].kernels[0]").
class Fields {
public:
    Fields(const json& j, std::string where) : j_(j), where_(std::move(where)) {
        if (!j_.is_object()) throw BadReport(where_ + ": not an object");
    }
    bool has(const char* key) const { return j_.contains(key) && !j_[key].is_null(); }
    const json& at(const char* key) const {
        if (!j_.contains(key)) throw BadReport(where_ + ": no '" + key + "'");
        return j_[key];
    }
    std::string text(const char* key) const {
        const json& v = at(key);
        if (!v.is_string()) throw BadReport(where_ + "." + key + ": not a string");
        return v.get<std::string>();
    }
    uint64_t whole(const char* key) const {
        const json& v = at(key);
        if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
            throw BadReport(where_ + "." + key + ": not a whole number");
        return v.get<uint64_t>();
    }
    bool flag(const char* key) const {
        const json& v = at(key);
        if (!v.is_boolean()) throw BadReport(where_ + "." + key + ": not true or false");
        return v.get<bool>();
    }
    /// A number as number() writes it: a JSON number, "inf", "-inf",
    /// "nan" or null (NaN).
    double real(const char* key) const { return real_of(at(key), where_ + "." + key); }
    check::Inputs reals(const char* key) const { return reals_of(at(key), where_ + "." + key); }
    /// A list of lists of numbers (a class's found_neighbours).
    std::vector<check::Inputs> real_rows(const char* key) const {
        const json& v = at(key);
        if (!v.is_array()) throw BadReport(where_ + "." + key + ": not a list of lists of numbers");
        std::vector<check::Inputs> out;
        for (size_t i = 0; i < v.size(); ++i) out.push_back(reals_of(v[i], where_ + "." + key + "[" + std::to_string(i) + "]"));
        return out;
    }
    /// The objects of a list field, each with its place.
    std::vector<Fields> list(const char* key) const {
        const json& v = at(key);
        if (!v.is_array()) throw BadReport(where_ + "." + key + ": not a list");
        std::vector<Fields> out;
        for (size_t i = 0; i < v.size(); ++i) out.emplace_back(v[i], where_ + "." + key + "[" + std::to_string(i) + "]");
        return out;
    }
    const std::string& where() const { return where_; }

private:
    static check::Inputs reals_of(const json& v, const std::string& where) {
        if (!v.is_array()) throw BadReport(where + ": not a list of numbers");
        check::Inputs out;
        for (size_t i = 0; i < v.size(); ++i) out.push_back(real_of(v[i], where + "[" + std::to_string(i) + "]"));
        return out;
    }
    static double real_of(const json& v, const std::string& where) {
        if (v.is_number()) return v.get<double>();
        if (v.is_null()) return std::nan("");
        if (v.is_string()) {
            const std::string s = v.get<std::string>();
            if (s == "inf") return INFINITY;
            if (s == "-inf") return -INFINITY;
            if (s == "nan") return std::nan("");
        }
        throw BadReport(where + ": not a number");
    }
    const json& j_;
    std::string where_;
};

/// A class of a claim: a kernel's contract (who, its name; what, the
/// contract) or a relation (who, its subject; what, the relation).
check::FailureClass read_class(const Fields& c, const std::string& who, const std::string& what) {
    check::FailureClass fc;
    fc.key.kernel = who;
    fc.key.contract = what;
    const auto kind = check::failure_kind_named(c.text("kind"));
    if (!kind) throw BadReport(c.where() + ".kind: '" + c.text("kind") + "' is no kind of failure");
    fc.key.kind = *kind;
    fc.key.what = c.text("what");
    fc.key.decided = c.text("decided");
    fc.key.scale = c.text("scale");
    fc.count = c.whole("count");
    fc.measured_k = c.real("measured_k");
    fc.witness = c.reals("witness");
    fc.why = c.text("why");
    fc.minimised = c.flag("minimised");
    fc.first_case = c.whole("first_case");
    fc.found = c.reals("found");
    fc.found_case = c.whole("found_case");
    fc.found_why = c.text("found_why");
    if (c.has("found_neighbours"))
        for (const std::vector<double>& t : c.real_rows("found_neighbours")) {
            if (t.size() != 9) throw BadReport(c.where() + ".found_neighbours: a triangle of " + std::to_string(t.size()) + " numbers, not 9");
            std::array<double, 9> tri{};
            std::copy(t.begin(), t.end(), tri.begin());
            fc.found_neighbours.push_back(tri);
        }
    if (c.has("in_file")) fc.in_file = c.text("in_file");
    if (c.has("witnessed_k")) {
        fc.band_k = c.real("band_k");
        fc.witnessed_k = c.real("witnessed_k");
        fc.perturbed = c.reals("perturbed");
    }
    if (c.at("case").is_string()) fc.case_path = c.text("case");
    else if (c.at("case").is_null()) fc.case_path = "";
    return fc;
}

FamilyKernelReport read_kernel(const Fields& kj, const Family& f) {
    FamilyKernelReport k;
    k.name = kj.text("kernel");
    const auto contract = check::Contract::parse(kj.text("contract"));
    if (!contract) throw BadReport(kj.where() + ".contract: '" + kj.text("contract") + "' is no contract");
    k.contract = *contract;
    k.error_e = kj.real("error_e");
    if (kj.has("domain")) {
        k.domain = kj.text("domain");
        k.outside_domain = kj.whole("outside_domain");
    }
    k.tried = kj.whole("cases");
    k.wrong_answers = kj.whole("wrong_answers");
    if (f.yes_no()) {
        k.false_hits = kj.whole("false_hits");
        k.false_misses = kj.whole("false_misses");
    }
    k.in_band = kj.whole("in_band");
    k.measured_k = kj.real("measured_k");
    k.measured_e = kj.real("measured_e");
    k.violations = kj.whole("violations");
    k.stopped_at_hang = kj.has("stopped_at_hang") && kj.flag("stopped_at_hang");
    if (kj.has("hang_case")) k.hang_case = kj.text("hang_case");
    if (kj.has("hang_input")) k.hang_input = kj.reals("hang_input");
    for (const Fields& c : kj.list("classes")) k.classes.push_back(read_class(c, k.name, k.contract.str()));
    for (const Fields& m : kj.list("map")) {
        check::MapCell& cell = k.map[{int(m.real("log2_m")), int(m.real("log2_feature"))}];
        cell.cases = m.whole("cases");
        cell.wrong_answers = m.whole("wrong_answers");
        cell.violations = m.whole("violations");
        cell.measured_k = m.real("measured_k");
    }
    if (kj.has("map_picture")) k.map_picture = kj.text("map_picture");
    return k;
}

check::RelationReport read_relation(const Fields& rj) {
    check::RelationReport rel;
    const std::string name = rj.text("relation");
    const std::optional<check::RelationKind> kind = check::relation_named(name);
    if (!kind) throw BadReport(rj.where() + ".relation: '" + name + "' is no relation");
    rel.relation = *kind;
    rel.subject = rj.text("subject");
    rel.tried = rj.whole("cases");
    rel.violations = rj.whole("violations");
    const json& sides = rj.at("sides");
    if (!sides.is_object()) throw BadReport(rj.where() + ".sides: not an object");
    for (const auto& [side, n] : sides.items()) {
        if (!n.is_number_unsigned()) throw BadReport(rj.where() + ".sides." + side + ": not a whole number");
        rel.sides[side] = n.get<uint64_t>();
    }
    for (const Fields& c : rj.list("classes")) rel.classes.push_back(read_class(c, rel.subject, name));
    return rel;
}

FamilyResult read_family(const Fields& fj, const RunInfo& info) {
    FamilyResult r;
    r.family = check::find_family(fj.text("family"));
    if (!r.family) throw BadReport(fj.where() + ".family: no family named '" + fj.text("family") + "'");
    if (fj.has("conventions")) {
        check::Domain declared = info.domain;
        declared.conventions.clear();
        for (const json& c : fj.at("conventions")) {
            if (!c.is_string() || check::conventions_of(*r.family, {c.get<std::string>()}).empty())
                throw BadReport(fj.where() + ".conventions: not a list of " + r.family->name + "'s conventions");
            declared.conventions.push_back(c.get<std::string>());
        }
        r.family = &check::declared_family(*r.family, declared);
    }
    const std::string precision = fj.text("precision");
    if (precision != "float" && precision != "double")
        throw BadReport(fj.where() + ".precision: '" + precision + "' is not float or double");
    r.precision = precision == "double" ? check::Precision::double_ : check::Precision::single;
    check::FamilyCheckReport& rep = r.report;
    rep.family = r.family->name;
    rep.adapted = fj.whole("adapted");
    rep.cases = fj.whole("cases");
    rep.seconds = fj.real("seconds");
    const json& mix = fj.at("mix");
    if (!mix.is_object()) throw BadReport(fj.where() + ".mix: not an object");
    for (const auto& [kind, n] : mix.items()) {
        if (!n.is_number_unsigned()) throw BadReport(fj.where() + ".mix." + kind + ": not a whole number");
        rep.mix[kind] = n.get<uint64_t>();
    }
    rep.oracle = fj.text("oracle") == "slow" ? check::Oracle::slow : check::Oracle::fast;
    rep.fast_cases = fj.whole("fast_oracle_cases");
    rep.reference_cases = fj.whole("reference_cases");
    rep.sampled = fj.whole("sampled");
    if (fj.has("reference_mismatches")) {
        rep.reference_mismatches = fj.whole("reference_mismatches");
        rep.mismatch_message = fj.text("mismatch");
        if (fj.has("mismatch_case")) r.mismatch_path = fj.text("mismatch_case");
        if (fj.has("mismatch_input")) rep.mismatch = fj.reals("mismatch_input");
        if (fj.has("mismatch_case_number")) rep.mismatch_case = fj.whole("mismatch_case_number");
    }
    for (const Fields& p : fj.list("findings_replayed"))
        r.replayed.push_back({p.text("case"), p.text("kernel"), p.flag("still_failing"), p.text("why")});
    for (const Fields& p : fj.list("problems")) r.problems.push_back({p.text("case"), p.text("why")});
    for (const Fields& k : fj.list("kernels")) rep.kernels.push_back(read_kernel(k, *r.family));
    if (fj.has("relations"))
        for (const Fields& rel : fj.list("relations")) rep.relations.push_back(read_relation(rel));
    rep.interrupted = !info.interrupted.empty();
    r.report_domain = info.domain.str();
    return r;
}

}  // namespace

std::string read_json_report(const std::string& text, RunInfo& info, std::vector<FamilyResult>& results) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        return std::string("not JSON: ") + e.what();
    }
    try {
        const Fields run(j, "report");
        info = RunInfo{};
        info.command = run.text("command");
        if (info.command != "check" && info.command != "diff")
            return "a report of isect " + info.command + ", not of isect check or diff";
        if (info.command == "diff") info.tolerance = run.real("tolerance");
        info.subject = run.text("subject");
        if (run.has("plugin")) info.plugin_path = run.text("plugin");
        if (run.has("contract")) {
            info.contract = check::Contract::parse(run.text("contract"));
            if (!info.contract) throw BadReport("report.contract: '" + run.text("contract") + "' is no contract");
            info.error_e = run.real("error_e");
        }
        info.seed = run.whole("seed");
        std::string why;
        const auto shard = check::Shard::parse(run.text("shard"), why);
        if (!shard) throw BadReport("report.shard: " + why);
        info.shard = *shard;
        if (run.has("max_cases")) info.max_cases = run.whole("max_cases");
        info.jobs = run.whole("jobs");
        if (run.has("timeout_ms")) info.timeout_ms = int(run.whole("timeout_ms"));
        info.show_maps = run.flag("show_maps");
        info.domain.lo = run.real("domain_lo");
        info.domain.hi = run.real("domain_hi");
        const json& required = run.at("requires");
        if (!required.is_array()) throw BadReport("report.requires: not a list");
        for (const json& r : required) {
            if (!r.is_string()) throw BadReport("report.requires: not a list of names");
            info.domain.required.push_back(r.get<std::string>());
        }
        if (run.has("conventions"))
            for (const json& c : run.at("conventions")) {
                if (!c.is_string()) throw BadReport("report.conventions: not a list of names");
                info.domain.conventions.push_back(c.get<std::string>());
            }
        if (run.has("fp_env")) info.fp_env = run.text("fp_env");
        if (run.has("interrupted")) info.interrupted = run.text("interrupted");
        for (const Fields& e : run.list("errors")) info.errors.push_back({e.text("path"), e.text("why")});
        results.clear();
        for (const Fields& f : run.list("families")) results.push_back(read_family(f, info));
    } catch (const BadReport& e) {
        return e.what();
    } catch (const json::exception& e) {
        return e.what();
    }
    return "";
}

}  // namespace isect::tool
