// Sanitizer builds only (see cmake/RdvSanitize.cmake).
//
// AddressSanitizer and ThreadSanitizer must be told about every stack switch,
// and Boost.Context does so only in its ucontext implementation, selected with
// BOOST_USE_UCONTEXT. That implementation is header-only except for this one
// function, which Debian's libboost_context (built for the assembly
// implementation) does not contain: it names the fiber running on this thread.
#include <boost/context/fiber.hpp>

namespace boost::context::detail {

namespace {

// The record of the thread's own stack, made on first use in each thread.
struct thread_records {
  fiber_activation_record main;
  fiber_activation_record* running = &main;
};

}  // namespace

fiber_activation_record*& fiber_activation_record::current() noexcept {
  thread_local thread_records records;
  return records.running;
}

}  // namespace boost::context::detail
