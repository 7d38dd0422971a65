#pragma once
// Runs chapter 8's handler on chapter 7's server in the test process, over
// a temporary root; and a plain download helper for bodies too large to
// show in a failure message.
#include "acceptor.hpp"
#include "event_loop.hpp"
#include "processes.hpp"
#include "static_files.hpp"
#include "temp_root.hpp"

#include "rdv/test/client.hpp"
#include "rdv/test/escape.hpp"
#include "rdv/test/program.hpp"
#include "rdv/test/server_thread.hpp"
#include "rdv/test/shared_log.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <functional>
#include <memory>
#include <string>

namespace ch08 {

// The static-file server on a root, with its log.
struct server {
  rdv::test::shared_log log;
  rdv::test::server_thread thread;

  explicit server(const temp_root& tree, bool use_sendfile = true)
      : server(rdv::files::static_files(
            {.root = tree.root().string(), .use_sendfile = use_sendfile})) {}

  // The server with any handler (made on the test's thread).
  explicit server(rdv::web::handler handle)
      : thread(rdv::test::server_thread::thread_starter(
                   [this, handle](boost::asio::io_context& io,
                                  boost::asio::ip::tcp::acceptor& acceptor) {
                     // sendfile(2) to a client that has gone raises SIGPIPE, as
                     // write(2) does; servers ignore it (static-server does too).
                     std::signal(SIGPIPE, SIG_IGN);
                     auto node = std::make_shared<rdv::proc::scheduler>(
                         rdv::proc::scheduler_options{.crash_log = nullptr});
                     rdv::proc::run_in(io, *node);
                     node->spawn([&acceptor, handle, this] {
                       rdv::web::accept_connections(acceptor, handle, {.log = &log});
                     });
                     return std::shared_ptr<void>(node);
                   }),
               {rdv::test::course_run("08", "--root DIR"), 8000}) {}
};

// What download() got: the response head, the body bytes after it, and
// whether the server closed the connection.
struct download {
  std::string head;
  std::string body;
  bool closed = false;
  std::string problem;  // "" unless something went wrong (a timeout, an error)
};

// Sends `request` on a connection of its own and reads until the server
// closes it or `limit` passes; calls `on_head` once the head has arrived,
// before reading on. For bodies of megabytes, which a transcript cannot show.
inline download fetch_until_closed(std::uint16_t port, std::string_view request,
                                   const std::function<void()>& on_head = {},
                                   std::chrono::milliseconds limit = std::chrono::seconds(20)) {
  download d;
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
          static_cast<ssize_t>(request.size())) {
    d.problem = "could not connect and send the request";
    ::close(fd);
    return d;
  }
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::string bytes;
  bool head_seen = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      d.problem = "the connection was neither finished nor closed after " +
                  std::to_string(limit.count()) + " ms";
      break;
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[65536];
    const auto n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) {
      d.closed = true;
      break;
    }
    bytes.append(chunk, static_cast<std::size_t>(n));
    if (!head_seen && bytes.find("\r\n\r\n") != std::string::npos) {
      head_seen = true;
      if (on_head) on_head();
    }
  }
  ::close(fd);
  const auto end = bytes.find("\r\n\r\n");
  d.head = bytes.substr(0, end == std::string::npos ? bytes.size() : end + 4);
  d.body = end == std::string::npos ? std::string() : bytes.substr(end + 4);
  return d;
}

// Compares a large body without printing it whole.
inline void expect_body(std::string_view expected, std::string_view actual, std::string_view what) {
  EXPECT_EQ(actual.size(), expected.size()) << what << ": body length";
  if (actual != expected)
    ADD_FAILURE() << what << ":\n" << rdv::test::first_difference(expected, actual);
}

}  // namespace ch08
