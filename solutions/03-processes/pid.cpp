#include "pid.hpp"

#include <ostream>

namespace rdv::proc {

//! [to_string]
std::string to_string(pid p) {
  return "<0." + std::to_string(p.number) + '.' + std::to_string(p.serial) + '>';
}
//! [to_string]

std::ostream& operator<<(std::ostream& out, pid p) { return out << to_string(p); }

}  // namespace rdv::proc
