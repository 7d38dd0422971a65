#pragma once
// Chapter 11's tests: a real nats-server, started on a free port of
// 127.0.0.1 for the length of a test (Debian's nats-server, which ./course
// installs), and hubs joined to it.
#include "../10-hub/hub_fixture.hpp"

#include "rdv/test/program.hpp"
#include "rdv/test/temp_dir.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ch11 {

using namespace std::chrono_literals;

// A directory of the test's own, removed with all it holds at the end.
using scratch_dir = rdv::test::temp_dir;

// A user nkey made for the test (Ed25519, by the openssl program): its
// public key (`U...`), which a server's authorization lists, and the file
// in `dir` that holds its seed (`SU...`), which the user keeps.
struct user_nkey {
  std::string public_key;
  std::string seed_file;
};
user_nkey make_user_nkey(const scratch_dir& dir);

// Makes a self-signed certificate for 127.0.0.1 in `dir`, by the openssl
// program: "bus.pem" and its key "bus.key". Returns the certificate's path.
std::string make_certificate(const scratch_dir& dir);

// A nats-server of its own, on 127.0.0.1.
class nats_server {
public:
  // Starts one on a port the kernel chooses, with `extra` arguments (such
  // as "-c", a configuration file).
  explicit nats_server(std::vector<std::string> extra = {});
  // Stops it, thawed first if frozen.
  ~nats_server();
  nats_server(const nats_server&) = delete;
  nats_server& operator=(const nats_server&) = delete;
  // "nats://127.0.0.1:PORT", for --bus; "tls://..." with `scheme` "tls".
  std::string url(const std::string& scheme = "nats") const {
    return scheme + "://127.0.0.1:" + std::to_string(port_);
  }
  std::uint16_t port() const { return port_; }
  // Stops it (SIGTERM), as when the bus goes down.
  void stop();
  // Starts it again on the same port, as when the bus comes back.
  void restart();
  // Stops it in its tracks (SIGSTOP), as when a machine hangs: its
  // connections stay open, and nothing answers on them, pings included.
  void freeze();
  // Lets it go on (SIGCONT), with the connections it had.
  void thaw();
  bool running() const { return server_ != nullptr; }
  // What it has printed so far.
  std::string output() const { return server_ ? server_->output() : std::string(); }

private:
  void start(const std::string& port);
  std::vector<std::string> extra_;
  std::unique_ptr<rdv::test::program> server_;
  std::uint16_t port_ = 0;
};

// How many subscriptions `bus` holds, from every client, as its monitoring
// port says (/subsz): the bus must have been started with "-m", "-1".
std::int64_t subscriptions(const nats_server& bus);

// A hub of chapter 11 joined to `bus` as `name`, with `args` besides.
ch10::hub bus_hub(const nats_server& bus, const std::string& name,
                  std::vector<std::string> args = {});

// The bus's counters in the hub's /stats.
boost::json::object bus_stats(ch10::hub& hub);

// Polls /stats (every 10 ms, for `limit` at most) until bus.connected is
// `connected`; returns whether it was.
bool wait_connected(ch10::hub& hub, bool connected, std::chrono::milliseconds limit = 10s);

// A bus, a backend, and two hubs on the bus forwarding to it: `holder`,
// whose front port the tests' clients use, and `other`.
struct two_hubs {
  nats_server bus;
  ch10::test_backend backend;
  ch10::hub holder = bus_hub(bus, "holder", {"--backend", backend.address()});
  ch10::hub other = bus_hub(bus, "other", {"--backend", backend.address()});
};

// A message/http reply that tells the client `text`.
std::string reply_saying(std::string_view text);

}  // namespace ch11
