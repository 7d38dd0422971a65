// hub: the rendezvous hub of chapter 10 (the protocol: the book's appendix A1). Clients talk to it
// as to an HTTP server; it forwards each request to a backend and holds the client until a worker
// posts the answer to the reply port, or the time runs out. Try: ./course run 10 worker & ./course
// run 10 hub, then `curl -v http://127.0.0.1:8080/hello`.
#include "event_loop.hpp"
#include "hub_program.hpp"
#include "processes.hpp"

#include "rdv/server.hpp"

#include <boost/asio/io_context.hpp>

#include <iostream>

//! [main]
int main(int argc, char* argv[]) {
  rdv::cli::flags flags("hub", "Forwards each request to a backend and holds the client until a "
                               "worker posts the answer to the reply port (chapter 10).");
  rdv::hub::hub_settings settings;
  rdv::hub::add_hub_flags(flags, settings);
  if (!flags.parse(argc, argv)) return flags.exit_status();
  try {
    boost::asio::io_context io(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE);  // one thread, no locks
    rdv::stop_on_signals(io);  // before `listening`: a signal may follow it at once
    rdv::hub::hub_ports ports = rdv::hub::open_hub_ports(io, settings);
    rdv::hub::hub hub(rdv::hub::hub_options_from(settings, io, ports));
    rdv::proc::scheduler node({.crash_log = nullptr});  // the acceptors log crashed connections
    rdv::proc::run_in(io, node);
    rdv::hub::serve_hub(node, hub, ports, settings);
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "hub: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
