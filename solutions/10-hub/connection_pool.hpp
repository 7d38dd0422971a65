#pragma once
/// \file
/// Chapter 10: kept-alive HTTP/1.1 client connections — the hub's to its
/// backends, the worker's to the hub's reply port — shared by the processes
/// of one scheduler.

#include "processes.hpp"
#include "response_parser.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

namespace rdv::hub {

/// How one request-response exchange ended.
struct exchange_result {
  /// Why there is no response: the connection was refused or reset, the
  /// deadline passed, or the answer was not HTTP. Unset when there is one.
  boost::system::error_code error;
  int status = 0;  ///< the response's status code, when there is a response
};

/// A pool of kept-alive HTTP/1.1 connections to servers, used by processes.
///
/// A process calls exchange(): it takes an idle connection to the server,
/// or opens one, or — when `max_per_server` are open and busy — waits in
/// line for one; it owns the connection (a local variable on its stack)
/// while it writes the request and reads the response; then it gives it
/// back, if the response allows another exchange on it, else closes it.
///
/// Who owns a pooled socket: the pool while it is idle, one process while
/// it is in use, never both. The pool itself is shared by every process of
/// one scheduler; they all run on that scheduler's thread, one at a time,
/// and touch the pool only between two suspensions, so it needs no lock.
/// It must not be used from another thread or scheduler.
class connection_pool {
public:
  /// The clock of deadlines.
  using clock = std::chrono::steady_clock;

  /// A pool that opens at most `max_per_server` connections to each server.
  explicit connection_pool(std::size_t max_per_server = 1024);
  /// Closes the idle connections.
  ~connection_pool();
  connection_pool(const connection_pool&) = delete;
  connection_pool& operator=(const connection_pool&) = delete;

  /// Sends `request` (a whole HTTP/1.1 request, framed) to `server` and reads
  /// the response to it, whose body it drops; `method` is the request's (a
  /// response to HEAD has no body). Gives up at `deadline`. A kept-alive
  /// connection that fails before the first byte of the response (the
  /// server closed it while it was idle) is retried once on a new one.
  /// Call it in a process.
  exchange_result exchange(const boost::asio::ip::tcp::endpoint& server, std::string_view request,
                           std::string_view method, clock::time_point deadline);

  /// How many connections to `server` are open, idle or in use.
  std::size_t open(const boost::asio::ip::tcp::endpoint& server) const;

private:
  struct connection;
  struct handoff;
  // One server's connections.
  struct server_state {
    std::vector<std::unique_ptr<connection>> idle;  // the most recently used last
    std::size_t open = 0;                           // idle and in use
    std::deque<proc::pid> waiting;                  // processes in line for a connection
  };

  std::unique_ptr<connection> take(server_state& s, const boost::asio::ip::tcp::endpoint& to,
                                   clock::time_point deadline, boost::system::error_code& ec);
  std::unique_ptr<connection> wait_in_line(server_state& s, clock::time_point deadline,
                                           bool& slot_freed);
  void give_back(server_state& s, std::unique_ptr<connection> c);
  void close(server_state& s, std::unique_ptr<connection> c);

  std::size_t max_per_server_;
  std::map<boost::asio::ip::tcp::endpoint, server_state> servers_;
};

}  // namespace rdv::hub
