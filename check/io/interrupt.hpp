// Ctrl-C, SIGTERM and a CI timeout end a run without losing what it found:
// the first signal asks the run to stop after the case in hand, keep (and
// within a short grace, minimise) what it found, print its report marked
// interrupted and exit with 128 + the signal's number. A second signal
// within half a second of the first is the same stop (coreutils timeout
// signals the child, then its process group, 3 ms apart); a later one ends
// the process at once; what was written before stays (witnesses are
// written as they are found, then replaced by their minimised form).
#pragma once

#include <sys/types.h>

namespace isect::check {

/// How long after the first signal a second one is still the same stop.
inline constexpr long long kSecondSignalGraceNs = 500000000;

/// Installs the handlers for SIGINT, SIGTERM and SIGHUP (once per process).
void catch_interrupts();

/// Whether a signal asked the run to stop.
bool interrupted();

/// How long ago (ms) the first signal came; -1 before one.
long long interrupted_for_ms();

/// "SIGINT", "SIGTERM", "SIGHUP" (or "signal N").
const char* interrupt_name();

/// The exit status of an interrupted run: 128 + the signal.
int interrupted_status();

/// Whether there is still time to minimise: always before a signal; after
/// one, for a short grace (two seconds from when the run first noticed),
/// so that a CI timeout's SIGKILL finds the report and the files written.
bool within_grace();

/// Passes the signal on to a process group as well (a libFuzzer campaign),
/// killing it outright two seconds later. 0 stops passing it on.
void forward_interrupts_to(pid_t group);

}  // namespace isect::check
