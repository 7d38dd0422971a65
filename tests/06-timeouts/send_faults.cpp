#include "send_faults.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>

namespace {

std::atomic<std::uint16_t> shut_port{0};  // 0: no fault
std::atomic<bool> first_byte_sent{false};
std::atomic<int> error_after{EAGAIN};  // what every send after the first byte fails with

enum class fault { none, one_byte, full };  // full: no room, or error_after

fault fault_for(int socket, std::size_t length) {
  const std::uint16_t port = shut_port.load();
  if (port == 0 || length == 0) return fault::none;
  ::sockaddr_in own{};
  ::socklen_t size = sizeof own;
  if (::getsockname(socket, reinterpret_cast<::sockaddr*>(&own), &size) != 0 ||
      own.sin_family != AF_INET || ntohs(own.sin_port) != port) {
    return fault::none;
  }
  return first_byte_sent.exchange(true) ? fault::full : fault::one_byte;
}

std::size_t total_length(const ::msghdr* message) {
  std::size_t total = 0;
  for (std::size_t i = 0; i < message->msg_iovlen; ++i) total += message->msg_iov[i].iov_len;
  return total;
}

}  // namespace

// Asio sends one buffer with send(2) and several with sendmsg(2); the
// linker's --wrap (CMakeLists.txt) sends every call of either to the
// wrappers, under the names it gives them, and the real ones to libc's.
ssize_t real_send(int socket, const void* data, std::size_t length,
                  int flags) __asm__("__real_send");
ssize_t real_sendmsg(int socket, const ::msghdr* message, int flags) __asm__("__real_sendmsg");
ssize_t faulty_send(int socket, const void* data, std::size_t length,
                    int flags) __asm__("__wrap_send");
ssize_t faulty_sendmsg(int socket, const ::msghdr* message, int flags) __asm__("__wrap_sendmsg");

ssize_t faulty_send(int socket, const void* data, std::size_t length, int flags) {
  switch (fault_for(socket, length)) {
  case fault::none: break;
  case fault::one_byte: return real_send(socket, data, 1, flags);
  case fault::full: errno = error_after; return -1;
  }
  return real_send(socket, data, length, flags);
}

ssize_t faulty_sendmsg(int socket, const ::msghdr* message, int flags) {
  switch (fault_for(socket, total_length(message))) {
  case fault::none: break;
  case fault::one_byte: {
    const auto* first = std::find_if(message->msg_iov, message->msg_iov + message->msg_iovlen,
                                     [](const ::iovec& v) { return v.iov_len != 0; });
    return real_send(socket, first->iov_base, 1, flags);
  }
  case fault::full: errno = error_after; return -1;
  }
  return real_sendmsg(socket, message, flags);
}

namespace ch06 {

first_byte_then::first_byte_then(std::uint16_t port, int error) {
  first_byte_sent = false;
  error_after = error;
  shut_port = port;
}

first_byte_then::~first_byte_then() { shut_port = 0; }

window_shuts_after_one_byte::window_shuts_after_one_byte(std::uint16_t port)
    : first_byte_then(port, EAGAIN) {}

connection_resets_after_one_byte::connection_resets_after_one_byte(std::uint16_t port)
    : first_byte_then(port, ECONNRESET) {}

}  // namespace ch06
