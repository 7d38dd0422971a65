#include "worker.hpp"

#include "event_loop.hpp"
#include "use_process.hpp"

#include "rdv/cli.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <ostream>

namespace rdv::hub {

namespace asio = boost::asio;
using asio::ip::tcp;
using clock = std::chrono::steady_clock;

namespace {

// The worker's answer for the client, as a whole HTTP response: a JSON
// object naming the request it handled.
std::string describe(const web::request& r, std::string_view worker_name) {
  boost::json::object about;
  about["worker"] = worker_name;
  about["method"] = r.head.method;
  about["target"] = r.head.target;
  about["request_id"] = r.head.fields.find("X-Hub-Request-Id").value_or("");
  about["body_bytes"] = r.body.size();
  const std::string json = boost::json::serialize(about) + "\n";
  return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(json.size()) + "\r\n\r\n" + json;
}

}  // namespace

std::optional<reply_address> parse_reply_to(std::string_view url) {
  constexpr std::string_view scheme = "http://";
  if (!url.starts_with(scheme)) return std::nullopt;
  url.remove_prefix(scheme.size());
  const auto slash = url.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  try {
    const cli::host_port where = cli::parse_host_port(url.substr(0, slash));
    return reply_address{where.host, std::to_string(where.port), std::string(url.substr(slash))};
  } catch (const cli::usage_error&) {
    return std::nullopt;
  }
}

worker::worker(worker_options options) : options_(std::move(options)) {}

bool worker::may_reply_to(std::string_view host, const tcp::endpoint& forwarded_from) const {
  if (host == forwarded_from.address().to_string()) return true;
  return std::find(options_.reply_hosts.begin(), options_.reply_hosts.end(), host) !=
         options_.reply_hosts.end();
}

//! [handle]
web::response worker::handle(web::request& r) {
  const std::string_view reply_to = r.head.fields.find("X-Hub-Reply-To").value_or("");
  const std::string_view id = r.head.fields.find("X-Hub-Request-Id").value_or("");
  const auto to = parse_reply_to(reply_to);
  // X-Hub-Reply-To is only a header field, which anyone who reaches the
  // worker can write: a reply goes nowhere but to /reply/<this forward's
  // id>, on the host the forward came from or one the worker was told of.
  if (!to || id.empty() || to->path != "/reply/" + std::string(id) ||
      !may_reply_to(to->host, r.peer)) {
    return web::text_response(
        400, "expected X-Hub-Reply-To: http://HOST:PORT/reply/<X-Hub-Request-Id>, HOST being the "
             "hub the forward came from or a --reply-host; found \"" +
                 std::string(reply_to) + "\"\n");
  }
  if (options_.verbose && options_.log) {
    *options_.log << "worker: job " << id << ": " << r.head.method << ' ' << r.head.target << '\n';
  }
  // The process outlives this request's buffer: it gets copies.
  proc::spawn([this, to = *to, message = describe(r, options_.name)] {
    if (options_.delay.count() > 0) {
      asio::steady_timer timer(proc::current_io_context(), options_.delay);
      timer.async_wait(proc::use_process);
    }
    post_reply(to, message);
  });
  return web::text_response(202);
}
//! [handle]

//! [post_reply]
// POSTs `message` (a whole HTTP response) to the hub as message/http, on a
// kept-alive connection, and reports a reply the hub did not take.
void worker::post_reply(const reply_address& to, const std::string& message) {
  const auto where = resolve(to);
  if (!where) return;
  // EXERCISE ch10.9: post the reply to the hub as message/http
  // HINT: The hub protocol (appendix A1) says how a reply is posted: which
  //       method, target and Content-Type? An HTTP/1.1 request also needs a
  //       Host field, and a body needs framing.
  // HINT: hubs_.exchange() sends a request on a kept-alive connection and
  //       returns the status, or an error by its deadline: a few seconds
  //       is plenty for a hub on the same network. Which statuses mean the
  //       client got it, and which mean it did not?
  // STUB: (void)message;
  const std::string request =
      "POST " + to.path + " HTTP/1.1\r\nHost: " + to.host + ':' + to.port +
      "\r\nContent-Type: message/http\r\nContent-Length: " + std::to_string(message.size()) +
      "\r\n\r\n" + message;
  const exchange_result answer =
      hubs_.exchange(*where, request, "POST", clock::now() + std::chrono::seconds(10));
  if (options_.log && (answer.error || answer.status != 204)) {
    *options_.log << "worker: reply to " << to.path << ": "
                  << (answer.error ? answer.error.message() : std::to_string(answer.status))
                  << std::endl;
  }
  // END EXERCISE
}
//! [post_reply]

// The endpoint of a reply address, resolved once per HOST:PORT. The hub
// writes an address, not a name, so this rarely asks the resolver; when it
// does, it waits for it without letting other processes run (Asio resolves
// names asynchronously on a thread of its own, which an io_context made for
// one thread without locks cannot accept).
std::optional<tcp::endpoint> worker::resolve(const reply_address& to) {
  const std::string key = to.host + ':' + to.port;
  if (const auto known = resolved_.find(key); known != resolved_.end()) return known->second;
  tcp::resolver resolver(proc::current_io_context());
  boost::system::error_code ec;
  const auto found = resolver.resolve(to.host, to.port, ec);
  if (ec || found.empty()) {
    if (options_.log)
      *options_.log << "worker: cannot resolve " << key << ": " << ec.message() << std::endl;
    return std::nullopt;
  }
  return resolved_.emplace(key, found.begin()->endpoint()).first->second;
}

}  // namespace rdv::hub
