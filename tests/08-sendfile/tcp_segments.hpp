#pragma once
// How many segments carrying data a TCP socket has sent (Linux's TCP_INFO),
// in a file of its own: <linux/tcp.h>, which has the counter, clashes with
// the <netinet/tcp.h> that Asio includes.
#include <cstdint>

namespace ch08 {

// tcpi_data_segs_out of the socket `fd`; 0 if TCP_INFO fails.
std::uint32_t data_segments_sent(int fd);

}  // namespace ch08
