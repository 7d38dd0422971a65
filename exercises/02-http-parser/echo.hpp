#pragma once
/// \file
/// Chapter 2's `echo` server: the learner's microscope. It answers every
/// request with JSON describing what the parser saw, keeps connections alive,
/// answers pipelined requests in order, and closes after a malformed one.

#include "parse_error.hpp"
#include "request_parser.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/spawn.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace rdv::echo {

/// Drives a request_parser over the bytes of one connection (or of a file)
/// and reports each request as JSON, or the error that ended the stream.
class session {
public:
  /// Called for each complete request: its description, and whether it was
  /// a HEAD request (whose answer has no body).
  using on_request = std::function<void(const boost::json::object& description, bool head)>;
  /// Called once, for the error that ends the stream.
  using on_error = std::function<void(http::parse_error error)>;

  /// A session enforcing `limits`, reporting to `request` and `error`.
  session(const http::limits& limits, on_request request, on_error error);

  /// Parses as much of `received` as it can; returns how many bytes it used,
  /// which the caller drops before calling again with what follows.
  std::size_t feed(std::string_view received);
  /// Whether the stream is over: after an error, or a request that closes.
  bool closed() const { return closed_; }
  /// Whether the session is between two requests (not inside one).
  bool between_requests() const { return !in_request_; }

private:
  http::request_parser parser_;
  on_request on_request_;
  on_error on_error_;
  boost::json::object description_;  // of the current request
  std::string body_;                 // of the current request; keeps its capacity
  bool head_request_ = false, keep_alive_ = true, in_request_ = false, closed_ = false;
};

/// Appends echo's HTTP answer to a request: its description as JSON.
void append_reply(std::string& out, const boost::json::object& description, bool head);

/// Appends the answer to a rejected request: its status and a short reason.
void append_error_reply(std::string& out, http::parse_error error);

/// `echo --stdin`: parses the requests in `in` (all of it), writes one line of
/// JSON per request to `out`, and returns the exit status: 0, or 1 after a
/// malformed request or input that ends inside a request. With `crlf`, a LF
/// not preceded by CR becomes CRLF first (for files written in an editor).
int describe_stream(std::istream& in, std::ostream& out, bool crlf, const http::limits& limits);

/// How long a connection may go without completing a request before echo
/// hangs up: a silent client, or one that sends a byte now and then, holds
/// a coroutine and a descriptor only that long.
inline constexpr std::chrono::milliseconds default_idle{5000};

/// Serves one connection until the client leaves, asks to close, sends a
/// malformed request, or completes no request for `idle`.
void serve(boost::asio::ip::tcp::socket socket, boost::asio::yield_context yield,
           const http::limits& limits, std::chrono::milliseconds idle = default_idle);

/// Accepts connections until the acceptor is closed, each in its own
/// coroutine; pauses a moment when out of file descriptors.
void accept(boost::asio::ip::tcp::acceptor& acceptor, boost::asio::yield_context yield,
            const http::limits& limits, std::chrono::milliseconds idle = default_idle);

}  // namespace rdv::echo
