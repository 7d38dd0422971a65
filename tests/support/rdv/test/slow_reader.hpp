#pragma once
/// \file
/// A client that sends and never reads: the slow reader (or the attacker
/// who pretends to be one), for the tests that a server does not let it
/// hold a connection for ever.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace rdv::test {

/// Connects to 127.0.0.1:`port` with a small receive buffer and sends
/// `request` over and over, pipelined, until the connection will take no
/// more (the server's answers fill every buffer between them, so the server
/// can neither write nor, soon, read), or `most` bytes have gone. It never
/// reads; the connection stays open until destruction.
class slow_reader {
public:
  /// Connects and sends as described above.
  slow_reader(std::uint16_t port, std::string_view request, std::size_t most = 64 << 20);
  ~slow_reader();
  slow_reader(const slow_reader&) = delete;
  slow_reader& operator=(const slow_reader&) = delete;

  /// How many bytes were sent.
  std::size_t sent() const { return sent_; }
  /// Waits up to `limit` for the server to give up on the connection (a
  /// reset: a close cannot reach a client whose window is full); true if it
  /// did. Never reads.
  bool dropped_within(std::chrono::milliseconds limit) const;
  /// Leaves with a reset (SO_LINGER 0), under whatever write of the server's
  /// waits for room.
  void reset();

private:
  int fd_ = -1;
  std::size_t sent_ = 0;
};

/// Asks `request` of the server on 127.0.0.1:`port`, on a new connection
/// each time, until the answer is not 503 (a server whose connections slow
/// readers hold refuses others), trying every 100 ms for up to ten
/// seconds; returns the last status.
int status_once_served(std::uint16_t port, std::string_view request);

}  // namespace rdv::test
