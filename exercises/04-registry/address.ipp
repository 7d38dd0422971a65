// The definition of send() to an address, declared in address.hpp.
#pragma once

#include "address.hpp"

#include <utility>

namespace rdv::proc {

//! [send]
template <class M>
bool send(const address& to, M&& message) {
  return scheduler::current().send(to.resolve(), std::forward<M>(message));
}
//! [send]

}  // namespace rdv::proc
