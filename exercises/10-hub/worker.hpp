#pragma once
/// \file
/// Chapter 10: the demo worker — a backend that accepts each forwarded
/// request at once, and later posts its answer to the hub's reply port.

#include "connection_pool.hpp"
#include "web.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdv::hub {

/// Where a reply goes, from X-Hub-Reply-To (`http://HOST:PORT/PATH`).
struct reply_address {
  std::string host;  ///< a name or an address, without IPv6 brackets
  std::string port;  ///< the port, as digits
  std::string path;  ///< `/reply/<id>`
};

/// Parses an X-Hub-Reply-To value; nothing if it is not `http://HOST:PORT/PATH`.
std::optional<reply_address> parse_reply_to(std::string_view url);

/// How the worker behaves.
struct worker_options {
  std::chrono::milliseconds delay{0};  ///< how long to wait before replying (`--delay-ms`)
  std::string name;                    ///< how its replies name it (its listening address)
  /// Hosts a reply may go to besides the one each forward came from (`--reply-host`).
  std::vector<std::string> reply_hosts;
  std::ostream* log = nullptr;  ///< where failed replies are reported (nullptr: nowhere)
  bool verbose = false;         ///< also report each job taken, to `log` (`--verbose`)
};

/// The worker's state and handler; like the hub, all its processes run on
/// one scheduler and share it without a lock.
class worker {
public:
  /// A worker set up as `options` says.
  explicit worker(worker_options options);

  /// Handles a forwarded request: answers 202 at once, and starts a process
  /// that, after the delay, posts a `message/http` reply describing the
  /// request to its X-Hub-Reply-To. That must be `/reply/<X-Hub-Request-Id>`
  /// on the host the forward came from or one of options.reply_hosts;
  /// anything else gets 400, and nothing is posted.
  web::response handle(web::request& r);

private:
  bool may_reply_to(std::string_view host,
                    const boost::asio::ip::tcp::endpoint& forwarded_from) const;
  void post_reply(const reply_address& to, const std::string& message);
  std::optional<boost::asio::ip::tcp::endpoint> resolve(const reply_address& to);

  worker_options options_;
  connection_pool hubs_;  // kept-alive connections to the hubs' reply ports
  std::map<std::string, boost::asio::ip::tcp::endpoint> resolved_;  // "HOST:PORT" -> where
};

}  // namespace rdv::hub
