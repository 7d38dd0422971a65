// rest-server: the course's chapters as a resource with two representations,
// JSON and XML, chosen by the client's Accept field. Try: ./course run 09, then
//   curl -i http://127.0.0.1:8089/chapters/03
//   curl -i -H 'Accept: application/xml' http://127.0.0.1:8089/chapters/03
//   curl -i -X OPTIONS http://127.0.0.1:8089/chapters
#include "acceptor.hpp"
#include "chapters_resource.hpp"
#include "event_loop.hpp"
#include "processes.hpp"
#include "router.hpp"

#include "rdv/server.hpp"

#include <boost/asio/io_context.hpp>

#include <iostream>
#include <memory>

//! [main]
int main(int argc, char* argv[]) {
  rdv::cli::flags flags("rest-server", "Serves the course's chapters as JSON or XML, as the client "
                                       "prefers (chapter 9).");
  rdv::cli::host_port listen{"127.0.0.1", 8089};
  int backlog = 128;
  flags.option("listen", listen, "where to accept connections")
      .option("backlog", backlog, "the listen(2) backlog: connections the kernel queues for accept")
      .range(1, 65535);
  if (!flags.parse(argc, argv)) return flags.exit_status();
  try {
    auto routes = std::make_shared<rdv::rest::router>();
    routes->mount("/chapters", std::make_shared<rdv::rest::chapters_resource>());
    rdv::web::server_options options;
    options.log = &std::cerr;
    boost::asio::io_context io(1);
    rdv::stop_on_signals(io);  // before `listening`: a signal may follow it at once
    auto acceptor = rdv::listen(io, listen, "http", backlog);
    rdv::proc::scheduler node({.crash_log = nullptr});
    rdv::proc::run_in(io, node);
    node.spawn([&] {
      rdv::web::accept_connections(
          acceptor, [routes](rdv::web::request& r) { return routes->handle(r); }, options);
    });
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "rest-server: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
