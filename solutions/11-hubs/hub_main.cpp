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

#include <chrono>
#include <iostream>
#include <optional>

//! [main]
namespace {

// What chapter 11's command line says: chapter 10's hub, and the bus.
struct bus_settings {
  rdv::hub::hub_settings hub;
  std::string bus;          // --bus: NATS URLs, comma-separated ("": no bus)
  std::string credentials;  // --bus-credentials: a file ("": none)
  std::string hub_id;       // --hub-id ("": a random one)
  bool reuse_port = false;  // --reuse-port
};

// Chapter 10's flags, and the bus's.
void add_bus_flags(rdv::cli::flags& flags, bus_settings& into) {
  rdv::hub::add_hub_flags(flags, into.hub);
  flags
      .option("bus", into.bus, "join the hubs on this NATS server, or any of these (default: none)",
              "nats://HOST:PORT[,...]")
      .option("bus-credentials", into.credentials,
              "prove the hub to the bus (lines \"user\" and \"password\", or \"nkey\" and "
              "\"seed\"), and trust a tls:// bus's authority (\"ca\")",
              "FILE")
      .option("hub-id", into.hub_id,
              "this hub's name on the bus: 1-16 of a-z, 0-9 and '-' (default: "
              "8 random hex digits)",
              "NAME")
      .toggle("reuse-port", into.reuse_port,
              "share the front and reply ports with other hubs on this machine");
}

// What --bus-credentials names, or none.
rdv::hubs::bus_credentials credentials_of(const bus_settings& settings) {
  return settings.credentials.empty() ? rdv::hubs::bus_credentials{}
                                      : rdv::hubs::read_credentials(settings.credentials);
}

// Connects `bus` to the servers --bus names, as --bus-credentials says;
// false, and no bus, without --bus. Called before the listening lines: a
// hub that cannot reach its bus says so in one line and exits 1 (within
// 5 s), and does not listen.
bool join_bus(const bus_settings& settings, rdv::hubs::nats_connection& bus) {
  if (settings.bus.empty()) return false;
  bus.connect(settings.bus, std::chrono::milliseconds(3500), credentials_of(settings));
  return true;
}

}  // namespace

int main(int argc, char* argv[]) {
  rdv::cli::flags flags("hub", "Forwards each request to a backend and holds the client until a "
                               "worker posts the answer to any hub on the bus (chapter 11).");
  bus_settings settings;
  add_bus_flags(flags, settings);
  if (!flags.parse(argc, argv)) return flags.exit_status();
  const std::string name = settings.hub_id.empty() ? rdv::hubs::random_hub_id() : settings.hub_id;
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
    if (join_bus(settings, bus)) link.emplace(bus, node, name);
    rdv::hub::hub_ports ports = rdv::hub::open_hub_ports(io, settings.hub, settings.reuse_port);
    rdv::hub::hub_options options = rdv::hub::hub_options_from(settings.hub, io, ports);
    options.link = link ? &*link : nullptr;
    rdv::hub::hub hub(std::move(options));
    if (link) link->start(hub);
    rdv::proc::run_in(io, node);
    rdv::hub::serve_hub(node, hub, ports, settings.hub);
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "hub: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
