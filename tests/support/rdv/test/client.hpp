#pragma once
/// \file
/// A plain TCP client for tests: blocking calls with a deadline, HTTP response
/// reading, and a transcript of every byte for failure messages.

#include "rdv/test/server_thread.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rdv::test {

/// Header fields as a test reads them: name and value, in order.
using field_lines = std::vector<std::pair<std::string, std::string>>;

/// Whether `a` and `b` are the same, ASCII case aside (field names, tokens).
bool same_ignoring_case(std::string_view a, std::string_view b);
/// The value of the first field in `fields` called `name`, or "".
std::string field_value(const field_lines& fields, std::string_view name);
/// How many fields in `fields` are called `name`.
std::size_t field_count(const field_lines& fields, std::string_view name);

/// One HTTP response as the test client read it off the wire.
struct response {
  std::string version;  ///< "HTTP/1.1"
  int status = 0;       ///< 200
  std::string reason;   ///< "OK"
  field_lines fields;   ///< in order, as received
  std::string body;     ///< decoded from Content-Length or chunked framing
  std::string raw;      ///< every byte of the response as received

  /// The value of the first field called `name` (ASCII case-insensitive), or "".
  std::string field(std::string_view name) const;
  /// Whether a field called `name` is present.
  bool has_field(std::string_view name) const;
};

/// A network step went wrong; the message carries the transcript so far.
class network_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A connection to a server under test.
///
/// Every read waits at most `timeout` and checks, while waiting, whether the
/// server's thread died; either way it throws network_error with the bytes
/// sent and received and a command that reproduces the exchange by hand.
class client {
public:
  /// Connects to `server` on 127.0.0.1.
  explicit client(const server_thread& server,
                  std::chrono::milliseconds timeout = std::chrono::seconds(10));
  /// Connects to 127.0.0.1:`port`, a server this test does not own.
  explicit client(std::uint16_t port, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  ~client();
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  /// Sends all of `bytes`.
  void send(std::string_view bytes);
  /// Sends `bytes` in writes of `piece` bytes, each its own TCP segment.
  void send_in_pieces(std::string_view bytes, std::size_t piece);
  /// Reads one response; `to_head_request` says the body is absent whatever
  /// Content-Length says (answers to HEAD).
  response read_response(bool to_head_request = false);
  /// Reads exactly `bytes` bytes, for protocols that are not HTTP.
  std::string read_exactly(std::size_t bytes);
  /// Reads one line and takes its CRLF off, for line protocols (NATS's, say);
  /// throws network_error at the end of the stream, as any read does.
  std::string read_line();
  /// Reads until the server closes the connection. Returns true if it did
  /// (orderly or by reset) before the timeout, false if it is still open;
  /// throws, as a read does, if the server died or reached an exercise stub.
  bool wait_closed();
  /// Waits until every byte sent so far is in the server's socket (on
  /// loopback, acknowledged), so that the server can read them whenever it
  /// looks; false if that takes longer than the timeout.
  bool wait_delivered();
  /// Closes the connection now, without reading what is pending.
  void close();

  /// The connection's socket, for what a test asks the kernel about it
  /// (TCP_INFO's counters, say); the client keeps it.
  int native_handle() const { return fd_; }
  /// Every byte received so far, as it came.
  const std::string& received() const { return received_; }
  /// Every byte sent and received so far, escaped, and how to reproduce them by hand.
  std::string transcript() const;

private:
  std::size_t read_more();  // appends to buffered_; 0 at end of stream
  // Like read_more(), but by `deadline`; nothing when it passes with no byte.
  std::optional<std::size_t> read_by(std::chrono::steady_clock::time_point deadline);
  [[noreturn]] void fail(const std::string& what) const;
  std::size_t need(std::size_t bytes);  // reads until buffered_ holds `bytes`

  int fd_ = -1;
  std::uint16_t port_ = 0;
  const server_thread* server_ = nullptr;
  std::chrono::milliseconds timeout_;
  std::string sent_, received_;
  std::string buffered_;  // received but not yet consumed by read_response
  bool eof_ = false;
};

}  // namespace rdv::test
