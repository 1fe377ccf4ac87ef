#include "check/io/child.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace isect::check {

namespace fs = std::filesystem;

fs::path this_program() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec || access(exe.c_str(), X_OK) != 0) exe = "/proc/self/exe";
    return exe;
}

fs::path installed_file(const std::string& rel) {
    std::error_code ec;
    const fs::path p = this_program().parent_path().parent_path() / "share" / "isect" / rel;
    return fs::exists(p, ec) ? p : fs::path();
}

pid_t start_child(const ChildSpec& spec, std::string& why) {
    if (spec.argv.empty()) {
        why = "no program to start";
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // The child's descriptors are first moved above every number they go
    // to: a dup2 onto 3 must not overwrite the one that goes to 5.
    std::vector<int> moved;
    for (const auto& [from, to] : spec.fds) moved.push_back(fcntl(from, F_DUPFD_CLOEXEC, 10));
    for (size_t i = 0; i < moved.size(); ++i) posix_spawn_file_actions_adddup2(&actions, moved[i], spec.fds[i].second);
    if (!spec.output_file.empty()) {
        posix_spawn_file_actions_addopen(&actions, 1, spec.output_file.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0666);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
    }
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    if (spec.own_group) {
        sigset_t defaults;
        sigemptyset(&defaults);
        for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGALRM}) sigaddset(&defaults, sig);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
    }
    // The environment: the parent's, with spec.env over it.
    std::map<std::string, std::string> vars;
    for (char** e = environ; e && *e; ++e) {
        const std::string v(*e);
        vars[v.substr(0, v.find('='))] = v;
    }
    for (const std::string& v : spec.env) vars[v.substr(0, v.find('='))] = v;
    std::vector<char*> envp, argv;
    for (auto& [name, v] : vars) envp.push_back(v.data());
    envp.push_back(nullptr);
    std::vector<std::string> args = spec.argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(nullptr);
    pid_t pid = -1;
    const int r = posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    for (int fd : moved) close(fd);
    if (r != 0) {
        why = "cannot start " + spec.argv[0] + ": " + std::strerror(r);
        return -1;
    }
    if (spec.own_group) setpgid(pid, pid);  // also in the parent: no signal may come before it holds
    return pid;
}

int run_child(const std::vector<std::string>& argv, const std::function<void(const std::string&)>& line,
              std::string& why) {
    ChildSpec spec;
    spec.argv = argv;
    int pipefd[2] = {-1, -1};
    if (line) {
        if (pipe2(pipefd, O_CLOEXEC) != 0) {
            why = std::string("pipe: ") + std::strerror(errno);
            return -1;
        }
        spec.fds = {{pipefd[1], 1}, {pipefd[1], 2}};
    }
    const pid_t pid = start_child(spec, why);
    if (line) close(pipefd[1]);
    if (pid < 0) {
        if (line) close(pipefd[0]);
        return -1;
    }
    if (line) {
        FILE* from = fdopen(pipefd[0], "r");
        char buf[4096];
        std::string text;
        while (std::fgets(buf, sizeof buf, from)) {
            text += buf;
            if (text.back() != '\n') continue;
            text.pop_back();
            line(text);
            text.clear();
        }
        if (!text.empty()) line(text);
        fclose(from);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

}  // namespace isect::check
