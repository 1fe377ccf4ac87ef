#include "witness_files.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "check/engine/witness.hpp"
#include "check/model/family.hpp"
#include "check/engine/judge.hpp"
#include "report.hpp"

namespace isect::tool {

namespace fs = std::filesystem;

namespace {
/// A case file's "# signature: ..." line; empty when it has none.
}  // namespace

std::string signature_kernel(const std::string& text) {
    const auto key = check::ClassKey::parse(check::signature_of(text));
    return key ? key->kernel : "";
}

WitnessFiles::WitnessFiles(std::string dir) : dir_(std::move(dir)) {
    std::error_code ec;
    if (!fs::is_directory(dir_, ec)) return;
    for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() != ".case" || !it->is_regular_file(ec)) continue;
        const std::string text = check::read_text_file(it->path().string());
        by_body_.emplace(signature_kernel(text) + "\n" + check::case_body(text), it->path().string());
    }
}

std::vector<std::string> WitnessFiles::errors() const {
    std::vector<std::string> out;
    for (const std::string& where : error_paths_) {
        const auto n = unwritten_.find(where);
        if (n == unwritten_.end()) {
            out.push_back(errors_.at(where));
            continue;
        }
        const std::string& e = errors_.at(where);
        const size_t count = n->second.size();
        out.push_back(e.substr(0, e.rfind(" (nothing written)")) + ": " + std::to_string(count) + " witness" +
                      (count == 1 ? "" : "es") + " not written (" + (count == 1 ? "its class says" : "their classes say") +
                      " NOT SAVED)");
    }
    return out;
}

check::Written WitnessFiles::keep(const std::string& key, const std::string& stem, const std::string& kernel,
                                  const std::string& text) {
    duplicate_ = false;
    kept_earlier_ = false;
    const std::string body = kernel + "\n" + check::case_body(text);
    const auto mine = mine_.find(key);
    if (const auto same = by_body_.find(body); same != by_body_.end()) {
        // This key's own file already says it: nothing to write again.
        if (mine != mine_.end() && mine->second == same->second) return {same->second, ""};
        // Already there: name that file; drop this run's own earlier one.
        if (mine != mine_.end() && mine->second != same->second) {
            std::remove(mine->second.c_str());
            mine_.erase(mine);
        }
        duplicate_ = true;
        return {same->second, ""};
    }
    check::Written w;
    if (mine != mine_.end()) {
        w = check::write_file_atomic(mine->second, text);
        if (w.ok())
            for (auto it = by_body_.begin(); it != by_body_.end(); ++it)
                if (it->second == w.path) {
                    by_body_.erase(it);
                    break;
                }
    } else {
        // Named for its key (the class), so that the same class has the same
        // file name whatever the number of workers or the order classes
        // opened in; a file of that name holding this very case (another
        // run beside this one wrote it) is not written again.
        char tail[16];
        std::snprintf(tail, sizeof tail, "-%08x", check::name_hash(key));
        const std::string name = file_stem(stem) + tail;
        const fs::path there = fs::path(dir_) / (name + ".case");
        std::error_code ec;
        const std::string theirs = fs::exists(there, ec) ? check::read_text_file(there.string()) : "";
        if (!theirs.empty() && kernel + "\n" + check::case_body(theirs) == body) {
            duplicate_ = true;
            by_body_.emplace(body, there.string());
            return {there.string(), ""};
        }
        // The same class of the same run (its name holds the seed, its
        // signature the class) from a run beside this one: one file, the
        // latest witness in it. Anything else keeps its own file.
        const std::string signature = check::signature_of(text);
        if (!theirs.empty() && !signature.empty() && check::signature_of(theirs) == signature) {
            w = check::write_file_atomic(there.string(), text);
            if (w.ok()) mine_[key] = w.path;
        } else {
            w = check::write_file_new(dir_, name, ".case", text);
            // Another run of the same class took the name a moment before:
            // one file, not two.
            if (w.ok() && w.path != there.string() && theirs.empty() && !signature.empty() &&
                check::signature_of(check::read_text_file(there.string())) == signature) {
                std::remove(w.path.c_str());
                w = check::write_file_atomic(there.string(), text);
            }
            if (w.ok()) mine_[key] = w.path;
        }
    }
    if (w.ok()) {
        by_body_.emplace(body, w.path);
        if (errors_.erase(w.path))  // written after all: no longer an error
            error_paths_.erase(std::find(error_paths_.begin(), error_paths_.end(), w.path));
        return w;
    }
    if (mine != mine_.end()) {
        // The replacement failed; the earlier text (the witness as found) is
        // whole in its place, as atomic writes leave it.
        kept_earlier_ = true;
        const std::string reason = w.error.substr(0, w.error.rfind(" (nothing written)"));
        w.error = reason + "; the file holds the witness as found, not its minimised form";
    }
    // One line per file; the witnesses no file was made for, one line per
    // folder and reason, counted (errors()).
    const std::string where = w.path.empty() ? "new: " + w.error : w.path;
    if (w.path.empty()) unwritten_[where].insert(key);
    if (!errors_.count(where)) error_paths_.push_back(where);
    errors_[where] = w.error;
    return w;
}

}  // namespace isect::tool
