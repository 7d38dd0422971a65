#include "hub_program.hpp"

#include "acceptor.hpp"

#include "rdv/server.hpp"

#include <iostream>

namespace rdv::hub {

using tcp = boost::asio::ip::tcp;

void add_hub_flags(cli::flags& flags) {
  flags.option("listen", cli::address, "front port, for clients", "127.0.0.1:8080")
      .option("reply-listen", cli::address, "port for workers' replies", "127.0.0.1:14000")
      .repeated("backend", cli::address, "where requests go; repeat it for round robin",
                {"127.0.0.1:9000"})
      .option("timeout-ms", cli::milliseconds, "how long a client is held at most", "5000")
      .range(1, 86'400'000)
      .option("backend-timeout-ms", cli::milliseconds,
              "a backend's time to answer a forward before the next one is asked", "1000")
      .range(1, 86'400'000)
      .option("send-timeout-ms", cli::milliseconds,
              "drop a client or worker that takes none of an answer this long", "60000")
      .range(1, 86'400'000)
      .option("max-pending", cli::count, "clients held at once; more get 503", "10000")
      .range(1, 1'000'000)
      .option("reply-token", "TOKEN", "if set, replies need \"Authorization: Bearer TOKEN\"");
}

hub_ports open_hub_ports(boost::asio::io_context& io, const cli::flags& flags, bool reuse_port) {
  const int backlog = boost::asio::socket_base::max_listen_connections;
  auto front = listen(io, flags.endpoint("listen"), "front", backlog, reuse_port);
  auto replies = listen(io, flags.endpoint("reply-listen"), "reply", backlog, reuse_port);
  return {std::move(front), std::move(replies)};
}

hub_options hub_options_from(const cli::flags& flags, boost::asio::io_context& io,
                             const hub_ports& ports) {
  std::vector<tcp::endpoint> backends;
  tcp::resolver resolver(io);
  for (const std::string& backend : flags.values("backend")) {
    const cli::host_port where = cli::parse_host_port(backend);
    backends.push_back(
        resolver.resolve(where.host, std::to_string(where.port)).begin()->endpoint());
  }
  return {.backends = std::move(backends),
          .timeout = std::chrono::milliseconds(flags.number("timeout-ms")),
          .backend_timeout = std::chrono::milliseconds(flags.number("backend-timeout-ms")),
          .max_pending = static_cast<std::size_t>(flags.number("max-pending")),
          .reply_token = flags.value("reply-token"),
          .reply_to = url_of(ports.replies.local_endpoint()) + "/reply/",
          .front_host = url_of(ports.front.local_endpoint()).substr(7)};
}

//! [serve_hub]
void serve_hub(proc::scheduler& node, hub& the_hub, hub_ports& ports, const cli::flags& flags) {
  const auto max_pending = static_cast<std::size_t>(flags.number("max-pending"));
  const std::chrono::milliseconds send_timeout(flags.number("send-timeout-ms"));
  // Held clients are open connections: leave room above max_pending, so
  // that the hub's own 503 answers overload, not the acceptor's cap.
  const web::server_options front{
      .send_timeout = send_timeout, .max_connections = 2 * max_pending + 1000, .log = &std::cerr};
  // Workers keep their connections (the reply handler's 1 MiB body limit: 413)
  // and pipeline their replies, which the reply handler answers at once: the
  // answers to replies that came together leave together.
  const web::server_options replies{.idle_timeout = std::chrono::seconds(60),
                                    .send_timeout = send_timeout,
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
