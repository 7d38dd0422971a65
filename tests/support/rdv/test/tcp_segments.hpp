#pragma once
// How many segments carrying data a TCP socket has sent or received (Linux's
// TCP_INFO), in a file of its own: <linux/tcp.h>, which has the counters,
// clashes with the <netinet/tcp.h> that Asio includes.

#include <cstdint>

namespace rdv::test {

// Whether this system reports segment counts in TCP_INFO. Linux has since
// 4.6; qemu-user, for one, passes on only the first 4 bytes of the struct.
bool segment_counts_available();
// tcpi_data_segs_out of the socket `fd`; 0 if TCP_INFO fails.
std::uint32_t data_segments_sent(int fd);
// tcpi_data_segs_in of the socket `fd`; 0 if TCP_INFO fails.
std::uint32_t data_segments_received(int fd);

}  // namespace rdv::test
