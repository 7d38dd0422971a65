#pragma once
// Chapter 6's tests: send(2) and sendmsg(2) as the tests' program links them,
// through wrappers (the linker's --wrap) that can shut a connection's window,
// or reset it, on cue, right after a short write: a moment no real client
// can be made to choose.

#include <cstdint>

namespace ch06 {

// While one lives, the sockets whose own port is `port` (the connections a
// server accepted there) send their first byte alone (the first send comes
// back short), and every send after it fails with `error`. Every other
// socket sends as the system's do.
class first_byte_then {
public:
  first_byte_then(std::uint16_t port, int error);
  ~first_byte_then();
  first_byte_then(const first_byte_then&) = delete;
  first_byte_then& operator=(const first_byte_then&) = delete;
};

// As if the client's window shut after one byte: every later send finds no
// room (EAGAIN). Only a deadline ends such a write.
struct window_shuts_after_one_byte : first_byte_then {
  explicit window_shuts_after_one_byte(std::uint16_t port);
};

// As if the client reset the connection after one byte (ECONNRESET).
struct connection_resets_after_one_byte : first_byte_then {
  explicit connection_resets_after_one_byte(std::uint16_t port);
};

}  // namespace ch06
