#pragma once
/// \file
/// Why a process ended, and the message its monitors get about it.

#include "pid.hpp"

#include <cstdint>
#include <exception>
#include <iosfwd>
#include <string>

namespace rdv::proc {

/// Why a process ended: Erlang's exit reason. A process whose function returns
/// ends `normal`; one whose function throws ends with that exception, which
/// the reason keeps, with a readable description of it.
class exit_reason {
public:
  /// The ways a process can end.
  enum class kind : std::uint8_t {
    normal,     ///< its function returned
    exception,  ///< its function threw; exception() has what it threw
    noproc,     ///< there was no such process (a monitor set too late)
  };

  /// A normal exit.
  exit_reason() = default;
  /// An exit by the exception `error`; text() names its type and message.
  static exit_reason from(std::exception_ptr error);
  /// The reason a monitor of a process that no longer exists reports.
  static exit_reason no_process();

  /// How the process ended.
  kind what() const noexcept { return kind_; }
  /// Whether it ended normally (its function returned).
  bool normal() const noexcept { return kind_ == kind::normal; }
  /// "normal", "noproc", or the exception's type and message, e.g.
  /// "std::runtime_error: disk full".
  std::string text() const;
  /// What the process threw (null unless what() is kind::exception).
  std::exception_ptr exception() const noexcept { return error_; }

private:
  kind kind_ = kind::normal;
  std::exception_ptr error_;
  std::string description_;  // of error_
};

/// Writes reason.text().
std::ostream& operator<<(std::ostream& out, const exit_reason& reason);

/// The message a process receives when a process it monitors ends
/// (Erlang's `{'DOWN', Ref, process, Pid, Reason}`).
struct down {
  pid who;             ///< the process that ended
  exit_reason reason;  ///< why it ended
};

}  // namespace rdv::proc
