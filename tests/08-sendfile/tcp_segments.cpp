#include "tcp_segments.hpp"

#include <linux/tcp.h>
#include <netinet/in.h>  // IPPROTO_TCP
#include <sys/socket.h>

namespace ch08 {

std::uint32_t data_segments_sent(int fd) {
  tcp_info info{};
  socklen_t size = sizeof info;
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) != 0) return 0;
  return info.tcpi_data_segs_out;
}

}  // namespace ch08
