#pragma once
/// \file
/// Chapter 10: the hub program in parts — its flags, the hub they describe,
/// and the two ports it serves — so that chapter 11's hub, which adds to
/// them, is the same program with more.

#include "hub.hpp"
#include "processes.hpp"

#include "rdv/cli.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace rdv::hub {

/// What the hub's command line says, with the protocol's defaults
/// (appendix A1).
struct hub_settings {
  cli::host_port listen{"127.0.0.1", 8080};         ///< `--listen`
  cli::host_port reply_listen{"127.0.0.1", 14000};  ///< `--reply-listen`
  std::vector<cli::host_port> backends{
      cli::host_port{"127.0.0.1", 9000}};           ///< `--backend`, repeated
  std::chrono::milliseconds timeout{5000};          ///< `--timeout-ms`
  std::chrono::milliseconds backend_timeout{1000};  ///< `--backend-timeout-ms`
  std::chrono::milliseconds send_timeout{60000};    ///< `--send-timeout-ms`
  std::chrono::milliseconds trim_after{1000};       ///< `--trim-after-ms`
  std::size_t max_pending = 10000;                  ///< `--max-pending`
  std::string reply_token;                          ///< `--reply-token`
};

/// Declares the hub's flags on `flags`, each read into its field of `into`.
void add_hub_flags(cli::flags& flags, hub_settings& into);

/// The hub's two listeners.
struct hub_ports {
  boost::asio::ip::tcp::acceptor front;    ///< for clients (`--listen`)
  boost::asio::ip::tcp::acceptor replies;  ///< for workers (`--reply-listen`)
};

/// Opens the ports that `settings` name, each printing its `listening`
/// line; with `reuse_port`, other hubs may share them. Throws, before it
/// prints anything, if the two would share one port with each other.
hub_ports open_hub_ports(boost::asio::io_context& io, const hub_settings& settings,
                         bool reuse_port = false);

/// The hub that `settings` describe, serving `ports` (its backends resolved
/// with `io`).
hub_options hub_options_from(const hub_settings& settings, boost::asio::io_context& io,
                             const hub_ports& ports);

/// Serves `ports` with `the_hub`, in two acceptor processes of `node`: the
/// front port's connections call hub::front, the reply port's hub::reply,
/// with the timeouts and limits that `settings` give.
void serve_hub(proc::scheduler& node, hub& the_hub, hub_ports& ports, const hub_settings& settings);

}  // namespace rdv::hub
