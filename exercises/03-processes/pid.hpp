#pragma once
/// \file
/// Process identifiers: small values that name one process for its whole life.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

namespace rdv::proc {

/// Names one process, like Erlang's `<0.42.0>`: the process's slot in its
/// scheduler's table, and how many processes used that slot before it, so
/// that a pid never names the process that later reuses the slot.
struct pid {
  std::uint32_t number = 0;  ///< the table slot; 0 is never used, so `pid{}` names nobody
  std::uint32_t serial = 0;  ///< how many processes used the slot before this one

  /// Whether this pid could name a process (`pid{}` does not).
  explicit operator bool() const noexcept { return number != 0; }
  /// Pids compare by number, then serial: a stable order for maps and sets.
  friend auto operator<=>(const pid&, const pid&) = default;
};

/// `<0.42.0>`: node 0 (this one), number, serial, as Erlang prints a pid.
std::string to_string(pid p);
/// Writes to_string(p).
std::ostream& operator<<(std::ostream& out, pid p);

}  // namespace rdv::proc

/// \cond
namespace std {
// Hashes pids, for unordered containers.
template <>
struct hash<rdv::proc::pid> {
  size_t operator()(rdv::proc::pid p) const noexcept {
    return hash<uint64_t>{}(uint64_t{p.number} << 32 | p.serial);
  }
};
}  // namespace std
/// \endcond
