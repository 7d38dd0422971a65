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

namespace rdv::hub {

/// Declares the hub's flags (the protocol's, appendix A1) on `flags`.
void add_hub_flags(cli::flags& flags);

/// The hub's two listeners.
struct hub_ports {
  boost::asio::ip::tcp::acceptor front;    ///< for clients (`--listen`)
  boost::asio::ip::tcp::acceptor replies;  ///< for workers (`--reply-listen`)
};

/// Opens the ports that the parsed `flags` name, each printing its
/// `listening` line; with `reuse_port`, other hubs may share them.
hub_ports open_hub_ports(boost::asio::io_context& io, const cli::flags& flags,
                         bool reuse_port = false);

/// The hub that the parsed `flags` describe, serving `ports` (its backends
/// resolved with `io`).
hub_options hub_options_from(const cli::flags& flags, boost::asio::io_context& io,
                             const hub_ports& ports);

/// Serves `ports` with `the_hub`, in two acceptor processes of `node`: the
/// front port's connections call hub::front, the reply port's hub::reply,
/// with the timeouts and limits the parsed `flags` give.
void serve_hub(proc::scheduler& node, hub& the_hub, hub_ports& ports, const cli::flags& flags);

}  // namespace rdv::hub
