#pragma once
/// \file
/// The seam through which later chapters attach state to a scheduler.

#include "exit_reason.hpp"
#include "pid.hpp"

namespace rdv::proc {

/// State that a later chapter attaches to a scheduler, the way Asio attaches
/// services to an io_context: chapter 4's name registry is one. A scheduler
/// makes at most one of each type, on first use (scheduler::use), tells it of
/// every process that ends, and destroys it with itself.
class extension {
public:
  virtual ~extension() = default;
  /// Called when process `who` has ended with `reason`, before its monitors
  /// hear of it (but not when the scheduler itself is being destroyed).
  virtual void process_exited(pid who, const exit_reason& reason) = 0;
};

}  // namespace rdv::proc
