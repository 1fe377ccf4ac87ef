// Starting another program, one way for the whole of isect: posix_spawn,
// never fork. A fork copies a process whose other threads may hold a lock
// (the allocator's, a sanitizer's) and can hang in the child; a spawn
// execs at once. Used for the plugin worker, libFuzzer, the validity map
// script and the build of the fuzz targets.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace isect::check {

/// This program's file as its link names it (/proc/self/exe: under
/// valgrind the link is the program's, the file behind it valgrind's own);
/// the link itself if the file went away.
std::filesystem::path this_program();

/// share/isect/REL beside this program's prefix (an installed isect), if
/// that file exists; else empty.
std::filesystem::path installed_file(const std::string& rel);

/// What a child is started with.
struct ChildSpec {
    std::vector<std::string> argv;  ///< argv[0] is the program: a path, or a name looked up in PATH
    /// Descriptors the child gets: (the parent's fd, the child's number).
    std::vector<std::pair<int, int>> fds;
    /// When not empty, the child's stdout and stderr are appended to this file.
    std::string output_file;
    /// Variables set in the child's environment, NAME=VALUE, over the parent's.
    std::vector<std::string> env;
    /// The child leads a process group of its own (a signal to it reaches
    /// everything it starts), and its SIGINT, SIGTERM, SIGHUP and SIGALRM
    /// are the default ones whatever the parent set.
    bool own_group = false;
};

/// Starts the child: its pid, or -1 with why.
pid_t start_child(const ChildSpec& spec, std::string& why);

/// Runs argv to its end: its exit status as waitpid gives it, or -1 with
/// why when it could not start. With `line`, its stdout and stderr are read
/// line by line into it (without the newline); without, they are this
/// program's stderr.
int run_child(const std::vector<std::string>& argv, const std::function<void(const std::string&)>& line,
              std::string& why);

}  // namespace isect::check
