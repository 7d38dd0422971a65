// hub: the rendezvous hub of chapter 10 (the protocol: the book's appendix A1). Clients talk to it
// as to an HTTP server; it forwards each request to a backend and holds the client until a worker
// posts the answer to the reply port, or the time runs out. Try: ./course run 10 worker & ./course
// run 10 hub, then `curl -v http://127.0.0.1:8080/hello`.
#include "acceptor.hpp"
#include "event_loop.hpp"
#include "hub.hpp"
#include "processes.hpp"

#include "rdv/server.hpp"

#include <boost/asio/io_context.hpp>

#include <iostream>

namespace {

using tcp = boost::asio::ip::tcp;

std::vector<tcp::endpoint> resolve(boost::asio::io_context& io, const rdv::cli::flags& flags) {
  std::vector<tcp::endpoint> found;
  tcp::resolver resolver(io);
  for (const std::string& backend : flags.values("backend")) {
    const rdv::cli::host_port where = rdv::cli::parse_host_port(backend);
    found.push_back(resolver.resolve(where.host, std::to_string(where.port)).begin()->endpoint());
  }
  return found;
}

}  // namespace

//! [main]
int main(int argc, char* argv[]) {
  rdv::cli::flags flags("hub", "Forwards each request to a backend and holds the client until a "
                               "worker posts the answer to the reply port (chapter 10).");
  flags.option("listen", rdv::cli::address, "front port, for clients", "127.0.0.1:8080")
      .option("reply-listen", rdv::cli::address, "port for workers' replies", "127.0.0.1:14000")
      .repeated("backend", rdv::cli::address, "where requests go; repeat it for round robin",
                {"127.0.0.1:9000"})
      .option("timeout-ms", rdv::cli::milliseconds, "how long a client is held at most", "5000")
      .range(1, 86'400'000)
      .option("backend-timeout-ms", rdv::cli::milliseconds,
              "a backend's time to answer a forward before the next one is asked", "1000")
      .range(1, 86'400'000)
      .option("send-timeout-ms", rdv::cli::milliseconds,
              "drop a client or worker that takes none of an answer this long", "60000")
      .range(1, 86'400'000)
      .option("max-pending", rdv::cli::count, "clients held at once; more get 503", "10000")
      .range(1, 1'000'000)
      .option("reply-token", "TOKEN", "if set, replies need \"Authorization: Bearer TOKEN\"");
  if (!flags.parse(argc, argv)) return flags.exit_status();
  try {
    boost::asio::io_context io(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE);  // one thread, no locks
    rdv::stop_on_signals(io);  // before `listening`: a signal may follow it at once
    auto front = rdv::listen(io, flags.endpoint("listen"), "front");
    auto replies = rdv::listen(io, flags.endpoint("reply-listen"), "reply");
    const auto max_pending = static_cast<std::size_t>(flags.number("max-pending"));
    rdv::hub::hub hub(
        {.backends = resolve(io, flags),
         .timeout = std::chrono::milliseconds(flags.number("timeout-ms")),
         .backend_timeout = std::chrono::milliseconds(flags.number("backend-timeout-ms")),
         .max_pending = max_pending,
         .reply_token = flags.value("reply-token"),
         .reply_to = rdv::url_of(replies.local_endpoint()) + "/reply/",
         .front_host = rdv::url_of(front.local_endpoint()).substr(7)});
    // Held clients are open connections: leave room above max_pending, so
    // that the hub's own 503 answers overload, not the acceptor's cap.
    const std::chrono::milliseconds send_timeout(flags.number("send-timeout-ms"));
    rdv::web::server_options front_options{
        .send_timeout = send_timeout, .max_connections = 2 * max_pending + 1000, .log = &std::cerr};
    // Workers keep their connections (the reply handler's 1 MiB body limit: 413)
    // and pipeline their replies, which the reply handler answers at once: the
    // answers to replies that came together leave together.
    rdv::web::server_options reply_options{.idle_timeout = std::chrono::seconds(60),
                                           .send_timeout = send_timeout,
                                           .log = &std::cerr,
                                           .answers_at_once = true};
    rdv::proc::scheduler node({.crash_log = nullptr});  // the acceptors log crashed connections
    rdv::proc::run_in(io, node);
    node.spawn([&] {
      rdv::web::accept_connections(
          front, [&hub](rdv::web::request& r) { return hub.front(r); }, front_options);
    });
    node.spawn([&] {
      rdv::web::accept_connections(
          replies, [&hub](rdv::web::request& r) { return hub.reply(r); }, reply_options);
    });
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "hub: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
