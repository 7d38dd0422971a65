#include "address.hpp"

#include <ostream>

namespace rdv::proc {

//! [resolve]
pid address::resolve() const {
  // EXERCISE ch04.1, part 2: turn an address into the pid it reaches now
  // HINT: A pid is its own answer. Which function finds the process behind a name?
  // HINT: What does Erlang do when you send to a name nobody has? Say which name.
  if (const pid* who = std::get_if<pid>(&where_)) return *who;
  const std::string& name = std::get<std::string>(where_);
  if (const auto found = whereis(name)) return *found;
  throw registry_error("send to \"" + name + "\": no process is registered under that name");
  // END EXERCISE
}
//! [resolve]

std::string address::to_string() const {
  if (const pid* who = std::get_if<pid>(&where_)) return proc::to_string(*who);
  return std::get<std::string>(where_);
}

std::ostream& operator<<(std::ostream& out, const address& to) { return out << to.to_string(); }

}  // namespace rdv::proc
