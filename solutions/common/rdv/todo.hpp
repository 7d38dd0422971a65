#pragma once
/// \file
/// The exception every exercise stub throws until the learner writes the code.

#include <stdexcept>
#include <string>

namespace rdv {

/// Thrown by an unsolved exercise region; the message names the exercise.
///
/// Constructing one also announces it at once, because the code that throws
/// it may be deep inside a server that catches and logs what its processes
/// throw: a program prints `rdv: reached TODO(chNN.K): ...` on standard
/// error, and a test (which sets an observer) fails then and there instead
/// of waiting for an answer that will never come.
class todo : public std::logic_error {
public:
  /// `exercise` is the region's id, e.g. "ch01.2"; `what_to_do` its task.
  todo(const std::string& exercise, const std::string& what_to_do);

  /// What learns of every todo as it is made, instead of standard error.
  using observer = void (*)(const std::string& message) noexcept;
  /// Sets the observer (nullptr: standard error again); the tests set one.
  static void observe(observer watcher) noexcept;
};

}  // namespace rdv
