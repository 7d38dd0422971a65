#pragma once
// Chapter 6's tests: send(2) and sendmsg(2) as the tests' program links them,
// through wrappers (the linker's --wrap) that can shut a connection's window
// on cue, right after a short write: the moment at which a client that stops
// reading leaves a server, which no real client can be made to choose.

#include <cstdint>

namespace ch06 {

// While one lives, the sockets whose own port is `port` (the connections a
// server accepted there) send as if the client's window shut after one byte:
// the first send moves its first byte only (a short write), and every send
// after it finds no room (EAGAIN). Only a deadline ends such a write. Every
// other socket sends as the system's do.
class window_shuts_after_one_byte {
public:
  explicit window_shuts_after_one_byte(std::uint16_t port);
  ~window_shuts_after_one_byte();
  window_shuts_after_one_byte(const window_shuts_after_one_byte&) = delete;
  window_shuts_after_one_byte& operator=(const window_shuts_after_one_byte&) = delete;
};

// The same, but the client resets the connection after the first byte:
// every send after it fails with ECONNRESET.
class connection_resets_after_one_byte {
public:
  explicit connection_resets_after_one_byte(std::uint16_t port);
  ~connection_resets_after_one_byte();
  connection_resets_after_one_byte(const connection_resets_after_one_byte&) = delete;
  connection_resets_after_one_byte& operator=(const connection_resets_after_one_byte&) = delete;
};

}  // namespace ch06
