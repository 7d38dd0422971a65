#include "sendfile_faults.hpp"

#include "sendfile_call.hpp"

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace {

std::atomic<ch08::sendfile_fault> next_fault{ch08::sendfile_fault::none};
std::atomic<std::size_t> last_count{0};

}  // namespace

// The names the linker gives the wrapped function and the wrapper
// (CMakeLists.txt: --wrap with rdv::files::sendfile_some's mangled name).
rdv::files::sendfile_result real_sendfile_some(int socket, int file, std::uint64_t offset,
                                               std::size_t count) noexcept
    __asm__("__real__ZN3rdv5files13sendfile_someEiimm");
rdv::files::sendfile_result faulty_sendfile_some(int socket, int file, std::uint64_t offset,
                                                 std::size_t count) noexcept
    __asm__("__wrap__ZN3rdv5files13sendfile_someEiimm");

rdv::files::sendfile_result faulty_sendfile_some(int socket, int file, std::uint64_t offset,
                                                 std::size_t count) noexcept {
  last_count = count;
  const ch08::sendfile_fault fault = next_fault.exchange(ch08::sendfile_fault::none);
  switch (fault) {
  case ch08::sendfile_fault::none: break;
  case ch08::sendfile_fault::interrupted: return {0, EINTR};
  case ch08::sendfile_fault::reset: return {0, ECONNRESET};
  case ch08::sendfile_fault::sent_then_full:
  case ch08::sendfile_fault::sent_then_interrupted: {
    const rdv::files::sendfile_result r = real_sendfile_some(socket, file, offset, count);
    const int reported = fault == ch08::sendfile_fault::sent_then_full ? EAGAIN : EINTR;
    return r.error == 0 && r.sent > 0 ? rdv::files::sendfile_result{r.sent, reported} : r;
  }
  }
  return real_sendfile_some(socket, file, offset, count);
}

namespace ch08 {

void fail_next_sendfile(sendfile_fault fault) { next_fault = fault; }

std::size_t last_count_asked() { return last_count; }

}  // namespace ch08
