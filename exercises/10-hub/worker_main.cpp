// worker: the hub's demo backend. It accepts each forwarded request with 202
// at once and, after --delay-ms, posts an answer describing the request to
// the hub's reply port (X-Hub-Reply-To). Try it with the hub: see hub_main.cpp.
#include "acceptor.hpp"
#include "event_loop.hpp"
#include "processes.hpp"
#include "worker.hpp"

#include "rdv/server.hpp"

#include <boost/asio/io_context.hpp>

#include <iostream>

//! [main]
int main(int argc, char* argv[]) {
  rdv::cli::flags flags("worker", "Accepts each request the hub forwards with 202, then posts the "
                                  "answer to the hub's reply port (chapter 10).");
  flags.option("listen", rdv::cli::address, "where the hub forwards to", "127.0.0.1:9000")
      .option("delay-ms", rdv::cli::milliseconds, "wait this long before replying", "0")
      .range(0, 86'400'000)
      .repeated("reply-host", "HOST",
                "a host replies may go to, besides the one each forward comes from")
      .option("send-timeout-ms", rdv::cli::milliseconds,
              "drop a hub that takes none of an answer this long", "60000")
      .range(1, 86'400'000)
      .toggle("verbose", "say on standard error which request each job answers");
  if (!flags.parse(argc, argv)) return flags.exit_status();
  try {
    boost::asio::io_context io(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE);  // one thread, no locks
    rdv::stop_on_signals(io);  // before `listening`: a signal may follow it at once
    auto acceptor = rdv::listen(io, flags.endpoint("listen"), "backend");
    rdv::hub::worker worker({.delay = std::chrono::milliseconds(flags.number("delay-ms")),
                             .name = rdv::url_of(acceptor.local_endpoint()),
                             .reply_hosts = flags.values("reply-host"),
                             .log = &std::cerr,
                             .verbose = flags.is_on("verbose")});
    rdv::proc::scheduler node;  // reports a reply process that crashes on standard error
    rdv::proc::run_in(io, node);
    node.spawn([&] {
      rdv::web::accept_connections(
          acceptor, [&worker](rdv::web::request& r) { return worker.handle(r); },
          {.idle_timeout = std::chrono::seconds(60),  // a hub keeps its connections
           .send_timeout = std::chrono::milliseconds(flags.number("send-timeout-ms")),
           .max_connections = 20000,
           .log = &std::cerr,
           .answers_at_once = true});  // its 202s to pipelined forwards leave together
    });
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "worker: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
