#include "rdv/test/tcp_segments.hpp"

#include <linux/tcp.h>
#include <netinet/in.h>  // IPPROTO_TCP
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>

namespace rdv::test {

namespace {

tcp_info info_of(int fd) {
  tcp_info info{};
  socklen_t size = sizeof info;
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) != 0) return {};
  return info;
}

}  // namespace

bool segment_counts_available() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  tcp_info info{};
  socklen_t size = sizeof info;
  const bool reported =
      ::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) == 0 &&
      size >= offsetof(tcp_info, tcpi_data_segs_out) + sizeof info.tcpi_data_segs_out;
  ::close(fd);
  return reported;
}

std::uint32_t data_segments_sent(int fd) { return info_of(fd).tcpi_data_segs_out; }

std::uint32_t data_segments_received(int fd) { return info_of(fd).tcpi_data_segs_in; }

}  // namespace rdv::test
