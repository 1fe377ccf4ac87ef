#include "check/io/safe_write.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace isect::check {

namespace {

namespace fs = std::filesystem;

std::string reason(int err) { return std::strerror(err); }

/// Writes text into a fresh temporary file beside `near` (same folder, so
/// that a rename is atomic), flushed to disk. Returns its path, or sets
/// error naming `near` (the file the user will look for).
std::string write_temp(const std::string& near, const std::string& text, std::string& error) {
    const fs::path target(near);
    std::string name = (target.parent_path() / ("." + target.filename().string() + ".isect-XXXXXX")).string();
    if (target.parent_path().empty()) name = "." + target.filename().string() + ".isect-XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd < 0) {
        error = near + ": cannot create a file in " +
                (target.parent_path().empty() ? std::string(".") : target.parent_path().string()) + ": " + reason(errno);
        return "";
    }
    // mkstemp makes it 0600; a case file is as readable as any file the
    // user makes (the umask decides).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    const char* p = text.data();
    size_t left = text.size();
    int err = 0;
    while (left > 0) {
        const ssize_t w = ::write(fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            err = w < 0 ? errno : ENOSPC;
            break;
        }
        p += w;
        left -= size_t(w);
    }
    if (!err && ::fsync(fd) != 0 && errno != EINVAL) err = errno;  // EINVAL: a file system without fsync
    if (::close(fd) != 0 && !err) err = errno;
    if (!err) {
        // What is on disk is what was meant: the size read back.
        struct stat st{};
        if (::stat(name.c_str(), &st) != 0) err = errno;
        else if (size_t(st.st_size) != text.size()) err = ENOSPC;
    }
    if (err) {
        ::unlink(name.c_str());
        error = near + ": " + reason(err) + " (nothing written)";
        return "";
    }
    return name;
}

}  // namespace

void sync_folder(const std::string& dir) {
    const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

Written write_file_atomic(const std::string& path, const std::string& text, FolderSync sync) {
    Written w{path, ""};
    const std::string temp = write_temp(path, text, w.error);
    if (temp.empty()) return w;
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        w.error = path + ": " + reason(errno) + " (nothing written)";
        ::unlink(temp.c_str());
        return w;
    }
    if (sync == FolderSync::now) sync_folder(fs::path(path).parent_path().string());
    return w;
}

Written write_file_new(const std::string& dir, const std::string& stem, const std::string& ext,
                       const std::string& text, FolderSync sync) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path folder(dir);
    Written w{(folder / (stem + ext)).string(), ""};
    if (ec && !fs::is_directory(folder)) {
        w.error = dir + ": cannot create the folder: " + ec.message();
        return w;
    }
    const std::string temp = write_temp(w.path, text, w.error);
    if (temp.empty()) {
        // No name was taken: the error is the folder's, not a file's.
        w.error = dir + ": " + w.error.substr(w.error.find(": ") + 2);
        w.path.clear();
        return w;
    }
    for (int n = 1; n < 100000; ++n) {
        w.path = (folder / (n == 1 ? stem + ext : stem + "-" + std::to_string(n) + ext)).string();
        // link() fails with EEXIST where the name is taken: a new name,
        // never a replaced file, even with another run writing beside us.
        if (::link(temp.c_str(), w.path.c_str()) == 0) {
            ::unlink(temp.c_str());
            if (sync == FolderSync::now) sync_folder(dir);
            return w;
        }
        if (errno == EEXIST) continue;
        const int err = errno;
        // A file system without hard links: fall back to checking first
        // (a race with another writer is then possible, but not a lie).
        if ((err == EPERM || err == ENOTSUP || err == EOPNOTSUPP) && !fs::exists(w.path, ec)) {
            if (::rename(temp.c_str(), w.path.c_str()) == 0) {
                if (sync == FolderSync::now) sync_folder(dir);
                return w;
            }
        }
        w.error = w.path + ": " + reason(err) + " (nothing written)";
        ::unlink(temp.c_str());
        return w;
    }
    ::unlink(temp.c_str());
    w.error = w.path + ": no free name (nothing written)";
    return w;
}

std::string probe_folder(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec && !fs::is_directory(dir)) return dir + ": cannot create the folder: " + ec.message();
    if (!fs::is_directory(dir)) return dir + ": not a folder";
    std::string error;
    const std::string temp = write_temp((fs::path(dir) / "probe").string(), "isect probe\n", error);
    if (temp.empty()) return dir + ": cannot write there: " + error.substr(error.find(": ") + 2);
    ::unlink(temp.c_str());
    return "";
}

std::string case_body(const std::string& text) {
    std::istringstream in(text);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        const size_t b = line.find_first_not_of(" \t\r");
        if (b == std::string::npos || line[b] == '#') continue;
        out += line.substr(b) + "\n";
    }
    return out;
}

std::string read_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string signature_of(const std::string& text) {
    const std::string tag = "signature: ";
    size_t at = 0;
    while (at < text.size()) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        size_t b = at;
        while (b < end && (text[b] == '#' || text[b] == ' ')) ++b;
        if (text.compare(b, tag.size(), tag) == 0) return text.substr(b + tag.size(), end - b - tag.size());
        at = end + 1;
    }
    return {};
}

uint32_t name_hash(std::string_view bytes) {
    uint32_t h = 2166136261u;
    for (char c : bytes) h = (h ^ uint8_t(c)) * 16777619u;
    return h;
}

std::string file_stem(std::string s) {
    const uint32_t hash = name_hash(s);
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
    if (s.empty()) s = "kernel";
    if (s[0] == '-') s[0] = '_';
    if (s.size() > 120) {
        char tail[16];
        std::snprintf(tail, sizeof tail, "-%08x", hash);
        s = s.substr(0, 111) + tail;
    }
    return s;
}

}  // namespace isect::check
