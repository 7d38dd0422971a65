#pragma once
/// \file
/// The exception every exercise stub throws until the learner writes the code.

#include <stdexcept>
#include <string>

namespace rdv {

/// Thrown by an unsolved exercise region; the message names the exercise.
class todo : public std::logic_error {
public:
  /// `exercise` is the region's id, e.g. "ch01.2"; `what_to_do` its task.
  todo(const std::string& exercise, const std::string& what_to_do)
      : std::logic_error("TODO(" + exercise + "): " + what_to_do) {}
};

}  // namespace rdv
