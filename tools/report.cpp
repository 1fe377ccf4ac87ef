#include "report.hpp"

#include <cstdio>
#include <map>
#include <string>

namespace isect::tool {

namespace {

std::string pad(const std::string& s, size_t width) { return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' '); }

/// The lines every report starts with: family, cases, time, seed, the
/// generator mix, and whether the references agreed.
void print_header(std::ostream& out, const std::string& family, uint64_t cases, double seconds, uint64_t seed,
                  const std::map<std::string, uint64_t>& mix, uint64_t mismatches, const std::string& message,
                  const std::string& references) {
    char line[200];
    std::snprintf(line, sizeof line, "isect check: %s, %llu cases in %.1f s, seed %llu\n", family.c_str(),
                  (unsigned long long)cases, seconds, (unsigned long long)seed);
    out << line << "  mix:";
    for (const auto& [kind, n] : mix) out << " " << kind << " " << (cases ? 100 * n / cases : 0) << "%";
    out << "\n";
    if (mismatches)
        out << "  REFERENCES DISAGREE on " << mismatches << " cases: " << message << "\n";
    else
        out << "  references: " << references << " agree on every case\n";
}

}  // namespace

void print_check_report(std::ostream& out, const check::CheckReport& report, uint64_t seed) {
    char line[160];
    print_header(out, "aabb_triangle", report.cases, report.seconds, seed, report.mix, report.reference_mismatches,
                 report.mismatch_message, "clip (Boost rationals) and cgal");
    out << "\n"
        << pad("kernel", 14) << pad("contract", 15) << pad("tried", 10) << pad("false hits", 12)
        << pad("false misses", 14) << pad("in band", 14) << pad("measured K", 12) << "verdict\n";
    for (const check::KernelReport& k : report.kernels) {
        const std::string in_band = std::to_string(k.in_band) + " (K=" + check::format_k(k.band_k()) + ")";
        const bool any = k.false_hits + k.false_misses > 0;
        out << pad(k.name, 14) << pad(k.contract.str(), 15) << pad(std::to_string(k.tried), 10)
            << pad(std::to_string(k.false_hits), 12) << pad(std::to_string(k.false_misses), 14) << pad(in_band, 14)
            << pad(any ? check::format_k(k.measured_k) : "-", 12)
            << (k.holds() ? "holds" : "BROKEN (" + std::to_string(k.violations) + " violations)") << "\n";
    }
    for (const check::KernelReport& k : report.kernels) {
        if (k.holds()) continue;
        std::snprintf(line, sizeof line, "  %s: first violation at case %llu, after %.3f s\n", k.name.c_str(),
                      (unsigned long long)k.first_violation_case, k.first_violation_seconds);
        out << line;
    }
}

void print_family_report(std::ostream& out, const check::Family& f, const check::FamilyCheckReport& report,
                         uint64_t seed) {
    print_header(out, f.name, report.cases, report.seconds, seed, report.mix, report.reference_mismatches,
                 report.mismatch_message, f.references);
    out << "\n"
        << pad("kernel", 28) << pad("contract", 15) << pad("tried", 10) << pad("wrong answers", 15)
        << pad("in band", 10) << pad("measured K", 12) << pad("error E", 18) << "verdict\n";
    for (const check::FamilyKernelReport& k : report.kernels) {
        const std::string e = f.values.empty() ? "-"
                                               : check::format_k(k.measured_e) + " / " + check::format_k(k.error_e);
        out << pad(k.name, 28) << pad(k.contract.str(), 15) << pad(std::to_string(k.tried), 10)
            << pad(std::to_string(k.wrong_answers), 15) << pad(std::to_string(k.in_band), 10)
            << pad(k.wrong_answers ? check::format_k(k.measured_k) : "-", 12) << pad(e, 18)
            << (k.holds() ? "holds" : "BROKEN (" + std::to_string(k.violations) + " violations)") << "\n";
    }
    for (const check::FamilyKernelReport& k : report.kernels)
        if (!k.holds())
            out << "  " << k.name << ": first violation at case " << k.first_violation_case << ": "
                << k.counterexample_why << "\n";
}

}  // namespace isect::tool
