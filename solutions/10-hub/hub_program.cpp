#include "hub_program.hpp"

#include "acceptor.hpp"

#include "rdv/server.hpp"

#include <iostream>
#include <stdexcept>

namespace rdv::hub {

using tcp = boost::asio::ip::tcp;

void add_hub_flags(cli::flags& flags, hub_settings& into) {
  flags.option("listen", into.listen, "front port, for clients")
      .option("reply-listen", into.reply_listen, "port for workers' replies")
      .repeated("backend", into.backends, "where requests go; repeat it for round robin")
      .option("timeout-ms", into.timeout, "how long a client is held at most")
      .range(1, 86'400'000)
      .option("backend-timeout-ms", into.backend_timeout,
              "a backend's time to answer a forward before the next one is asked")
      .range(1, 86'400'000)
      .option("send-timeout-ms", into.send_timeout,
              "drop a client or worker that takes none of an answer this long")
      .range(1, 86'400'000)
      .option("trim-after-ms", into.trim_after,
              "a client held this long gives back the stack pages its wait does not use")
      .range(0, 86'400'000)
      .option("max-pending", into.max_pending, "clients held at once; more get 503")
      .range(1, 1'000'000)
      .option("reply-token", into.reply_token,
              "if set, replies need \"Authorization: Bearer TOKEN\"", "TOKEN");
}

namespace {

// Whether listeners at `a` and `b` would take each other's connections: the
// same port, and the same address or one of them any address.
bool overlap(const tcp::endpoint& a, const tcp::endpoint& b) {
  return a.port() == b.port() && (a.address() == b.address() || a.address().is_unspecified() ||
                                  b.address().is_unspecified());
}

}  // namespace

hub_ports open_hub_ports(boost::asio::io_context& io, const hub_settings& settings,
                         bool reuse_port) {
  const int backlog = boost::asio::socket_base::max_listen_connections;
  auto front = open_listener(io, settings.listen, "front", backlog, reuse_port);
  // With SO_REUSEPORT both binds would succeed, and the kernel would share
  // the port between the two: clients answered by the reply port's 404, and
  // replies forwarded to the worker as requests. Without it, the second bind
  // would fail as if another program held the port.
  if (overlap(front.local_endpoint(), listen_endpoint(io, settings.reply_listen))) {
    throw std::runtime_error("--listen and --reply-listen name the same port (" +
                             url_of(front.local_endpoint()) + "): give each its own");
  }
  auto replies = open_listener(io, settings.reply_listen, "reply", backlog, reuse_port);
  announce("front", front);
  announce("reply", replies);
  return {std::move(front), std::move(replies)};
}

hub_options hub_options_from(const hub_settings& settings, boost::asio::io_context& io,
                             const hub_ports& ports) {
  std::vector<tcp::endpoint> backends;
  tcp::resolver resolver(io);
  for (const cli::host_port& where : settings.backends) {
    backends.push_back(
        resolver.resolve(where.host, std::to_string(where.port)).begin()->endpoint());
  }
  return {.backends = std::move(backends),
          .timeout = settings.timeout,
          .backend_timeout = settings.backend_timeout,
          .trim_after = settings.trim_after,
          .max_pending = settings.max_pending,
          .reply_token = settings.reply_token,
          .reply_to = url_of(ports.replies.local_endpoint()) + "/reply/",
          .front_host = url_of(ports.front.local_endpoint()).substr(7)};
}

//! [serve_hub]
void serve_hub(proc::scheduler& node, hub& the_hub, hub_ports& ports,
               const hub_settings& settings) {
  // Held clients are open connections: leave room above max_pending, so
  // that the hub's own 503 answers overload, not the acceptor's cap.
  const web::server_options front{.send_timeout = settings.send_timeout,
                                  .max_connections = 2 * settings.max_pending + 1000,
                                  .log = &std::cerr};
  // Workers keep their connections (the reply handler's 1 MiB body limit: 413)
  // and pipeline their replies, which the reply handler answers at once: the
  // answers to replies that came together leave together.
  const web::server_options replies{.idle_timeout = std::chrono::seconds(60),
                                    .send_timeout = settings.send_timeout,
                                    .log = &std::cerr,
                                    .answers_at_once = true};
  node.spawn([&the_hub, &ports, front] {
    web::accept_connections(
        ports.front, [&the_hub](web::request& r) { return the_hub.front(r); }, front);
  });
  node.spawn([&the_hub, &ports, replies] {
    web::accept_connections(
        ports.replies, [&the_hub](web::request& r) { return the_hub.reply(r); }, replies);
  });
}
//! [serve_hub]

}  // namespace rdv::hub
