#include "check/io/interrupt.hpp"

#include <atomic>
#include <chrono>
#include <ctime>
#include <csignal>
#include <cstdio>
#include <initializer_list>
#include <signal.h>
#include <unistd.h>

namespace isect::check {

namespace {

volatile std::sig_atomic_t g_signal = 0;
volatile pid_t g_group = 0;
std::chrono::steady_clock::time_point g_noticed;
bool g_noticed_set = false;
/// When the first signal came, in ns of CLOCK_MONOTONIC (async-signal-safe
/// to read and write: a lock-free atomic).
std::atomic<int64_t> g_first_ns{0};

int64_t monotonic_ns() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

void on_alarm(int) {
    if (g_group > 0) kill(-g_group, SIGKILL);
}

void on_signal(int sig) {
    if (g_signal) {
        // A second signal within the grace is the same stop: coreutils
        // timeout sends SIGTERM to the child and, a few milliseconds later,
        // to its whole process group; a CI runner cancelling a job may do
        // the same. Later, a second signal means "go now".
        if (monotonic_ns() - g_first_ns.load() < kSecondSignalGraceNs) return;
        struct sigaction dfl = {};
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, nullptr);
        if (g_group > 0) kill(-g_group, SIGKILL);
        raise(sig);
        return;
    }
    g_first_ns.store(monotonic_ns());
    g_signal = sig;
    if (g_group > 0) {
        kill(-g_group, sig == SIGHUP ? SIGTERM : sig);
        alarm(2);
    }
}

}  // namespace

void catch_interrupts() {
    static bool installed = false;
    if (installed) return;
    installed = true;
    struct sigaction sa = {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
    struct sigaction al = {};
    al.sa_handler = on_alarm;
    sigemptyset(&al.sa_mask);
    sigaction(SIGALRM, &al, nullptr);
}

bool interrupted() { return g_signal != 0; }

long long interrupted_for_ms() {
    if (!g_signal) return -1;
    return (monotonic_ns() - g_first_ns.load()) / 1000000;
}


const char* interrupt_name() {
    switch (g_signal) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        case SIGHUP: return "SIGHUP";
        default: break;
    }
    static char name[32];
    std::snprintf(name, sizeof name, "signal %d", int(g_signal));
    return name;
}

int interrupted_status() { return 128 + (g_signal ? int(g_signal) : SIGINT); }

bool within_grace() {
    if (!g_signal) return true;
    const auto now = std::chrono::steady_clock::now();
    if (!g_noticed_set) {
        g_noticed = now;
        g_noticed_set = true;
    }
    return now - g_noticed < std::chrono::seconds(2);
}

void forward_interrupts_to(pid_t group) {
    g_group = group;
    if (group == 0) alarm(0);
}

}  // namespace isect::check
