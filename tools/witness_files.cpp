#include "witness_files.hpp"

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

check::Written WitnessFiles::keep(const std::string& key, const std::string& stem, const std::string& kernel,
                                  const std::string& text) {
    duplicate_ = false;
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
    if (w.ok()) by_body_.emplace(body, w.path);
    else errors_.push_back(w.error);
    return w;
}

}  // namespace isect::tool
