#include "registry.hpp"

#include <sstream>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

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
  // TODO(ch04.1, part 1 of 3): give a live process a name, unless the name or the process is taken
  // Hint: Which three things does Erlang's register/2 refuse? Check each one, and say
  //   in the message what was expected and what was found. (node_ is the scheduler:
  //   chapter 3 gave it a way to ask after a pid.) (more: ./course hint 04 1)
  (void)name; (void)who; (void)&misuse;
  throw rdv::todo("ch04.1", "give a live process a name, unless the name or the process is taken");
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
  // TODO(ch04.1, part 3 of 3): release the name of a process that ended
  // Hint: `named` is the pid's entry in by_pid_, and its value is the name. Which
  //   entries of the two maps must go, so that they keep agreeing? (more:
  //   ./course hint 04 1)
  throw rdv::todo("ch04.1", "release the name of a process that ended");
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
