#include "rdv/test/slow_reader.hpp"

#include "rdv/test/client.hpp"
#include "rdv/test/loopback.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace rdv::test {

slow_reader::slow_reader(std::uint16_t port, std::string_view request, std::size_t most) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  const int small = 4096;  // the kernel doubles it, and keeps a minimum
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  if (connect_to_loopback(fd_, port) != 0 && errno != EINPROGRESS) {
    throw std::runtime_error(std::string("connect: ") + std::strerror(errno));
  }
  pollfd connected{fd_, POLLOUT, 0};
  ::poll(&connected, 1, 10'000);
  std::string burst;
  while (burst.size() < 64 * 1024) burst += request;
  // Send until the connection has taken nothing for half a second: the
  // server has stopped reading, blocked on answers that nobody reads.
  while (sent_ < most) {
    pollfd writable{fd_, POLLOUT, 0};
    if (::poll(&writable, 1, 500) != 1) break;
    const auto n = ::send(fd_, burst.data(), std::min(burst.size(), most - sent_), MSG_NOSIGNAL);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) break;  // reset already: dropped() will say so
    sent_ += static_cast<std::size_t>(n);
  }
}

slow_reader::~slow_reader() {
  if (fd_ >= 0) ::close(fd_);
}

void slow_reader::reset() {
  const linger abort{.l_onoff = 1, .l_linger = 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
  ::close(fd_);
  fd_ = -1;
}

bool slow_reader::dropped_within(std::chrono::milliseconds limit) const {
  // No events asked for: poll(2) reports only an error or a hang-up, not
  // the unread answers that make the socket readable all along.
  pollfd gone{fd_, 0, 0};
  return ::poll(&gone, 1, static_cast<int>(limit.count())) == 1 &&
         (gone.revents & (POLLERR | POLLHUP)) != 0;
}

int status_once_served(std::uint16_t port, std::string_view request) {
  int status = 503;
  for (int tries = 0; tries < 100 && status == 503; ++tries) {
    if (tries > 0) ::poll(nullptr, 0, 100);  // a retry's pause, as a client would wait
    client c(port);
    c.send(request);
    status = c.read_response().status;
  }
  return status;
}

}  // namespace rdv::test
