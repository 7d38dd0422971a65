#pragma once
/// \file
/// Runs a server under test on a background thread, listening on 127.0.0.1 at
/// a port the system picks, and reports what it died of if it does.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace rdv::test {

/// How a learner runs the same server by hand, for reproduction commands in
/// failure messages: `./course run 01` listening on port 8081.
struct by_hand {
  std::string command;        ///< e.g. "./course run 01"
  unsigned default_port = 0;  ///< the port that command listens on
};

/// A server running on its own io_context and thread for the length of a test.
class server_thread {
public:
  /// Called once, before the thread starts, to set the server up on `context`
  /// with `acceptor` already listening (typically: spawn the accept loop).
  using starter = std::function<void(boost::asio::io_context& context,
                                     boost::asio::ip::tcp::acceptor& acceptor)>;

  /// Like starter, but called on the server's own thread (where, for
  /// example, a process scheduler must live), and returning what must live
  /// while the server runs; that is destroyed on the same thread after the
  /// io_context stops, before the io_context itself.
  using thread_starter = std::function<std::shared_ptr<void>(
      boost::asio::io_context& context, boost::asio::ip::tcp::acceptor& acceptor)>;

  /// Starts the server; `manual` says how to run it by hand.
  explicit server_thread(const starter& start, by_hand manual = {});
  /// Starts the server with state that lives on its thread (see thread_starter).
  explicit server_thread(thread_starter start, by_hand manual = {});
  /// Stops the io_context and joins the thread.
  ~server_thread();
  server_thread(const server_thread&) = delete;
  server_thread& operator=(const server_thread&) = delete;

  /// The port the server listens on.
  std::uint16_t port() const { return port_; }
  /// What the server's thread died of ("" while it runs or if it ended cleanly).
  std::string failure() const;
  /// How to run the same server by hand.
  const by_hand& manual() const { return manual_; }

private:
  void run_and_record();  // runs the io_context, keeping what it died of

  boost::asio::io_context context_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::uint16_t port_ = 0;
  by_hand manual_;
  mutable std::mutex mutex_;
  std::string failure_;  // guarded by mutex_
  std::thread thread_;
};

}  // namespace rdv::test
