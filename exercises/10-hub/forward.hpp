#pragma once
/// \file
/// Chapter 10: the copy of a client's request that the hub sends a backend —
/// the same method, target, header fields and body, minus what belongs to
/// the client's connection only, plus the X-Hub-* fields that tell the
/// backend where the answer goes.

#include "http_fields.hpp"
#include "web.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <string>
#include <string_view>

namespace rdv::hub {

/// What the hub adds to a forwarded request.
struct forward_tags {
  std::string_view id;             ///< X-Hub-Request-Id: the request's id
  std::string_view reply_to;       ///< X-Hub-Reply-To up to the id: `http://HOST:PORT/reply/`
  std::chrono::milliseconds left;  ///< X-Hub-Deadline-Ms: how long the hub will wait
  boost::asio::ip::tcp::endpoint client;  ///< Forwarded: `for=` the client's address
  std::string_view host;                  ///< the Host field for a request without one (HTTP/1.0)
};

/// Whether the field `name` of a message with header fields `fields` is
/// hop-by-hop: it describes one connection and a proxy must not pass it on
/// (RFC 9110 §7.6.1). Those are Connection, every field that Connection
/// names, Keep-Alive, TE, Transfer-Encoding, Upgrade, Proxy-Authorization
/// and Proxy-Connection.
bool is_hop_by_hop(std::string_view name, const http::field_list& fields);

/// Whether the hub writes the field `name` itself, so that a client's (or a
/// worker's) own value must not pass: Content-Length (the hub frames bodies)
/// and the X-Hub-* fields of the hub protocol (the book's appendix A1).
bool set_by_hub(std::string_view name);

/// Writes into `out` (after clearing it) the HTTP/1.1 request that forwards
/// `r` to a backend: r's method, target and end-to-end header fields, the
/// X-Hub-* fields and `Forwarded` of `tags`, and r's body framed by
/// Content-Length.
void write_forward(const web::request& r, const forward_tags& tags, std::string& out);

}  // namespace rdv::hub
