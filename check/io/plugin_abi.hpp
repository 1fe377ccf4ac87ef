// What the plugin host and its worker share (plugin_host.cpp,
// plugin_worker.cpp): opening a plugin, the symbols of a family's
// functions, calling one, the pipes' framing and the shared memory of a
// round trip. Private to check/io/.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "check/io/fp_env.hpp"
#include "check/io/plugin_host.hpp"
#include "check/model/family.hpp"

namespace isect::check::plugin_abi {

/// A plugin opened (dlopen), of an ABI this isect reads, and its name.
struct Opened {
    void* lib = nullptr;
    int abi = 0;
    std::string name;
};

/// Opens the plugin at path: "" and `out` set, or why not (its load error,
/// no isect_abi_version(), an ABI this isect does not read).
std::string open_plugin(const std::string& path, Opened& out);

/// The symbol of family f's function: isect_FAMILY, or isect_FAMILY_d.
std::string symbol(const Family& f, Precision p);
/// And of its batch entry: isect_FAMILY_batch, or isect_FAMILY_batch_d.
std::string batch_symbol(const Family& f, Precision p);

/// Calls fn of the given precision on the engine's input (n doubles), by
/// the family's own call (Family::plugin_call_f, plugin_call_d). A float
/// call gets the input as floats (in a float run nothing rounds).
Answer call_plugin(const Family& f, Precision p, void* fn, const double* in);

// --- Pipes: whole writes and reads, strings as a length and bytes ------------------

bool write_all(int fd, const void* data, size_t n);
/// Reads n bytes; false on EOF or error. With timeout_ms >= 0, sets
/// timed_out and returns false when nothing arrives in time.
bool read_all(int fd, void* data, size_t n, int timeout_ms, bool* timed_out);
bool write_string(int fd, const std::string& s);
bool read_string(int fd, std::string& s, int timeout_ms);

std::string signal_name(int sig);

// --- Shared memory -----------------------------------------------------------------

/// The most numbers of one input (obb_obb has 30).
constexpr size_t kMaxInput = 32;

/// One input's answer as the worker leaves it.
struct Slot {
    int32_t answer = 0;
    uint32_t count = 0;       ///< numbers in values
    uint64_t unprovided = 0;
    uint64_t after = 0;       ///< the control state after the call
    int32_t returned = 0, has_returned = 0;
    double values[Numbers::kCapacity];
};

/// One round trip's request, in the shared memory beside its inputs:
/// which function, how many inputs, and whether in one call of the batch
/// entry or input by input.
struct Request {
    uint32_t family = 0, precision = 0, count = 0, whole = 0;
};

Slot slot_of(const Answer& a, FpControl after);
/// A slot's answer, written into a (a million a second: no temporaries).
void read_answer(const Slot& s, Answer& a);

/// Watches `ready` for up to us microseconds; true once it holds.
template <class Ready> bool spin_for(uint32_t us, const Ready& ready) {
    if (us == 0) return ready();
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
    for (unsigned i = 1;; ++i) {
        if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (i % 64 == 0 && std::chrono::steady_clock::now() >= until) return ready();
    }
}

}  // namespace isect::check::plugin_abi

namespace isect::check {

/// The memory host and worker share: a round trip's request, inputs and
/// answers, and how many inputs the worker has answered so far (the input
/// in hand when it died is the next one). A round trip: the host writes
/// the request and inputs, then raises `asked`; the worker answers, then
/// sets `done` to it. Each waits for the other by watching these for up to
/// `spin_us` (where a core is spare, no wake-up then delays a chunk), then
/// by sleeping on its pipe, where the other writes a byte only when it sees
/// the sleeper's flag up (each side raises its flag, then looks again, so
/// that no wake-up is lost; a byte too many only wakes a sleeper to look).
struct PluginHost::Shared {
    std::atomic<uint32_t> answered{0};
    std::atomic<uint32_t> asked{0}, done{0};
    std::atomic<uint32_t> worker_asleep{0}, host_asleep{0};
    std::atomic<uint32_t> spin_us{0};
    plugin_abi::Request request;
    double in[PluginHost::kBatch * plugin_abi::kMaxInput];
    plugin_abi::Slot out[PluginHost::kBatch];
};

}  // namespace isect::check
