// hub: chapter 10's rendezvous hub that can join other hubs on a NATS bus
// (the protocol: the book's appendix A1, section "Several hubs"). Without
// --bus it is chapter 10's hub. Try: nats-server -a 127.0.0.1 -p 4222 &
// ./course run 11 hub --bus nats://127.0.0.1:4222 --hub-id a, and see
// chapter 11 for one hub per core.
#include "bus_link.hpp"
#include "event_loop.hpp"
#include "hub_program.hpp"
#include "nats_connection.hpp"
#include "processes.hpp"

#include "rdv/server.hpp"

#include <boost/asio/io_context.hpp>

#include <iostream>
#include <optional>

//! [main]
int main(int argc, char* argv[]) {
  rdv::cli::flags flags("hub", "Forwards each request to a backend and holds the client until a "
                               "worker posts the answer to any hub on the bus (chapter 11).");
  rdv::hub::add_hub_flags(flags);
  flags
      .option("bus", "nats://HOST:PORT[,...]",
              "join the hubs on this NATS server, or any of these (default: none)")
      .option("bus-credentials", "FILE",
              "prove the hub to the bus (lines \"user\" and \"password\", or \"nkey\" and "
              "\"seed\"), and trust a tls:// bus's authority (\"ca\")")
      .option("hub-id", "NAME",
              "this hub's name on the bus: 1-16 of a-z, 0-9 and '-' (default: "
              "8 random hex digits)")
      .toggle("reuse-port", "share the front and reply ports with other hubs on this machine");
  if (!flags.parse(argc, argv)) return flags.exit_status();
  const std::string name =
      flags.value("hub-id").empty() ? rdv::hubs::random_hub_id() : flags.value("hub-id");
  if (!rdv::hub::is_hub_name(name)) {
    std::cerr << "hub: --hub-id must be 1 to 16 of a-z, 0-9 and '-', not \"" << name << "\"\n";
    return 2;
  }
  try {
    // Not BOOST_ASIO_CONCURRENCY_HINT_UNSAFE: the NATS client's own threads
    // (its timers, its reconnecting) post to this io_context.
    boost::asio::io_context io(1);
    rdv::stop_on_signals(io);
    rdv::proc::scheduler node({.crash_log = nullptr});
    rdv::hubs::nats_connection bus(io);
    std::optional<rdv::hubs::bus_link> link;
    if (!flags.value("bus").empty()) {
      // Joined before the listening lines, or not at all: a hub that cannot
      // reach its bus says so in one line and exits 1 (within 5 s).
      const std::string credentials = flags.value("bus-credentials");
      const rdv::hubs::bus_credentials who = credentials.empty()
                                                 ? rdv::hubs::bus_credentials{}
                                                 : rdv::hubs::read_credentials(credentials);
      bus.connect(flags.value("bus"), std::chrono::milliseconds(3500), who);
      link.emplace(bus, node, name);
    }
    rdv::hub::hub_ports ports = rdv::hub::open_hub_ports(io, flags, flags.is_on("reuse-port"));
    rdv::hub::hub_options options = rdv::hub::hub_options_from(flags, io, ports);
    options.link = link ? &*link : nullptr;
    rdv::hub::hub hub(std::move(options));
    if (link) link->start(hub);
    rdv::proc::run_in(io, node);
    rdv::hub::serve_hub(node, hub, ports, flags);
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "hub: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
