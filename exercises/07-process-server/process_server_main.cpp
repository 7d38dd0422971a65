// process-server: chapter 1's server rebuilt on processes — answers every
// HTTP request with "1234567", one process per connection, with timeouts and
// a cap on connections. Try: ./course run 07, then
// `curl -v http://127.0.0.1:8087/test`.
#include "acceptor.hpp"
#include "event_loop.hpp"
#include "processes.hpp"

#include "rdv/server.hpp"

#include <boost/asio/io_context.hpp>

#include <iostream>

namespace {

//! [handler]
// Chapter 1's seven-byte answer, as a handler: everything else is the server's business.
rdv::web::response seven_bytes(rdv::web::request&) {
  rdv::web::response r;
  r.fields = {{"Content-Type", "text/plain"}};
  r.body = "1234567";
  return r;
}
//! [handler]

}  // namespace

//! [main]
int main(int argc, char* argv[]) {
  rdv::cli::flags flags("process-server", "Answers every HTTP request with 1234567, one process "
                                          "per connection, with timeouts (chapter 7).");
  rdv::cli::host_port listen{"127.0.0.1", 8087};
  rdv::web::server_options options{.log = &std::cerr};  // the defaults --help shows
  flags.option("listen", listen, "where to accept connections")
      .option("idle-ms", options.idle_timeout, "close a kept-alive connection idle this long")
      .range(1, 86'400'000)
      .option("request-ms", options.request_timeout, "answer 408 to a request slower than this")
      .range(1, 86'400'000)
      .option("send-timeout-ms", options.send_timeout,
              "drop a client that takes none of an answer this long")
      .range(1, 86'400'000)
      .option("max-connections", options.max_connections,
              "answer 503 to connections beyond this many")
      .range(1, 10'000'000);
  if (!flags.parse(argc, argv)) return flags.exit_status();
  try {
    boost::asio::io_context io(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE);  // one thread, no locks
    rdv::stop_on_signals(io);  // before `listening`: a signal may follow it at once
    auto acceptor = rdv::listen(io, listen, "http");
    rdv::proc::scheduler node({.crash_log = nullptr});  // the acceptor reports crashed connections
    rdv::proc::run_in(io, node);
    node.spawn([&] { rdv::web::accept_connections(acceptor, seven_bytes, options); });
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "process-server: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
