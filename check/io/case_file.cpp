#include "check/io/case_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include <mpfr.h>

#include "check/model/number_text.hpp"

namespace isect::check {

std::string CaseError::str() const {
    // Line 0: about the whole file (a key it lacks, a file that is not there).
    return path + (line > 0 ? ":" + std::to_string(line) : "") + ": " + message;
}

namespace {

/// Whether a token that strtof or strtod read as 0 writes zero: MPFR reads
/// it with an exponent range no decimal leaves, so 1e-400 is not zero.
bool writes_zero(const char* token) {
    mpfr_t v;
    mpfr_init2(v, 64);
    mpfr_strtofr(v, token, nullptr, 0, MPFR_RNDN);
    const bool zero = mpfr_zero_p(v);
    mpfr_clear(v);
    return zero;
}

/// Reads a float or a double: the whole token, no overflow to inf, no
/// nonzero number flushed to zero.
template <class T> bool parse_number(const std::string& token, T& out, std::string& why) {
    const char* begin = token.c_str();
    const char* name = sizeof(T) == sizeof(float) ? "float" : "double";
    char* end = nullptr;
    errno = 0;
    const T x = sizeof(T) == sizeof(float) ? T(std::strtof(begin, &end)) : T(std::strtod(begin, &end));
    if (end == begin || *end != '\0') {
        why = "'" + token + "' is not a number";
        return false;
    }
    if (errno == ERANGE && std::isinf(x)) {
        why = "'" + token + "' overflows " + name;
        return false;
    }
    if (errno == ERANGE && x == 0 && !writes_zero(begin)) {  // a written zero is fine
        why = "'" + token + "' underflows " + name + " to zero";
        return false;
    }
    out = x;
    return true;
}

}  // namespace

bool parse_float(const std::string& token, float& out, std::string& why) { return parse_number(token, out, why); }
bool parse_double(const std::string& token, double& out, std::string& why) { return parse_number(token, out, why); }

namespace {

/// Whether a token says which float (or double) it means: exactly; as %.9g
/// (%.17g) writes it, trailing zeros dropped; or as its shortest round-trip
/// decimal given to its precision, at least 7 (15) digits, or fewer for a
/// subnormal, which has fewer bits (what isect writes: format_as). A short
/// decimal that rounds ("0.1", "1e-6", "5.59544") is a value a reader may
/// think exact.
template <class T> bool names_a(const std::string& token, T x) {
    if (!std::isfinite(x) || names_exactly(token, x, Digits<T>::bits)) return true;
    if (token.size() > 1 && (token[1] == 'x' || token[1] == 'X' || token[2] == 'x')) return false;  // a rounded hexfloat
    const std::string digits = significant_digits(token);
    if (int(digits.size()) >= Digits<T>::full || digits == significant_digits(full_digits(x))) return true;
    if (digits != significant_digits(shortest(x))) return false;
    return int(digits.size()) >= Digits<T>::enough || std::fabs(x) < std::numeric_limits<T>::min();
}

/// "0.100000001 (0x1.99999ap-4)": a number as both people and C read it.
template <class T> std::string both_ways(T x) {
    char text[80];
    std::snprintf(text, sizeof text, "%s (%a)", full_digits(x).c_str(), double(x));
    return text;
}

/// Reads one number of scalar T into out; says whether it parsed, and
/// whether the token names it.
template <class T> bool read_one(const std::string& token, double& out, bool& names, std::string& shown, std::string& why) {
    T x = 0;
    if (!parse_number(token, x, why)) return false;
    out = x;
    names = names_a(token, x);
    if (!names) shown = both_ways(x);
    return true;
}

struct Entry {
    int line = 0;
    std::vector<std::string> values;
};

/// Reads a key's numbers into out, in the case's precision, appending
/// errors, and a warning (an error when strict) for each number that is not
/// exactly a float (or double).
void read_numbers(const std::string& path, const std::string& key, const Entry& e, Precision p, double* out,
                  bool strict, std::vector<CaseError>& errors, std::vector<std::string>& warnings) {
    std::set<std::string> named;  // a value written twice on the line is named once
    for (size_t i = 0; i < e.values.size(); ++i) {
        std::string why, shown;
        bool names = false;
        const bool ok = p == Precision::single ? read_one<float>(e.values[i], out[i], names, shown, why)
                                               : read_one<double>(e.values[i], out[i], names, shown, why);
        if (!ok) {
            errors.push_back({path, e.line, key + ": " + why});
        } else if (!names && named.insert(e.values[i]).second) {
            const CaseError rounded{path, e.line,
                                    key + ": '" + e.values[i] + "' is not a " + precision_name(p) + "; it reads as " +
                                        shown};
            if (strict) errors.push_back({path, e.line, rounded.message + " (--strict)"});
            else warnings.push_back(rounded.str());
        }
    }
}

/// A case of family f: its keys, expect, expect.VALUE lines.
ReadResult decode_family(const Family& f, const std::string& path, const std::string& origin,
                         const std::map<std::string, Entry>& keys, bool strict) {
    std::vector<CaseError> errors;
    FamilyCase c;
    c.path = path;
    c.origin = origin;
    c.family = &f;
    c.in.assign(f.size(), 0.0);
    bool counts_ok = true;
    std::set<std::string> known = {"family", "expect", "precision", "convention", "relation"};
    if (const auto rel = keys.find("relation"); rel != keys.end()) {
        for (const std::string& name : rel->second.values) {
            const std::optional<RelationKind> kind = relation_named(name);
            if (!kind || *kind == RelationKind::agree)
                errors.push_back({path, rel->second.line, "relation: '" + name + "' is not symmetric, monotone, watertight or rotation"});
            else if (const std::string why = relation_unsupported(f, *kind); !why.empty())
                errors.push_back({path, rel->second.line, "relation: " + why});
            else if (std::find(c.relations.begin(), c.relations.end(), *kind) == c.relations.end())
                c.relations.push_back(*kind);
        }
        if (rel->second.values.empty()) errors.push_back({path, rel->second.line, "relation: names no relation"});
    }
    if (const auto conv = keys.find("convention"); conv != keys.end()) {
        // The conventions the case's truth follows (Family::conventions).
        Domain declared;
        for (const std::string& name : conv->second.values) {
            if (conventions_of(f, {name}).empty()) {
                std::string has;
                for (const Family::Convention& k : f.conventions) has += (has.empty() ? "" : ", ") + k.name;
                errors.push_back({path, conv->second.line,
                                  "convention: '" + name + "' is not one of " + f.name + "'s (" +
                                      (has.empty() ? "it has none" : has) + ")"});
            }
            declared.conventions.push_back(name);
        }
        c.family = &declared_family(f, declared);
    }
    if (const auto p = keys.find("precision"); p != keys.end()) {
        const std::vector<std::string>& w = p->second.values;
        if (w.size() == 1 && (w[0] == "float" || w[0] == "double"))
            c.precision = w[0] == "float" ? Precision::single : Precision::double_;
        else
            errors.push_back({path, p->second.line, "precision: takes 'float' or 'double'"});
    }
    // Messages name numbers as the case's precision writes them.
    const PrecisionScope scope(c.precision);
    for (const InputKey& spec : f.inputs) {
        known.insert(spec.key);
        const auto it = keys.find(spec.key);
        if (it == keys.end()) {
            errors.push_back({path, 0, "missing key '" + spec.key + "'"});
            counts_ok = false;
        } else if (it->second.values.size() != size_t(spec.count)) {
            errors.push_back({path, it->second.line,
                              spec.key + ": takes " + std::to_string(spec.count) + " numbers, found " +
                                  std::to_string(it->second.values.size())});
            counts_ok = false;
        } else {
            read_numbers(path, spec.key, it->second, c.precision, c.in.data() + f.offset(spec.key), strict, errors,
                         c.warnings);
        }
    }
    const auto expect = keys.find("expect");
    std::string names;
    for (const std::string& a : f.answers) names += (names.empty() ? "'" : ", '") + a + "'";
    if (expect == keys.end()) {
        errors.push_back({path, 0, "missing key 'expect'"});
    } else if (expect->second.values.size() != 1 || f.answer_index(expect->second.values[0]) < 0) {
        std::string got;
        for (const auto& v : expect->second.values) got += (got.empty() ? "" : " ") + v;
        errors.push_back({path, expect->second.line, "expect: '" + got + "' is not one of " + names});
    } else {
        c.expect = f.answer_index(expect->second.values[0]);
    }
    for (const std::string& v : f.outputs) {
        const auto it = keys.find("expect." + v);
        known.insert("expect." + v);
        if (it == keys.end()) continue;
        // expect.NAME X, or expect.NAME X +- TOL (judged against the exact value).
        const std::vector<std::string>& w = it->second.values;
        const auto number = [](const std::string& text, double& x) {
            char* end = nullptr;
            x = std::strtod(text.c_str(), &end);
            return end != text.c_str() && *end == '\0';
        };
        double x = 0, tol = 0;
        std::string got;
        for (const std::string& word : w) got += (got.empty() ? "" : " ") + word;
        if (w.size() == 1 && number(w[0], x)) {
            c.expect_values[v] = x;
        } else if (w.size() == 3 && w[1] == "+-" && number(w[0], x) && number(w[2], tol) && std::isfinite(tol) &&
                   tol >= 0) {
            c.expect_values[v] = x;
            c.expect_tolerance[v] = tol;
        } else {
            errors.push_back({path, it->second.line,
                              "expect." + v + ": '" + got + "' is not a number, or a number +- a tolerance (0.9 +- 1e-6)"});
        }
    }
    // neighbour.1, neighbour.2, ...: a watertight witness's triangles around
    // its own, nine numbers each, in order.
    for (size_t n = 1; f.shared_edges.neighbours; ++n) {
        const std::string key = "neighbour." + std::to_string(n);
        const auto it = keys.find(key);
        if (it == keys.end()) break;
        known.insert(key);
        if (it->second.values.size() != 9) {
            errors.push_back({path, it->second.line, key + ": takes 9 numbers, found " + std::to_string(it->second.values.size())});
            continue;
        }
        std::array<double, 9> t{};
        read_numbers(path, key, it->second, c.precision, t.data(), strict, errors, c.warnings);
        c.neighbours.push_back(t);
    }
    for (const auto& [key, entry] : keys)
        if (!known.count(key)) {
            std::string list = "family, precision";
            if (!f.conventions.empty()) list += ", convention";
            for (const RelationKind kind : claimable_relations())
                if (relation_unsupported(f, kind).empty()) {
                    list += ", relation";
                    break;
                }
            for (const InputKey& k : f.inputs) list += ", " + k.key;
            list += ", expect";
            for (const std::string& v : f.outputs) list += ", expect." + v;
            errors.push_back({path, entry.line, "unknown key '" + key + "' for " + f.name + " (its keys: " + list + ")"});
        }
    if (errors.empty() && counts_ok) {
        // Every value the family refuses on its own (a NaN, an infinity),
        // then what it refuses of the rest (lo > hi, a zero normal).
        const auto line_of = [&](const std::string& why) {
            const auto key = keys.find(why.substr(0, why.find(':')));
            return key == keys.end() ? 0 : key->second.line;
        };
        Inputs rest = c.in;
        std::set<std::string> named;
        for (size_t i = 0; i < c.in.size(); ++i) {
            if (std::isfinite(c.in[i])) continue;
            Inputs alone = c.in;
            for (size_t j = 0; j < alone.size(); ++j)
                if (j != i && !std::isfinite(alone[j])) alone[j] = 0;
            const std::string why = f.outside_domain(alone.data());
            if (why.empty()) continue;  // this one is allowed (tmax = inf)
            errors.push_back({path, line_of(why), why});
            named.insert(why.substr(0, why.find(':')));
            rest[i] = 0;
        }
        const std::string why = f.outside_domain(rest.data());
        if (!why.empty() && !named.count(why.substr(0, why.find(':')))) errors.push_back({path, line_of(why), why});
    }
    if (!errors.empty()) return errors;
    return c;
}

}  // namespace

ReadResult parse_case(const std::string& text, const std::string& path, bool strict) {
    std::vector<CaseError> errors;
    std::map<std::string, Entry> keys;
    std::string origin;
    bool in_header = true;
    std::istringstream in(text);
    std::string raw;
    for (int line = 1; std::getline(in, raw); ++line) {
        const size_t hash = raw.find('#');
        if (hash != std::string::npos) {
            if (in_header && raw.find_first_not_of(" \t\r") == hash) {
                std::string comment = raw.substr(hash + 1);
                if (!comment.empty() && comment[0] == ' ') comment.erase(0, 1);
                while (!comment.empty() && (comment.back() == '\r' || comment.back() == ' ')) comment.pop_back();
                origin += (origin.empty() ? "" : "\n") + comment;
            }
            raw.resize(hash);
        }
        std::istringstream words(raw);
        std::string key;
        if (!(words >> key)) continue;
        in_header = false;
        Entry e{line, {}};
        for (std::string v; words >> v;) e.values.push_back(v);
        if (keys.count(key)) {
            errors.push_back({path, line, "key '" + key + "' repeats line " + std::to_string(keys[key].line)});
            continue;
        }
        keys[key] = e;
    }
    const auto family = keys.find("family");
    if (family == keys.end()) {
        errors.push_back({path, 0, "missing key 'family'"});
        return errors;
    }
    const auto& fam = family->second.values;
    if (fam.size() == 1)
        if (const Family* f = find_family(fam[0])) {
            ReadResult r = decode_family(*f, path, origin, keys, strict);
            if (errors.empty()) return r;
            if (auto* more = std::get_if<std::vector<CaseError>>(&r)) errors.insert(errors.end(), more->begin(), more->end());
            return errors;
        }
    std::string got, known;
    for (const auto& v : fam) got += (got.empty() ? "" : " ") + v;
    for (const Family* f : families()) known += (known.empty() ? "" : ", ") + f->name;
    errors.push_back({path, family->second.line, "family: '" + got + "' is not a known family (" + known + ")"});
    return errors;
}

ReadResult read_case_file(const std::string& path, bool strict) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::vector<CaseError>{{path, 0, "cannot open file"}};
    std::ostringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    // An editor's UTF-8 byte order mark is not a key.
    if (s.compare(0, 3, "\xEF\xBB\xBF") == 0) s.erase(0, 3);
    return parse_case(s, path, strict);
}

namespace {

/// The *.case files under dir, following symbolic links to folders (a
/// corpus may link a family's folder from elsewhere), each folder once.
void find_cases(const std::filesystem::path& dir, std::set<std::filesystem::path>& seen, std::vector<std::string>& found,
                std::vector<CaseError>& errors) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path real = fs::canonical(dir, ec);
    if (ec || !seen.insert(real).second) return;  // a loop of links
    std::vector<fs::path> entries;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(it->path());
    if (ec) errors.push_back({dir.string(), 0, "cannot read folder: " + ec.message()});
    std::sort(entries.begin(), entries.end());
    for (const fs::path& e : entries) {
        std::error_code ec2;
        if (fs::is_directory(e, ec2)) find_cases(e, seen, found, errors);  // follows links
        else if (e.extension() == ".case" && fs::is_regular_file(e, ec2)) found.push_back(e.string());
    }
}

}  // namespace

std::vector<std::string> expand_case_paths(const std::vector<std::string>& args, std::vector<CaseError>& errors) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (const std::string& arg : args) {
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            std::vector<std::string> found;
            std::set<fs::path> seen;
            find_cases(arg, seen, found, errors);
            std::sort(found.begin(), found.end());
            files.insert(files.end(), found.begin(), found.end());
        } else if (fs::exists(arg, ec)) {
            files.push_back(arg);
        } else {
            errors.push_back({arg, 0, "no such file or folder"});
        }
    }
    return files;
}

}  // namespace isect::check
