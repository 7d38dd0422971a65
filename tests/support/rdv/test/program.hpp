#pragma once
/// \file
/// Runs one of the course's programs as a child process, for black-box tests
/// that drive it through its command line and its ports.

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace rdv::test {

#ifdef RDV_BIN_DIR
/// The path of program `name` as built for this test binary: the reference
/// program for test_chNN, the learner's for test_chNN_exercise.
inline std::string built_program(std::string_view name) {
  return std::string(RDV_BIN_DIR) + "/" + std::string(name);
}

/// The command that runs chapter `chapter`'s program by hand the way this
/// test binary runs it, for failure messages: `./course run 07`, or
/// `./course run --exercise 07` in test_chNN_exercise; then `args`, if any.
inline std::string course_run(std::string_view chapter, std::string_view args = {}) {
  std::string command = std::string_view(RDV_BIN_DIR).ends_with("/exercise")
                            ? "./course run --exercise "
                            : "./course run ";
  command += chapter;
  if (!args.empty()) (command += ' ') += args;
  return command;
}
#endif

/// A server program running as a child process for the length of a test.
///
/// The constructor waits until the program has printed one `listening ROLE
/// URL` line per expected listener (the course's convention), so that its
/// ports are known before the test talks to it. Everything the program
/// writes (stdout and stderr) is kept for failure messages.
class program {
public:
  /// Starts `path` with `args` and waits for `listeners` listening lines.
  program(std::string path, std::vector<std::string> args, std::size_t listeners = 1,
          std::chrono::milliseconds timeout = std::chrono::seconds(20));
  /// Stops the program (SIGTERM, then SIGKILL if it will not stop).
  ~program();
  program(const program&) = delete;
  program& operator=(const program&) = delete;

  /// The port of the listener announced as `role` ("front", "reply", ...).
  std::uint16_t port(std::string_view role) const;
  /// Sends SIGTERM and waits; returns the exit status, or 128 + signal.
  int stop(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  /// Sends `signal` and returns at once.
  void signal(int signal);
  /// Waits for the program to end by itself; returns its exit status (or
  /// 128 + signal), or -1 if it still runs after `timeout`.
  int wait_exit(std::chrono::milliseconds timeout);
  /// Whether the process is still running.
  bool running();
  /// The process id.
  pid_t pid() const { return pid_; }
  /// Everything the program printed so far, both streams interleaved.
  std::string output() const;
  /// Waits until the program has printed `text` (true), or `timeout` passes
  /// or the program's output ends (false).
  bool wait_for_output(std::string_view text,
                       std::chrono::milliseconds timeout = std::chrono::seconds(10));
  /// The command line, ready to paste into a shell.
  std::string command_line() const;

private:
  void read_output(int fd);

  std::string path_;
  std::vector<std::string> args_;
  pid_t pid_ = -1;
  int exit_status_ = -1;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::string output_;                                       // guarded by mutex_
  bool output_ended_ = false;                                // guarded by mutex_
  std::map<std::string, std::uint16_t, std::less<>> ports_;  // guarded by mutex_
  std::thread reader_;
};

/// The CPU time (user and system) process `pid` has used so far, from
/// /proc/PID/stat; for tests that a server does not spin while it waits.
std::chrono::milliseconds cpu_time(pid_t pid);

/// What a program that ran to completion did.
struct completed {
  int status = -1;  ///< exit status, or 128 + signal
  std::string out;  ///< its standard output
  std::string err;  ///< its standard error
};

/// Runs `path` with `args`, feeding it `input` on standard input, and waits
/// for it to end (killing it after `timeout`).
completed run_to_end(const std::string& path, const std::vector<std::string>& args,
                     std::string_view input = {},
                     std::chrono::milliseconds timeout = std::chrono::seconds(60));

/// How many times `text` occurs in `output` (what a program printed, say).
std::size_t occurrences(std::string_view output, std::string_view text);

}  // namespace rdv::test
