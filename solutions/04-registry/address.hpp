#pragma once
/// \file
/// One type for "where a message goes": a pid or a registered name, so that
/// either can sit in the same variable and be sent to the same way.

#include "processes.hpp"
#include "registry.hpp"

#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace rdv::proc {

/// A pid or a registered name. Neumann's complaint, that `P = test, P ! Msg`
/// did not work in the Erlang he used, does not apply: an address made from a
/// name is sent to by looking the name up at each send, so it reaches
/// whichever process holds the name then.
class address {
public:
  // Implicit on purpose: wherever an address is expected, a pid or a name will do.

  /// The address of the process `who`.
  address(pid who) : where_(who) {}
  /// The address of whichever process is registered as `name` when a message is sent.
  address(std::string name) : where_(std::move(name)) {}
  /// The address registered as `name`.
  address(const char* name) : where_(std::string(name)) {}

  /// Whether this address is a name (not a pid).
  bool is_name() const noexcept { return std::holds_alternative<std::string>(where_); }
  /// The pid this address reaches now: the pid itself, or the process
  /// registered under the name. Throws registry_error for a name nobody has.
  pid resolve() const;
  /// `<0.42.0>` for a pid, the name itself for a name.
  std::string to_string() const;

  /// Two addresses are equal when they are the same pid or the same name.
  friend bool operator==(const address&, const address&) = default;

private:
  std::variant<pid, std::string> where_;
};

/// Writes address.to_string().
std::ostream& operator<<(std::ostream& out, const address& to);

/// Sends `message` to the process at `to`: Erlang's `To ! Msg`, for a pid or a
/// name alike. A name nobody has is an error (registry_error); a pid that has
/// ended is not (the message is dropped and send returns false).
template <class M>
bool send(const address& to, M&& message);

}  // namespace rdv::proc

#include "address.ipp"  // send()
