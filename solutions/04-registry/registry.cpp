#include "registry.hpp"

#include <sstream>

namespace rdv::proc {

namespace {

// "register_name(\"test\", <0.5.0>): " and what went wrong.
std::string misuse(std::string_view call, std::string_view name, pid who, std::string_view what) {
  std::ostringstream out;
  out << call << "(\"" << name << "\", " << who << "): " << what;
  return out.str();
}

}  // namespace

//! [add]
void registry::add(std::string name, pid who) {
  // EXERCISE ch04.1: give a live process a name, unless the name or the process is taken
  // HINT: Which three things does Erlang's register/2 refuse? Check each one,
  //       and say in the message what was expected and what was found. (node_
  //       is the scheduler: chapter 3 gave it a way to ask after a pid.)
  // HINT: Two maps must agree: name to pid, and pid to name. When do both change?
  // HINT: by_pid_ keeps a view of the name, not a copy: of which string, which
  //       stays where it is for as long as the name is registered?
  // STUB: (void)name; (void)who; (void)&misuse;
  if (const auto taken = by_name_.find(name); taken != by_name_.end()) {
    throw registry_error(
        misuse("register_name", name, who, "the name is taken by " + to_string(taken->second)));
  }
  if (!node_.alive(who)) {
    throw registry_error(misuse("register_name", name, who, "no such process (it has ended)"));
  }
  if (const auto named = by_pid_.find(who); named != by_pid_.end()) {
    throw registry_error(
        misuse("register_name", name, who,
               "it is already registered as \"" + std::string(named->second) + '"'));
  }
  const auto named = by_name_.emplace(std::move(name), who).first;
  try {
    by_pid_.emplace(who, named->first);  // the map's own copy: its nodes never move
  } catch (...) {                        // out of memory: neither map changes
    by_name_.erase(named);
    throw;
  }
  // END EXERCISE
}
//! [add]

void registry::remove(std::string_view name) {
  const auto named = by_name_.find(name);
  if (named == by_name_.end()) {
    throw registry_error("unregister_name(\"" + std::string(name) +
                         "\"): no process is registered under that name");
  }
  by_pid_.erase(named->second);
  by_name_.erase(named);
}

//! [find]
std::optional<pid> registry::find(std::string_view name) const {
  if (const auto named = by_name_.find(name); named != by_name_.end()) return named->second;
  return std::nullopt;
}
//! [find]

std::optional<std::string> registry::name_of(pid who) const {
  if (const auto named = by_pid_.find(who); named != by_pid_.end()) {
    return std::string(named->second);
  }
  return std::nullopt;
}

//! [process_exited]
void registry::process_exited(pid who, const exit_reason& reason) {
  (void)reason;  // however it ended, the name is free again
  const auto named = by_pid_.find(who);
  if (named == by_pid_.end()) return;  // most processes have no name
  // EXERCISE ch04.1, part 3: release the name of a process that ended
  // HINT: `named` is the pid's entry in by_pid_, and its value is the name.
  //       Which entries of the two maps must go, so that they keep agreeing?
  // HINT: Which iterator is still valid after the other erase? And what does
  //       named->second view? (C++20's unordered_map::erase takes an iterator
  //       or a key of the map's own type; find() takes a view.)
  by_name_.erase(by_name_.find(named->second));
  by_pid_.erase(named);
  // END EXERCISE
}
//! [process_exited]

void register_name(std::string name, pid who) {
  scheduler::current().use<registry>().add(std::move(name), who);
}

void unregister_name(std::string_view name) { scheduler::current().use<registry>().remove(name); }

std::optional<pid> whereis(std::string_view name) {
  return scheduler::current().use<registry>().find(name);
}

}  // namespace rdv::proc
