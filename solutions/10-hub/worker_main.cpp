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
  rdv::cli::host_port listen{"127.0.0.1", 9000};
  rdv::hub::worker_options job;  // the defaults --help shows
  job.log = &std::cerr;
  // A hub keeps its connections, and the 202s to its pipelined forwards
  // leave together.
  rdv::web::server_options serving{.idle_timeout = std::chrono::seconds(60),
                                   .max_connections = 20000,
                                   .log = &std::cerr,
                                   .answers_at_once = true};
  flags.option("listen", listen, "where the hub forwards to")
      .option("delay-ms", job.delay, "wait this long before replying")
      .range(0, 86'400'000)
      .repeated("reply-host", job.reply_hosts,
                "a host replies may go to, besides the one each forward comes from", "HOST")
      .option("send-timeout-ms", serving.send_timeout,
              "drop a hub that takes none of an answer this long")
      .range(1, 86'400'000)
      .toggle("verbose", job.verbose, "say on standard error which request each job answers");
  if (!flags.parse(argc, argv)) return flags.exit_status();
  try {
    boost::asio::io_context io(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE);  // one thread, no locks
    rdv::stop_on_signals(io);  // before `listening`: a signal may follow it at once
    auto acceptor = rdv::listen(io, listen, "backend");
    job.name = rdv::url_of(acceptor.local_endpoint());
    rdv::hub::worker worker(std::move(job));
    rdv::proc::scheduler node;  // reports a reply process that crashes on standard error
    rdv::proc::run_in(io, node);
    node.spawn([&] {
      rdv::web::accept_connections(
          acceptor, [&worker](rdv::web::request& r) { return worker.handle(r); }, serving);
    });
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "worker: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
