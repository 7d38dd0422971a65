#pragma once
/// \file
/// Notices, the moment it happens, that the code under test reached an
/// exercise stub (rdv::todo), in the test's own process or in a program the
/// test started, so that a test fails at once instead of waiting for an
/// answer that will never come.

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

namespace rdv::test {

/// The code under test reached an unsolved exercise.
class unsolved_exercise : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Records that a stub was reached; `message` holds "TODO(chNN.K): ...".
/// The first one of a test is kept. Safe from any thread.
void note_todo(const std::string& message) noexcept;

/// The first stub reached since the current test began, if any.
std::optional<std::string> todo_reached();

/// What to tell the learner about the stub reached, if any: which exercise,
/// and the command that gives its hints.
std::optional<std::string> unsolved_message();

/// Throws unsolved_exercise if a stub was reached: what every wait of the
/// test support calls while it waits.
void throw_if_todo();

/// Forgets what was reached (each test starts afresh; main.cpp calls it).
void forget_todo() noexcept;

/// Waits up to `limit` for `fd` to become readable, as poll(2) does; true
/// if it did. Throws unsolved_exercise as soon as a stub is reached
/// meanwhile, from any thread.
bool wait_readable(int fd, std::chrono::milliseconds limit);
/// The same for writable.
bool wait_writable(int fd, std::chrono::milliseconds limit);

/// Waits on `changed` until `done()` holds or `limit` passes, as
/// condition_variable::wait_for does; returns done(). Throws
/// unsolved_exercise as soon as a stub is reached meanwhile.
template <class Predicate>
bool wait_until_done(std::condition_variable& changed, std::unique_lock<std::mutex>& lock,
                     std::chrono::milliseconds limit, Predicate done) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    throw_if_todo();
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return false;
    changed.wait_for(lock, std::min<std::chrono::steady_clock::duration>(
                               deadline - now, std::chrono::milliseconds(50)));
  }
  return true;
}

}  // namespace rdv::test
