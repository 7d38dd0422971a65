#pragma once
// Runs chapter 7's server in the test process: a scheduler on the server's
// thread, the acceptor process, and a handler chosen by the test.
#include "acceptor.hpp"
#include "event_loop.hpp"
#include "processes.hpp"

#include "rdv/test/client.hpp"
#include "rdv/test/program.hpp"
#include "rdv/test/server_thread.hpp"
#include "rdv/test/shared_log.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <memory>
#include <string>
#include <string_view>

namespace ch07 {

// Chapter 1's seven-byte answer, as chapter 7's program gives it.
inline rdv::web::response seven_bytes(rdv::web::request&) {
  rdv::web::response r;
  r.fields = {{"Content-Type", "text/plain"}};
  r.body = "1234567";
  return r;
}

// The flags that give chapter 7's program the `options` a test set (those
// that differ from its defaults), for a failure's "try it by hand".
inline std::string flags_for(const rdv::web::server_options& options) {
  const rdv::web::server_options defaults;
  std::string flags;
  const auto add = [&flags](std::string_view flag, bool differs, long long value) {
    if (!differs) return;
    if (!flags.empty()) flags += ' ';
    flags.append(flag).append(" ").append(std::to_string(value));
  };
  add("--idle-ms", options.idle_timeout != defaults.idle_timeout, options.idle_timeout.count());
  add("--request-ms", options.request_timeout != defaults.request_timeout,
      options.request_timeout.count());
  add("--send-timeout-ms", options.send_timeout != defaults.send_timeout,
      options.send_timeout.count());
  add("--max-connections", options.max_connections != defaults.max_connections,
      static_cast<long long>(options.max_connections));
  return flags;
}

// A server under test, with its log.
struct server {
  rdv::test::shared_log log;
  rdv::test::server_thread thread;

  explicit server(rdv::web::handler handle = seven_bytes, rdv::web::server_options options = {})
      : thread(
            rdv::test::server_thread::thread_starter(
                [this, handle = std::move(handle), options](
                    boost::asio::io_context& io, boost::asio::ip::tcp::acceptor& acceptor) mutable {
                  auto node = std::make_shared<rdv::proc::scheduler>(
                      rdv::proc::scheduler_options{.crash_log = nullptr});
                  rdv::proc::run_in(io, *node);
                  options.log = &log;
                  node->spawn([&acceptor, handle, options] {
                    rdv::web::accept_connections(acceptor, handle, options);
                  });
                  return std::shared_ptr<void>(node);
                }),
            {rdv::test::course_run("07", flags_for(options)), 8087}) {}
};

inline std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Reads one response and checks it is the seven-byte answer, with `connection`.
inline void expect_seven_bytes(rdv::test::client& c, std::string_view connection) {
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 200) << c.transcript();
  EXPECT_EQ(r.body, "1234567") << c.transcript();
  EXPECT_EQ(lowercase(r.field("Connection")), connection)
      << "the Connection field tells the client whether the connection stays open\n"
      << c.transcript();
}

}  // namespace ch07
