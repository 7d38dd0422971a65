#include "rdv/test/stream_client.hpp"

#include "rdv/test/loopback.hpp"
#include "rdv/test/unsolved.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace rdv::test {

namespace {

[[noreturn]] void fail(const char* what, int error) {
  if (error == EAGAIN || error == EWOULDBLOCK) {
    throw std::runtime_error(std::string(what) +
                             ": the server made no progress before the timeout");
  }
  throw std::runtime_error(std::string(what) + ": " + std::strerror(error));
}

}  // namespace

stream_client::stream_client(std::uint16_t port, int receive_buffer, int segment,
                             std::chrono::milliseconds timeout)
    : timeout_(timeout) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) fail("socket", errno);
  if (receive_buffer > 0) {  // before connect: the window scale is agreed on then
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  }
  if (segment > 0) ::setsockopt(fd_, IPPROTO_TCP, TCP_MAXSEG, &segment, sizeof segment);
  if (connect_to_loopback(fd_, port) != 0) {
    const int error = errno;
    ::close(fd_);
    fail("connect", error);
  }
}

stream_client::~stream_client() { ::close(fd_); }

void stream_client::write_all(std::string_view bytes) {
  while (!bytes.empty()) {
    if (!wait_writable(fd_, timeout_)) fail("send", EAGAIN);
    const auto n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) fail("send", errno);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void stream_client::shutdown_write() { ::shutdown(fd_, SHUT_WR); }

std::string stream_client::read_to_end() {
  std::string got;
  char buffer[64 * 1024];
  for (;;) {
    if (!wait_readable(fd_, timeout_)) fail("recv", EAGAIN);
    const auto n = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) fail("recv", errno);
    if (n == 0) return got;
    got.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace rdv::test
