#include "exit_reason.hpp"

#include <boost/core/demangle.hpp>

#include <cxxabi.h>
#include <ostream>
#include <typeinfo>

namespace rdv::proc {

namespace {

// "std::runtime_error: disk full", or "int (not a std::exception)".
std::string describe(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return boost::core::demangle(typeid(e).name()) + ": " + e.what();
  } catch (...) {
    const std::type_info* type = abi::__cxa_current_exception_type();
    return (type ? boost::core::demangle(type->name()) : "unknown") + " (not a std::exception)";
  }
}

}  // namespace

exit_reason exit_reason::from(std::exception_ptr error) {
  exit_reason reason;
  reason.kind_ = kind::exception;
  reason.description_ = describe(error);
  reason.error_ = std::move(error);
  return reason;
}

exit_reason exit_reason::no_process() {
  exit_reason reason;
  reason.kind_ = kind::noproc;
  return reason;
}

std::string exit_reason::text() const {
  switch (kind_) {
  case kind::normal: return "normal";
  case kind::noproc: return "noproc";
  case kind::exception: return description_;
  }
  return "?";
}

std::ostream& operator<<(std::ostream& out, const exit_reason& reason) {
  return out << reason.text();
}

}  // namespace rdv::proc
