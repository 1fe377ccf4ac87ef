#include "check/io/plugin_abi.hpp"

#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <poll.h>
#include <unistd.h>

#include "isect/plugin.h"

namespace isect::check::plugin_abi {

namespace {

/// The name reports give a loaded plugin: isect_kernel_name() made safe to
/// print (control characters as '?', at most 200 characters), or its file's
/// name where it has none or an empty one.
std::string plugin_name(void* lib, const std::string& path) {
    std::string name;
    if (auto named = reinterpret_cast<const char* (*)()>(dlsym(lib, "isect_kernel_name")))
        if (const char* n = named()) name = n;
    for (char& c : name)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    if (name.size() > 200) name = name.substr(0, 197) + "...";
    if (name.find_first_not_of(" \t") == std::string::npos) name = path.substr(path.find_last_of('/') + 1);
    return name;
}


/// Whether the plugin speaks an ABI this isect reads (1 or 2).
bool known_abi(int v) { return v == 1 || v == 2; }

}  // namespace

std::string open_plugin(const std::string& path, Opened& out) {
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) return std::string("cannot load: ") + dlerror();
    const auto version = reinterpret_cast<int (*)()>(dlsym(lib, "isect_abi_version"));
    if (!version) return "exports no isect_abi_version(); is it an isect plugin? (core/isect/plugin.h)";
    const int v = version();
    if (!known_abi(v))
        return "isect_abi_version() returned " + std::to_string(v) + "; this isect speaks versions 1 and " +
               std::to_string(ISECT_ABI_VERSION);
    out = Opened{lib, v, plugin_name(lib, path)};
    return {};
}

Answer call_plugin(const Family& f, Precision p, void* fn, const double* in) {
    if (p == Precision::double_) return f.plugin_call_d(f, fn, in);
    float floats[32];
    for (size_t i = 0; i < f.size(); ++i) floats[i] = float(in[i]);
    return f.plugin_call_f(f, fn, floats);
}

std::string symbol(const Family& f, Precision p) { return "isect_" + f.name + (p == Precision::double_ ? "_d" : ""); }
std::string batch_symbol(const Family& f, Precision p) {
    return "isect_" + f.name + "_batch" + (p == Precision::double_ ? "_d" : "");
}


bool write_all(int fd, const void* data, size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= size_t(w);
    }
    return true;
}

/// Reads n bytes; false on EOF or error. With timeout_ms >= 0, sets
/// timed_out and returns false when nothing arrives in time.
bool read_all(int fd, void* data, size_t n, int timeout_ms, bool* timed_out) {
    char* p = static_cast<char*>(data);
    while (n > 0) {
        if (timeout_ms >= 0) {
            pollfd pfd{fd, POLLIN, 0};
            const int r = ::poll(&pfd, 1, timeout_ms);
            if (r < 0 && errno == EINTR) continue;
            if (r == 0) {
                if (timed_out) *timed_out = true;
                return false;
            }
        }
        const ssize_t got = ::read(fd, p, n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        p += got;
        n -= size_t(got);
    }
    return true;
}

bool write_string(int fd, const std::string& s) {
    const uint32_t n = uint32_t(s.size());
    return write_all(fd, &n, 4) && write_all(fd, s.data(), n);
}

bool read_string(int fd, std::string& s, int timeout_ms) {
    uint32_t n = 0;
    if (!read_all(fd, &n, 4, timeout_ms, nullptr) || n > (1u << 20)) return false;
    s.resize(n);
    return read_all(fd, s.data(), n, timeout_ms, nullptr);
}

Slot slot_of(const Answer& a, FpControl after) {
    Slot s;
    s.answer = a.answer;
    s.count = uint32_t(a.values.size());
    s.unprovided = a.unprovided;
    s.after = after.bits;
    s.returned = a.returned.value_or(0);
    s.has_returned = a.returned ? 1 : 0;
    for (size_t i = 0; i < a.values.size(); ++i) s.values[i] = a.values[i];
    return s;
}

/// A slot's answer, written into a (a million a second: no temporaries).
void read_answer(const Slot& s, Answer& a) {
    a.answer = s.answer;
    a.unprovided = s.unprovided;
    a.returned = s.has_returned ? std::optional<int>(s.returned) : std::nullopt;
    const size_t n = std::min<size_t>(s.count, Numbers::kCapacity);
    a.values.resize(n);
    std::copy(s.values, s.values + n, a.values.begin());
}

std::string signal_name(int sig) {
    const char* d = strsignal(sig);
    return std::string("signal ") + std::to_string(sig) + (d ? " (" + std::string(d) + ")" : "");
}

}  // namespace isect::check::plugin_abi
