#pragma once
/// \file
/// Chapter 10: kept-alive, pipelined HTTP/1.1 client connections — the
/// hub's to its backends, the worker's to the hub's reply port — shared by
/// the processes of one scheduler.

#include "call.hpp"
#include "processes.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
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
/// Each connection is driven by a process of its own, its *line*: a process
/// that wants an exchange sends the line its request as a message and
/// receives the status back as one. The line writes every request waiting
/// in its mailbox with one system call, one after the other on the same
/// connection (HTTP/1.1 pipelining), then reads their responses, which come
/// in the same order. The busier the pool, the more requests share a write:
/// the mailbox is where the batching happens.
///
/// A line takes up to `depth` exchanges at a time before the pool opens
/// another connection to the server, up to `max_per_server`; beyond that,
/// the least busy line takes the request.
///
/// Pipelining suits servers that answer at once, as a hub's backend answers
/// a forward with 202 and the hub a reply with 204: a slow response holds
/// up those behind it on the same connection.
///
/// The pool and its lines are shared by every process of one scheduler;
/// they all run on that scheduler's thread, one at a time, so the pool
/// needs no lock. It must not be used from another thread or scheduler.
class connection_pool {
public:
  /// The clock of deadlines.
  using clock = std::chrono::steady_clock;

  /// A pool that opens at most `max_per_server` connections to each server,
  /// a new one once each open one carries `depth` unanswered requests.
  explicit connection_pool(std::size_t max_per_server = 1024, std::size_t depth = 32);
  /// Forgets the lines; they live on, idle, until their scheduler ends them.
  ~connection_pool();
  connection_pool(const connection_pool&) = delete;
  connection_pool& operator=(const connection_pool&) = delete;

  /// Sends `request` (a whole HTTP/1.1 request, framed) to `server` and reads
  /// the response to it, whose body it drops; `method` is the request's (a
  /// response to HEAD has no body). Gives up at `deadline`. A request that
  /// a broken kept-alive connection left unanswered (the server closed it
  /// while it was idle, or a request before it failed) is sent once more,
  /// on a new connection. Call it in a process.
  exchange_result exchange(const boost::asio::ip::tcp::endpoint& server, std::string_view request,
                           std::string_view method, clock::time_point deadline);

  /// Begins the same exchange as a call (chapter 6) and returns at once,
  /// with its reference: the result comes later to the calling process, as
  /// a proc::reply<exchange_result> tagged with it, so that the process can
  /// wait for other things as well (chapter 10's holds). `request` moves
  /// into the line's mailbox, without a copy.
  proc::ref send(const boost::asio::ip::tcp::endpoint& server, std::string request,
                 std::string_view method, clock::time_point deadline);

  /// How many connections to `server` are open (or opening).
  std::size_t open(const boost::asio::ip::tcp::endpoint& server) const;

  /// \cond
  struct line;  // a connection and the process that drives it
  struct job;   // an exchange, as the line's mailbox holds it
  /// \endcond

private:
  std::shared_ptr<line> line_for(const boost::asio::ip::tcp::endpoint& server);

  std::size_t max_per_server_;
  std::size_t depth_;
  std::map<boost::asio::ip::tcp::endpoint, std::vector<std::shared_ptr<line>>> lines_;
};

}  // namespace rdv::hub
