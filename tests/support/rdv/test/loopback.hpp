#pragma once
/// \file
/// Connecting a plain socket to a server under test on 127.0.0.1.

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>

namespace rdv::test {

/// Connects `fd` to 127.0.0.1:`port`, as ::connect does (0, or -1 and errno).
inline int connect_to_loopback(int fd, std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
}

}  // namespace rdv::test
