#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "check/engine/witness.hpp"
#include "check/io/case_file.hpp"
#include "check/model/number_text.hpp"

namespace isect::tool {

namespace {

using check::FailureClass;
using check::Family;
using check::FamilyKernelReport;
using check::format_k;

std::string pad(const std::string& s, size_t width) {
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

std::string verdict(const FamilyKernelReport& k) {
    if (k.holds()) return "holds";
    return "BROKEN (" + std::to_string(k.violations) + " violations, " + std::to_string(k.classes.size()) +
           (k.classes.size() == 1 ? " class)" : " classes)");
}

std::string wrong(const Family& f, const FamilyKernelReport& k) {
    if (!f.yes_no() || k.wrong_answers == 0) return std::to_string(k.wrong_answers);
    return std::to_string(k.wrong_answers) + " (" + std::to_string(k.false_hits) + " / " + std::to_string(k.false_misses) + ")";
}

std::string error_e(const Family& f, const FamilyKernelReport& k) {
    return f.outputs.empty() ? "-" : format_k(k.measured_e) + " / " + format_k(k.error_e);
}

std::string map_range(int bin) { return bin <= -10000 ? "zero" : "[" + std::to_string(bin) + ", " + std::to_string(bin + 10) + ")"; }

/// The validity map as two tables: by log2 of the largest magnitude, and by
/// log2 of the smallest feature.
void print_map(std::ostream& out, const FamilyKernelReport& k) {
    for (int axis = 0; axis < 2; ++axis) {
        std::map<int, check::MapCell> rows;
        for (const auto& [key, cell] : k.map) {
            check::MapCell& row = rows[axis == 0 ? key.first : key.second];
            row.cases += cell.cases;
            row.wrong_answers += cell.wrong_answers;
            row.violations += cell.violations;
            row.measured_k = std::max(row.measured_k, cell.measured_k);
        }
        out << "    " << pad(axis == 0 ? "log2 M" : "log2 feature", 14) << pad("cases", 10) << pad("wrong", 9)
            << pad("violations", 12) << "widest K\n";
        for (const auto& [bin, row] : rows)
            out << "    " << pad(map_range(bin), 14) << pad(std::to_string(row.cases), 10)
                << pad(std::to_string(row.wrong_answers), 9) << pad(std::to_string(row.violations), 12)
                << (row.wrong_answers ? format_k(row.measured_k) : "-") << "\n";
    }
}

/// A witness as a case file, its expect lines from the references (the
/// real exact answer, as the file written for it says).
std::string witness_case(const FamilyResult& r, const check::Inputs& in) {
    const check::PrecisionScope scope(r.precision);
    return check::format_family_case(*r.family, in, "");
}

/// The lines of a witness, indented, less its family line.
std::string witness_lines(const FamilyResult& r, const check::Inputs& in) {
    std::string out;
    std::istringstream lines(witness_case(r, in));
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("family", 0) != 0) out += "         " + line + "\n";
    return out;
}

/// How the truth was reached: the share of cases the fast oracle decided
/// and of cases it could not settle alone (undecided, sampled, or a
/// suspected violation: the references judged them, but a confirmed class's
/// later members).
std::string truth_line(const check::FamilyCheckReport& rep) {
    char line[300];
    const double n = rep.cases ? double(rep.cases) : 1;
    if (rep.oracle == check::Oracle::slow)
        std::snprintf(line, sizeof line, "the references alone (--oracle slow), on all %llu cases",
                      (unsigned long long)rep.reference_cases);
    else
        std::snprintf(line, sizeof line,
                      "fast oracle decided %.2f%% of cases; the references judged %.2f%% (%llu sampled, 1 in 256; "
                      "a confirmed class's later members on the oracle or one reference)",
                      100 * double(rep.fast_cases) / n, 100 * double(rep.reference_cases) / n,
                      (unsigned long long)rep.sampled);
    return line;
}

/// "7.1%" (two digits after the point below 1%).
std::string format_percent(uint64_t n, uint64_t of) {
    char buf[32];
    const double p = of ? 100.0 * double(n) / double(of) : 0.0;
    std::snprintf(buf, sizeof buf, p < 1 && p > 0 ? "%.2f%%" : "%.1f%%", p);
    return buf;
}

/// Which part of the case stream a check report covers: "", ", shard 1/4",
/// or ", shards 0/4 1/4 2/4 3/4 merged".
std::string shard_text(const RunInfo& info) {
    if (!info.merged.empty()) {
        std::string s = ", shards";
        for (const std::string& m : info.merged) s += " " + m;
        return s + " merged";
    }
    return info.shard.whole() ? "" : ", shard " + info.shard.str();
}

/// What made the family's report and how its truth was reached: the lines
/// above the kernel table.
void print_run_lines(std::ostream& out, const RunInfo& info, const FamilyResult& r) {
    const Family& f = *r.family;
    const check::FamilyCheckReport& rep = r.report;
    char line[240];
    if (info.command == "replay")
        std::snprintf(line, sizeof line, "isect replay: %s, %llu case files%s\n", r.label().c_str(),
                      (unsigned long long)rep.cases,
                      r.outside_domain ? (" (" + std::to_string(r.outside_domain) + " more outside the domain)").c_str() : "");
    else if (info.command == "fuzz")
        std::snprintf(line, sizeof line, "isect fuzz: %s, %llu inputs in %.1f s (%.0f/s)\n", r.label().c_str(),
                      (unsigned long long)rep.cases, rep.seconds, rep.seconds > 0 ? double(rep.cases) / rep.seconds : 0.0);
    else
        std::snprintf(line, sizeof line, "isect %s: %s, %llu cases in %.1f s (%.0f/s), seed %llu%s\n", info.command.c_str(), r.label().c_str(),
                      (unsigned long long)rep.cases, rep.seconds, rep.seconds > 0 ? double(rep.cases) / rep.seconds : 0.0,
                      (unsigned long long)info.seed, shard_text(info).c_str());
    out << line << "  domain: " << (r.report_domain.empty() ? info.domain.str() : r.report_domain) << "\n";
    // A run by time judges what its time allowed: the same seed and this
    // count name the same cases, classes and witnesses anywhere.
    if (info.command == "check" && info.max_cases == 0 && info.shard.whole() && info.merged.empty() && rep.cases > 0)
        out << "  reproduce: --seed " << info.seed << " --cases " << rep.cases
            << " (a run by --seconds judges what its time allows; --cases names the same cases on any machine)\n";
    if (!info.domain.required.empty()) {
        out << "  requires: " << info.domain.requires_str(f);
        if (info.command == "check" && rep.cases)
            out << " (" << format_percent(rep.adapted, rep.cases) << " of the generated inputs adapted to meet them)";
        out << "\n";
    }
    for (const std::string& c : f.followed)
        for (const Family::Convention& k : f.conventions)
            if (k.name == c) out << "  convention: " << c << ", " << k.says << "\n";
    if (!rep.mix.empty()) {
        out << "  mix:";
        for (const auto& [kind, n] : rep.mix) out << " " << kind << " " << (rep.cases ? 100 * n / rep.cases : 0) << "%";
        out << "\n";
    }
    if (rep.reference_mismatches)
        out << "  REFERENCES DISAGREE on " << rep.reference_mismatches << " cases: " << rep.mismatch_message
            << (r.mismatch_path.empty() ? "" : "; written to " + r.mismatch_path) << "\n";
    else
        out << "  references: " << f.references << " agree on every case they judged\n";
    if (info.command == "check" || info.command == "diff")
        out << "  truth: " << truth_line(rep) << "\n";
    else if (info.command == "replay")
        out << "  truth: the references judged every case\n";
    else
        out << "  truth: the fast oracle on every input, the references on every finding; counts below are over the "
            << r.new_cases + r.duplicates << " findings (" << r.new_cases << " new, " << r.duplicates
            << " of a class the corpus has)\n";
    if (!r.replayed.empty()) {
        size_t failing = 0;
        for (const ReplayedFinding& p : r.replayed) failing += p.still_failing;
        out << "  findings replayed first: " << r.replayed.size() << " (" << failing << " still failing, "
            << r.replayed.size() - failing << " now passing; `isect promote FILE` moves one into the corpus)\n";
        for (const ReplayedFinding& p : r.replayed)
            out << "    " << (p.still_failing ? "still failing  " : "now passing    ") << p.path << " (" << p.kernel
                << "): " << p.why << "\n";
    }
    for (const CaseProblem& p : r.problems) out << "  FAIL " << p.path << ": " << p.why << "\n";
}

/// Where a class's witness is: written by check or fuzz, or the case file
/// replay read it from.
std::string witness_place(const RunInfo& info, const check::FailureClass& fc, const std::string& path) {
    if (info.command == "replay") return "in " + path;
    return std::string(fc.minimised ? "minimised, " : "as found, ") + (info.command == "fuzz" ? "kept in " : "written to ") + path;
}

/// The classes whose witness the text report prints in full; the others
/// name their file.
constexpr size_t kShownWitnesses = 3;

/// A claim's failure classes (a kernel's contract, a relation's), largest
/// first: each described, its witness shown (the first few in full) and
/// where its case file is.
void print_classes(std::ostream& out, const RunInfo& info, const FamilyResult& r, const std::string& who,
                   const std::vector<FailureClass>& classes, bool banded) {
    if (classes.empty()) return;
    out << "\n  " << who << ": " << classes.size() << " failure class" << (classes.size() == 1 ? "" : "es")
        << ", largest first\n";
    for (size_t c = 0; c < classes.size(); ++c) {
        const FailureClass& fc = classes[c];
        out << "    " << c + 1 << ". " << fc.count << " x " << fc.key.describe();
        // The widest band a tolerant kernel's wrong answers needed; an
        // exact or conservative one's class is named by its deciding
        // test alone (a band at rounding level would read as noise).
        if (fc.measured_k > 0 && banded) out << "; widest K " << format_k(fc.measured_k);
        out << "\n       " << (fc.minimised ? "minimised witness: " : "witness: ") << fc.why << "\n";
        if (fc.minimised && !fc.found_why.empty() && fc.found_why != fc.why)
            out << "       as found: " << fc.found_why << "\n";
        if (const std::string hint = class_hint(r, info.domain, fc); !hint.empty())
            out << "       note: " << hint << "\n";
        if (c < kShownWitnesses) out << witness_lines(r, fc.witness);
        if (!fc.in_file.empty()) out << "       in the mesh's file: " << fc.in_file << "\n";
        if (fc.witnessed_k > 0)
            out << "       K between the band's " << format_k(fc.band_k) << " and " << format_k(fc.witnessed_k)
                << ": each number of this input within " << format_k(fc.witnessed_k)
                << " roundings of the witness's, by its role, has the kernel's answer exactly\n"
                << (c < kShownWitnesses ? witness_lines(r, fc.perturbed) : "");
        if (fc.case_path)
            out << "       "
                << (fc.case_path->empty() ? std::string("NOT SAVED (see the errors below)")
                                          : witness_place(info, fc, *fc.case_path) +
                                                (fc.case_note.empty() ? "" : " (" + fc.case_note + ")"))
                << "\n";
    }
    if (classes.size() > kShownWitnesses)
        out << "    (the witnesses of classes " << kShownWitnesses + 1 << " to " << classes.size()
            << " are in their files, named above; --format json holds every one)\n";
}

/// A relation's verdict on the cases it was judged on.
std::string relation_verdict(const check::RelationReport& rel) {
    const auto side = [&](const char* s) {
        const auto at = rel.sides.find(s);
        return std::to_string(at == rel.sides.end() ? 0 : at->second);
    };
    if (rel.relation == check::RelationKind::agree) {
        if (rel.holds()) return "A and B agree on every one of " + std::to_string(rel.tried) + " cases";
        std::string v = std::to_string(rel.violations) + " of " + std::to_string(rel.tried) +
                        " cases disagree; the references side with A on " + side("A") + ", with B on " + side("B") +
                        ", with neither on " + side("neither");
        if (side("both") != "0") v += ", with both (numbers each within 1 u S) on " + side("both");
        return v;
    }
    return check::relation_name(rel.relation) +
           (rel.holds() ? " holds on every one of " + std::to_string(rel.tried) + " cases"
                        : " BROKEN on " + std::to_string(rel.violations) + " of " + std::to_string(rel.tried) + " cases");
}

/// Whether every kernel kept its contract (a relation may still be broken).
bool contracts_hold(const std::vector<FamilyResult>& results) {
    for (const FamilyResult& r : results) {
        if (r.report.reference_mismatches) return false;
        for (const FamilyKernelReport& k : r.report.kernels)
            if (!k.holds()) return false;
        for (const ReplayedFinding& p : r.replayed)
            if (p.still_failing && !p.relation) return false;
    }
    return true;
}

void print_text(std::ostream& out, const RunInfo& info, const std::vector<FamilyResult>& results) {
    if (!info.plugin_path.empty()) {
        // u of the families judged: 2^-24 for float, 2^-53 for double, or both named.
        bool single = false, dbl = false;
        for (const FamilyResult& r : results) (r.precision == check::Precision::double_ ? dbl : single) = true;
        if (results.empty()) (check::precision() == check::Precision::double_ ? dbl : single) = true;
        const std::string unit = single && dbl ? "u S (u = 2^-24 in float, 2^-53 in double)" : dbl ? "2^-53 S" : "2^-24 S";
        out << "isect " << info.command << " --plugin " << info.plugin_path << " (" << info.subject << "), contract "
            << info.contract->str() << ", numbers within " << format_k(info.error_e) << " x " << unit << "\n";
    }
    if (!info.fp_env.empty()) out << "kernels' floating-point environment: " << info.fp_env << "\n";
    for (const std::string& n : info.notes) out << "note: " << n << "\n";
    if (!info.interrupted.empty())
        out << "INTERRUPTED by " << info.interrupted
            << ": this report covers the cases judged before it; what was found is kept\n";
    if (info.command == "diff")
        out << "isect diff: " << info.subject
            << (info.tolerance > 0 ? ", numbers may differ by " + check::shortest(info.tolerance) + " u" : "")
            << "\n";
    if (!info.plugin_path.empty() || !info.fp_env.empty() || !info.interrupted.empty() || info.command == "diff")
        out << "\n";
    bool passed = info.passed(results);
    for (const FamilyResult& r : results) {
        const Family& f = *r.family;
        const check::FamilyCheckReport& rep = r.report;
        passed = passed && r.passed(info.expect_broken);
        print_run_lines(out, info, r);
        if (!rep.kernels.empty())
            out << "\n"
            << pad("kernel", 28) << pad("contract", 15) << pad("tried", 10)
            << pad(f.yes_no() ? "wrong (false hits / misses)" : "wrong answers", f.yes_no() ? 29 : 15)
            << pad("in band", 10) << pad("measured K", 12) << pad("error E", 18) << "verdict\n";
        for (const FamilyKernelReport& k : rep.kernels)
            out << pad(k.name, 28) << pad(k.contract.str(), 15) << pad(std::to_string(k.tried), 10)
                << pad(wrong(f, k), f.yes_no() ? 29 : 15) << pad(std::to_string(k.in_band), 10)
                << pad(k.wrong_answers ? format_k(k.measured_k) : "-", 12) << pad(error_e(f, k), 18) << verdict(k)
                << "\n";
        // Two numbers for one violation must say which is which: the table's
        // are the run's largest, a class's are its witness's.
        if (std::any_of(rep.kernels.begin(), rep.kernels.end(), [](const FamilyKernelReport& k) { return !k.classes.empty(); }))
            out << "  (measured K and error E: the largest over every case judged; a class's numbers are its witness's)\n";
        for (const FamilyKernelReport& k : rep.kernels)
            if (!k.domain.empty())
                out << "  " << k.name << ": its contract is claimed in " << k.domain << "; " << k.outside_domain
                    << " case" << (k.outside_domain == 1 ? "" : "s") << " outside it not judged\n";
        for (size_t i = 0; i < rep.kernels.size(); ++i) {
            const FamilyKernelReport& k = rep.kernels[i];
            if (k.stopped_at_hang)
                out << "  " << k.name << ": stopped at the first hang (no answer within " << info.timeout_ms << " ms)"
                    << (!k.hang_case.empty() ? ", its input written to " + k.hang_case : "")
                    << "\n";
            print_classes(out, info, r, k.name, k.classes, k.contract.has_band());
        }
        for (const check::RelationReport& rel : rep.relations) {
            out << "\n  " << rel.subject << ": " << relation_verdict(rel) << "\n";
            print_classes(out, info, r, rel.subject, rel.classes, false);
        }
        if (info.show_maps)
            for (size_t i = 0; i < rep.kernels.size(); ++i) {
                out << "\n  validity map of " << rep.kernels[i].name
                    << " (M the largest input magnitude; feature: " << (f.feature ? "the family's smallest feature" : "the smallest nonzero input")
                    << ")\n";
                print_map(out, rep.kernels[i]);
                if (!rep.kernels[i].map_picture.empty()) out << "    picture: " << rep.kernels[i].map_picture << "\n";
            }
        out << "\n";
    }
    for (const CaseProblem& e : info.errors) out << "ERROR " << e.why << "\n";
    if (!info.interrupted.empty())
        out << "INTERRUPTED by " << info.interrupted << " before the run's end: no verdict on what was not judged\n";
    else if (info.expect_broken)
        out << (passed ? "the contract breaks on every case, as expected\n" : "NOT every case breaks the contract\n");
    else if (info.command == "diff")
        out << (passed ? "A and B agree on every family compared\n"
                       : info.errors.empty() ? "A and B DISAGREE\n" : "the run FAILED (errors above)\n");
    else if (!info.plugin_path.empty())
        out << (passed                ? "the contract holds for every family checked\n"
                : !info.errors.empty() ? "the run FAILED (errors above)\n"
                : contracts_hold(results) ? "the contract holds; a relation is BROKEN (above)\n"
                                          : "the contract is BROKEN\n");
}

std::string md_cell(std::string s) {
    for (char& c : s)
        if (c == '|' || c == '\n') c = ' ';
    return s;
}

/// "3 x false miss (...); 1 x ...": a claim's classes on one line.
std::string class_list(const std::vector<FailureClass>& classes) {
    std::string out;
    for (const FailureClass& c : classes)
        out += (out.empty() ? "" : "; ") + std::to_string(c.count) + " x " + c.key.describe();
    return out;
}

/// The witnesses of a claim's largest classes, as the case files say them,
/// each folded under its description.
void print_md_witnesses(std::ostream& out, const RunInfo& info, const FamilyResult& r, const std::string& who,
                        const std::vector<FailureClass>& classes) {
    for (size_t c = 0; c < classes.size() && c < 3; ++c) {
        const FailureClass& fc = classes[c];
        const std::string hint = class_hint(r, info.domain, fc);
        out << "\n<details><summary>" << md_cell(r.label()) << ", " << md_cell(who) << ", class " << c + 1 << ": "
            << fc.count << " x " << md_cell(fc.key.describe()) << "</summary>\n\n"
            << (hint.empty() ? "" : md_cell(hint) + "\n\n") << "```\n"
            << witness_case(r, fc.witness) << "```\n</details>\n";
    }
}

void print_markdown(std::ostream& out, const RunInfo& info, const std::vector<FamilyResult>& results) {
    const bool passed = info.passed(results);
    out << "### isect " << info.command << ": `" << info.subject << "`";
    if (info.contract) out << ", contract `" << info.contract->str() << "`";
    if (!info.interrupted.empty())
        out << ": **interrupted** by " << info.interrupted << " (the cases judged before it)\n\n";
    else if (info.expect_broken)
        out << ", expected to break: " << (passed ? "breaks on every case" : "**not every case breaks it**") << "\n\n";
    else
        out << ": " << (passed ? "holds" : info.errors.empty() ? "**broken**" : "**failed** (errors below)") << "\n\n";
    out
        << "| family | kernel | contract | cases | wrong answers | false hits | false misses | in band | measured K | "
           "error E | verdict | classes | counterexample |\n"
        << "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|\n";
    for (const FamilyResult& r : results) {
        const Family& f = *r.family;
        for (size_t i = 0; i < r.report.kernels.size(); ++i) {
            const FamilyKernelReport& k = r.report.kernels[i];
            const std::string classes = class_list(k.classes);
            const std::string path = !k.classes.empty() && k.classes[0].case_path ? "`" + *k.classes[0].case_path + "`" : "";
            out << "| " << r.label() << " | " << md_cell(k.name) << " | " << k.contract.str() << " | " << k.tried << " | "
                << k.wrong_answers << " | " << (f.yes_no() ? std::to_string(k.false_hits) : "-") << " | "
                << (f.yes_no() ? std::to_string(k.false_misses) : "-") << " | " << k.in_band << " | "
                << (k.wrong_answers ? format_k(k.measured_k) : "-") << " | " << md_cell(error_e(f, k)) << " | "
                << (k.holds() ? "holds" : "**broken**") << " | " << md_cell(classes) << " | " << path << " |\n";
        }
        // A relation's row: its cases and violations in the kernel table's
        // cases and wrong-answer columns, no band or numbers of its own.
        for (const check::RelationReport& rel : r.report.relations) {
            const std::string path =
                !rel.classes.empty() && rel.classes[0].case_path ? "`" + *rel.classes[0].case_path + "`" : "";
            out << "| " << r.label() << " | " << md_cell(rel.subject) << " | " << check::relation_name(rel.relation) << " | " << rel.tried
                << " | " << rel.violations << " | - | - | - | - | - | " << (rel.holds() ? "holds" : "**broken**") << " | "
                << md_cell(class_list(rel.classes)) << " | " << path << " |\n";
        }
    }
    for (const FamilyResult& r : results)
        for (const CaseProblem& p : r.problems)
            out << "\n- **failed**: `" << p.path << "` (" << r.label() << "): " << md_cell(p.why);
    for (const FamilyResult& r : results)
        for (const ReplayedFinding& p : r.replayed)
            out << "\n- " << (p.still_failing ? "**still failing**" : "now passing") << ": `" << p.path << "` ("
                << r.label() << ", " << md_cell(p.kernel) << "): " << md_cell(p.why);
    for (const CaseProblem& e : info.errors) out << "\n- **error**: " << md_cell(e.why);
    std::string requires_;
    for (const std::string& n : info.domain.required) requires_ += (requires_.empty() ? "" : ", ") + n;
    out << "\n\n" << (info.command == "check" || info.command == "diff" ? "seed " + std::to_string(info.seed) + "; " : "")
        << (info.tolerance > 0 ? "numbers may differ by " + check::shortest(info.tolerance) + " u; " : "") << "domain "
        << info.domain.str() << (requires_.empty() ? "" : "; requires " + requires_) << (info.fp_env.empty() ? "" : "; kernels' floating-point environment: " + md_cell(info.fp_env))
        << "\n";
    // The validity maps, where drawn: a CI job summary shows them.
    for (const FamilyResult& r : results)
        for (const FamilyKernelReport& k : r.report.kernels)
            if (!k.map_picture.empty())
                out << "\n![validity map of " << md_cell(k.name) << " on " << md_cell(r.label()) << "](" << k.map_picture
                    << ")\n";
    // The witnesses of the largest classes, as the case files say them.
    for (const FamilyResult& r : results) {
        for (const FamilyKernelReport& k : r.report.kernels) print_md_witnesses(out, info, r, k.name, k.classes);
        for (const check::RelationReport& rel : r.report.relations)
            print_md_witnesses(out, info, r, rel.subject, rel.classes);
    }
}

std::string xml_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

/// A JUnit failure's text: every class of a claim, its witness and file.
std::string failure_body(const RunInfo& info, const FamilyResult& r, const std::vector<FailureClass>& classes) {
    std::string body;
    for (const FailureClass& fc : classes) {
        body += std::to_string(fc.count) + " x " + fc.key.describe() + ": " + fc.why + "\n";
        if (const std::string hint = class_hint(r, info.domain, fc); !hint.empty()) body += "note: " + hint + "\n";
        body += witness_case(r, fc.witness);
        if (fc.case_path) body += fc.case_path->empty() ? "NOT SAVED\n" : "written to " + *fc.case_path + "\n";
    }
    return body;
}

void print_junit(std::ostream& out, const RunInfo& info, const std::vector<FamilyResult>& results) {
    size_t tests = 0, failures = 0;
    for (const FamilyResult& r : results) {
        for (const FamilyKernelReport& k : r.report.kernels) {
            ++tests;
            failures += !info.expect_broken && !k.holds();
        }
        for (const check::RelationReport& rel : r.report.relations) {
            ++tests;
            failures += !rel.holds();
        }
        for (const ReplayedFinding& p : r.replayed) {
            ++tests;
            failures += p.still_failing;
        }
        tests += r.problems.size();
        failures += r.problems.size();
    }
    tests += info.errors.size() + (info.interrupted.empty() ? 0 : 1);
    const size_t errors = info.errors.size() + (info.interrupted.empty() ? 0 : 1);
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"isect " << info.command << " "
        << xml_escape(info.subject) << (info.contract ? " (" + info.contract->str() + ")" : "") << "\" tests=\""
        << tests << "\" failures=\"" << failures << "\" errors=\"" << errors << "\">\n";
    if (!info.interrupted.empty())
        out << "    <testcase classname=\"isect " << info.command << "\" name=\"run\" time=\"0\">\n      <error message=\"interrupted by "
            << info.interrupted << "\">the report covers the cases judged before the signal</error>\n    </testcase>\n";
    for (const CaseProblem& e : info.errors)
        out << "    <testcase classname=\"isect " << info.command << "\" name=\"" << xml_escape(e.path)
            << "\" time=\"0\">\n      <error message=\"" << xml_escape(e.why) << "\">" << xml_escape(e.why)
            << "</error>\n    </testcase>\n";
    for (const FamilyResult& r : results) {
        for (const ReplayedFinding& p : r.replayed) {
            out << "    <testcase classname=\"" << xml_escape(r.label()) << "\" name=\"" << xml_escape(p.kernel)
                << " replays " << xml_escape(p.path) << "\" time=\"0\">\n";
            if (p.still_failing) out << "      <failure message=\"" << xml_escape(p.why) << "\">still failing</failure>\n";
            out << "    </testcase>\n";
        }
        for (const CaseProblem& p : r.problems)
            out << "    <testcase classname=\"" << xml_escape(r.label()) << "\" name=\"" << xml_escape(p.path)
                << "\" time=\"0\">\n      <failure message=\"" << xml_escape(p.why) << "\">" << xml_escape(p.why)
                << "</failure>\n    </testcase>\n";
        for (size_t i = 0; i < r.report.kernels.size(); ++i) {
            const FamilyKernelReport& k = r.report.kernels[i];
            out << "    <testcase classname=\"" << xml_escape(r.label()) << "\" name=\"" << xml_escape(k.name)
                << " (" << k.contract.str() << ")\" time=\"" << r.report.seconds << "\">\n";
            if (!k.holds() && !info.expect_broken) {
                const std::string body = failure_body(info, r, k.classes);
                const std::string message = k.classes.empty() ? "broken" : k.classes[0].why;
                out << "      <failure message=\"" << xml_escape(message) << "\">" << xml_escape(body) << "</failure>\n";
            }
            out << "      <system-out>" << k.tried << " cases, " << k.wrong_answers << " wrong answers (" << k.in_band
                << " in band), measured K " << format_k(k.measured_k) << ", domain " << xml_escape(info.domain.str())
                << ", requires " << xml_escape(info.domain.requires_str(*r.family))
                << (info.fp_env.empty() ? "" : ", kernels' floating-point environment " + xml_escape(info.fp_env))
                << "</system-out>\n    </testcase>\n";
        }
        for (const check::RelationReport& rel : r.report.relations) {
            out << "    <testcase classname=\"" << xml_escape(r.label()) << "\" name=\"" << xml_escape(rel.subject)
                << " (" << check::relation_name(rel.relation) << ")\" time=\"" << r.report.seconds << "\">\n";
            if (!rel.holds()) {
                out << "      <failure message=\"" << xml_escape(relation_verdict(rel)) << "\">"
                    << xml_escape(failure_body(info, r, rel.classes))
                    << "</failure>\n";
            }
            out << "      <system-out>" << xml_escape(relation_verdict(rel)) << "</system-out>\n    </testcase>\n";
        }
    }
    out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace


/// What a class's author should know beside it: the degeneracy every member
/// found has (a precondition the kernel may forbid), or the domain edge its
/// inputs sit beyond. Empty when the class is shown on ordinary, proper
/// input.
std::string class_hint(const FamilyResult& r, const check::Domain& domain, const FailureClass& fc) {
    if (const check::Precondition* p = check::degeneracy(*r.family, fc.witness.data()))
        return "every member found breaks " + p->says + " (no proper input fails this way): if your kernel forbids such "
               "input, declare --require " + p->name;
    const std::string scale = check::scale_bucket(*r.family, fc.witness);
    if (domain.everything() && scale.rfind("ordinary", 0) != 0)
        return "inputs " + scale + ": if your kernel is not meant for them, declare the magnitudes it is meant for "
               "(--domain 2^-20:2^20, say)";
    return "";
}

void RunInfo::take_subject(const check::KernelsUnderTest& under_test) {
    subject = under_test.subject();
    domain = under_test.domain();
    if (const check::PluginHost* host = under_test.host()) {
        plugin_path = host->info().path;
        contract = under_test.plugin_contract();
        error_e = under_test.error_e();
    }
}

bool known_format(const std::string& format) {
    return format == "text" || format == "markdown" || format == "json" || format == "junit";
}

void print_report(std::ostream& out, const std::string& format, const RunInfo& info,
                  const std::vector<FamilyResult>& results) {
    if (format == "markdown") print_markdown(out, info, results);
    else if (format == "json") print_json(out, info, results);
    else if (format == "junit") print_junit(out, info, results);
    else print_text(out, info, results);
}

}  // namespace isect::tool
