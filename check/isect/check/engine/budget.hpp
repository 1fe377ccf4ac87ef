// The time and case budget of a check run, and its progress line: one line
// rewritten in place on a terminal, a line every five seconds into a log.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace isect::check {

class Budget {
public:
    Budget(double seconds, uint64_t max_cases, bool progress)
        : seconds_(seconds), max_cases_(max_cases), progress_(progress), tty_(isatty(fileno(stderr)) != 0) {}

    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

    /// Whether another case fits: by count when max_cases is set, else by time.
    bool more(uint64_t cases) const { return max_cases_ ? cases < max_cases_ : elapsed() < seconds_; }

    /// The progress line, when it is due.
    void report(const std::string& family, uint64_t cases, uint64_t violations) {
        if (!progress_ || Clock::now() - last_ < std::chrono::seconds(tty_ ? 1 : 5)) return;
        last_ = Clock::now();
        std::fprintf(stderr, "%s[check %s] %5.1f s  %llu cases  %llu violations%s", tty_ ? "\r" : "", family.c_str(),
                     elapsed(), (unsigned long long)cases, (unsigned long long)violations, tty_ ? "" : "\n");
        std::fflush(stderr);
    }

    /// Ends the line on a terminal.
    void finish() const {
        if (progress_ && tty_) std::fprintf(stderr, "\n");
    }

private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point start_ = Clock::now(), last_ = start_;
    double seconds_;
    uint64_t max_cases_;
    bool progress_, tty_;
};

}  // namespace isect::check
