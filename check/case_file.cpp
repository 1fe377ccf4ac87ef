#include "isect/check/case_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace isect::check {

// The generic families live in isect_check (family.cpp), with RapidCheck;
// the fuzz targets link only isect_check_core and read aabb_triangle cases.
// Weak references keep both: without family.cpp they are null.
const Family* find_family(const std::string& name) __attribute__((weak));
const std::vector<const Family*>& families() __attribute__((weak));

std::string CaseError::str() const {
    return path + ":" + std::to_string(line) + ": " + message;
}

std::string format_float(float x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, r.ptr);
}

bool parse_float(const std::string& token, float& out, std::string& why) {
    const char* begin = token.c_str();
    char* end = nullptr;
    errno = 0;
    const float x = std::strtof(begin, &end);
    if (end == begin || *end != '\0') {
        why = "'" + token + "' is not a number";
        return false;
    }
    if (errno == ERANGE && std::isinf(x)) {
        why = "'" + token + "' overflows float";
        return false;
    }
    if (errno == ERANGE && x == 0) {
        // A written zero is fine; a nonzero number that flushes to zero is not.
        const double d = std::strtod(begin, nullptr);
        if (d != 0) {
            why = "'" + token + "' underflows float to zero";
            return false;
        }
    }
    out = x;
    return true;
}

namespace {

struct Entry {
    int line = 0;
    std::vector<std::string> values;
};

struct KeySpec {
    const char* key;
    size_t count;
};

/// The keys of the aabb_triangle family, besides family and expect.
constexpr KeySpec kAabbTriangleKeys[] = {{"box.lo", 3}, {"box.hi", 3}, {"tri", 9}};

/// Reads a float key into out, appending errors.
void read_floats(const std::string& path, const std::string& key, const Entry& e, float* out,
                 std::vector<CaseError>& errors) {
    for (size_t i = 0; i < e.values.size(); ++i) {
        std::string why;
        if (!parse_float(e.values[i], out[i], why)) errors.push_back({path, e.line, key + ": " + why});
    }
}

/// Domain of aabb_triangle: finite values and lo <= hi.
void check_aabb_triangle_domain(const std::string& path, const std::map<std::string, Entry>& keys,
                                const AabbTriangleCase& c, std::vector<CaseError>& errors) {
    const auto finite = [&](const char* key, const float* v, size_t n) {
        for (size_t i = 0; i < n; ++i)
            if (!std::isfinite(v[i]))
                errors.push_back({path, keys.at(key).line,
                                  std::string(key) + ": '" + format_float(v[i]) +
                                      "' is outside the domain of aabb_triangle (finite values only)"});
    };
    finite("box.lo", c.box.lo.data(), 3);
    finite("box.hi", c.box.hi.data(), 3);
    finite("tri", c.tri.v[0].data(), 3);
    finite("tri", c.tri.v[1].data(), 3);
    finite("tri", c.tri.v[2].data(), 3);
    for (int i = 0; i < 3; ++i)
        if (c.box.lo[i] > c.box.hi[i])
            errors.push_back({path, keys.at("box.hi").line,
                              "box.hi: '" + format_float(c.box.hi[i]) + "' is below box.lo '" +
                                  format_float(c.box.lo[i]) + "' on axis " + "xyz"[i] + " (lo <= hi required)"});
}

ReadResult decode_aabb_triangle(const std::string& path, const std::string& origin,
                                const std::map<std::string, Entry>& keys) {
    std::vector<CaseError> errors;
    AabbTriangleCase c;
    c.path = path;
    c.origin = origin;
    float tri[9] = {};
    float* targets[] = {c.box.lo.data(), c.box.hi.data(), tri};
    bool counts_ok = true;
    for (size_t k = 0; k < std::size(kAabbTriangleKeys); ++k) {
        const KeySpec& spec = kAabbTriangleKeys[k];
        const auto it = keys.find(spec.key);
        if (it == keys.end()) {
            errors.push_back({path, 0, std::string("missing key '") + spec.key + "'"});
            counts_ok = false;
            continue;
        }
        if (it->second.values.size() != spec.count) {
            errors.push_back({path, it->second.line,
                              std::string(spec.key) + ": takes " + std::to_string(spec.count) + " numbers, found " +
                                  std::to_string(it->second.values.size())});
            counts_ok = false;
            continue;
        }
        read_floats(path, spec.key, it->second, targets[k], errors);
    }
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i) c.tri.v[k][i] = tri[3 * k + i];

    const auto expect = keys.find("expect");
    if (expect == keys.end()) {
        errors.push_back({path, 0, "missing key 'expect'"});
    } else if (expect->second.values.size() != 1 ||
               (expect->second.values[0] != "overlap" && expect->second.values[0] != "disjoint")) {
        std::string got;
        for (const auto& v : expect->second.values) got += (got.empty() ? "" : " ") + v;
        errors.push_back({path, expect->second.line, "expect: '" + got + "' is not 'overlap' or 'disjoint'"});
    } else {
        c.expect_overlap = expect->second.values[0] == "overlap";
    }

    std::set<std::string> known = {"family", "expect"};
    for (const KeySpec& spec : kAabbTriangleKeys) known.insert(spec.key);
    for (const auto& [key, entry] : keys)
        if (!known.count(key)) errors.push_back({path, entry.line, "unknown key '" + key + "' for aabb_triangle"});

    if (errors.empty() && counts_ok) check_aabb_triangle_domain(path, keys, c, errors);
    if (!errors.empty()) return errors;
    return Case{c};
}

/// Any family of the generic engine: its keys, expect, expect.VALUE lines.
ReadResult decode_family(const Family& f, const std::string& path, const std::string& origin,
                         const std::map<std::string, Entry>& keys) {
    std::vector<CaseError> errors;
    FamilyCase c;
    c.path = path;
    c.origin = origin;
    c.family = &f;
    c.in.assign(f.size(), 0.0f);
    bool counts_ok = true;
    std::set<std::string> known = {"family", "expect"};
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
            read_floats(path, spec.key, it->second, c.in.data() + f.offset(spec.key), errors);
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
    for (const std::string& v : f.values) {
        const auto it = keys.find("expect." + v);
        known.insert("expect." + v);
        if (it == keys.end()) continue;
        char* end = nullptr;
        const std::string& text = it->second.values.empty() ? std::string() : it->second.values[0];
        const double x = std::strtod(text.c_str(), &end);
        if (it->second.values.size() != 1 || end == text.c_str() || *end != '\0')
            errors.push_back({path, it->second.line, "expect." + v + ": '" + text + "' is not a number"});
        else
            c.expect_values[v] = x;
    }
    for (const auto& [key, entry] : keys)
        if (!known.count(key)) errors.push_back({path, entry.line, "unknown key '" + key + "' for " + f.name});
    if (errors.empty() && counts_ok) {
        const std::string why = f.domain(c.in.data());
        if (!why.empty()) {
            const auto key = keys.find(why.substr(0, why.find(':')));
            errors.push_back({path, key == keys.end() ? 0 : key->second.line, why});
        }
    }
    if (!errors.empty()) return errors;
    return Case{c};
}

}  // namespace

ReadResult parse_case(const std::string& text, const std::string& path) {
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
    if (fam.size() == 1 && fam[0] == "aabb_triangle") {
        ReadResult r = decode_aabb_triangle(path, origin, keys);
        if (errors.empty()) return r;
        if (auto* more = std::get_if<std::vector<CaseError>>(&r)) errors.insert(errors.end(), more->begin(), more->end());
        return errors;
    }
    const bool generic = &find_family != nullptr && &families != nullptr;
    if (fam.size() == 1 && generic)
        if (const Family* f = find_family(fam[0])) {
            ReadResult r = decode_family(*f, path, origin, keys);
            if (errors.empty()) return r;
            if (auto* more = std::get_if<std::vector<CaseError>>(&r)) errors.insert(errors.end(), more->begin(), more->end());
            return errors;
        }
    std::string got, known = "aabb_triangle";
    for (const auto& v : fam) got += (got.empty() ? "" : " ") + v;
    if (generic)
        for (const Family* f : families()) known += ", " + f->name;
    errors.push_back({path, family->second.line, "family: '" + got + "' is not a known family (" + known + ")"});
    return errors;
}

ReadResult read_case_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::vector<CaseError>{{path, 0, "cannot open file"}};
    std::ostringstream text;
    text << in.rdbuf();
    return parse_case(text.str(), path);
}

std::vector<std::string> expand_case_paths(const std::vector<std::string>& args, std::vector<CaseError>& errors) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (const std::string& arg : args) {
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            std::vector<std::string> found;
            for (fs::recursive_directory_iterator it(arg, ec), end; !ec && it != end; it.increment(ec))
                if (it->is_regular_file() && it->path().extension() == ".case") found.push_back(it->path().string());
            if (ec) errors.push_back({arg, 0, "cannot read folder: " + ec.message()});
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

std::string format_case(const AabbTriangleCase& c) {
    std::ostringstream out;
    std::istringstream origin(c.origin);
    for (std::string line; std::getline(origin, line);) out << "# " << line << "\n";
    const auto vec = [](const Vec3f& v) {
        return format_float(v[0]) + " " + format_float(v[1]) + " " + format_float(v[2]);
    };
    out << "family  aabb_triangle\n";
    out << "box.lo  " << vec(c.box.lo) << "\n";
    out << "box.hi  " << vec(c.box.hi) << "\n";
    out << "tri     " << vec(c.tri.v[0]) << "   " << vec(c.tri.v[1]) << "   " << vec(c.tri.v[2]) << "\n";
    out << "expect  " << (c.expect_overlap ? "overlap" : "disjoint") << "\n";
    return out.str();
}

}  // namespace isect::check
