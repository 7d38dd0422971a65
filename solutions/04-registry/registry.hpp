#pragma once
/// \file
/// Registered names: a scheduler's table of names for processes, Erlang's
/// `register/2`, `unregister/1` and `whereis/1`.

#include "scheduler.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rdv::proc {

/// A misuse of names: registering a taken name, a dead process or a process
/// that already has a name; unregistering or sending to a name nobody has.
/// Erlang raises `badarg` for all of these; so do we, as an exception, which
/// ends the calling process unless it catches it.
class registry_error : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

/// The names of one scheduler's processes: at most one name per process and
/// one process per name. A name is released when its process ends, so a name
/// always names a live process. Attached to a scheduler as an extension:
/// `node.use<registry>()`.
class registry : public extension {
public:
  /// The registry of `node` (made by node.use<registry>()).
  explicit registry(scheduler& node) : node_(node) {}

  /// Gives `who` the name `name`. Throws registry_error if the name is taken,
  /// if `who` has ended, or if `who` already has a name.
  void add(std::string name, pid who);
  /// Takes the name `name` away from its process; throws registry_error if
  /// nobody has it.
  void remove(std::string_view name);
  /// The process called `name`, if any.
  std::optional<pid> find(std::string_view name) const;
  /// The name of `who`, if it has one.
  std::optional<std::string> name_of(pid who) const;
  /// How many names are registered.
  std::size_t size() const noexcept { return by_name_.size(); }

  /// Releases the name of a process that ended.
  void process_exited(pid who, const exit_reason& reason) override;

private:
  // Hashes std::string and std::string_view alike, so that find() and
  // remove() look a string_view up without making a std::string of it.
  // Not noexcept, on purpose: GCC's map then keeps each name's hash in its
  // node, as it does for std::hash<std::string>. For a noexcept hash of its
  // own it assumes hashing is cheap and hashes again: the key of each node
  // a lookup passes, to learn where its bucket ends.
  struct name_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const {
      return std::hash<std::string_view>{}(name);
    }
  };

  scheduler& node_;
  std::unordered_map<std::string, pid, name_hash, std::equal_to<>> by_name_;
  std::unordered_map<pid, std::string_view> by_pid_;  // views of by_name_'s keys
};

/// Registers the name `name` for `who` on the current scheduler (Erlang's
/// `register(Name, Pid)`; `register` is a C++ keyword).
void register_name(std::string name, pid who);
/// Removes the name `name` (Erlang's `unregister(Name)`).
void unregister_name(std::string_view name);
/// The process registered as `name` on the current scheduler, if any
/// (Erlang's `whereis(Name)`, which returns `undefined` for none).
std::optional<pid> whereis(std::string_view name);

}  // namespace rdv::proc
