#include "witness_files.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "isect/check/engine/witness.hpp"
#include "isect/check/model/family.hpp"
#include "isect/check/engine/judge.hpp"
#include "report.hpp"

namespace isect::tool {

namespace fs = std::filesystem;

std::string signature_kernel(const std::string& text) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const size_t at = line.find("signature: ");
        if (line.rfind("#", 0) == 0 && at != std::string::npos) return check::signature_kernel_of(line.substr(at + 11));
    }
    return "";
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
        w = check::write_file_new(dir_, file_stem(stem), ".case", text);
        if (w.ok()) mine_[key] = w.path;
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
