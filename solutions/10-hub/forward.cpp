#include "forward.hpp"

#include <array>
#include <charconv>

namespace rdv::hub {

namespace {

void append_field(std::string& out, std::string_view name, std::string_view value) {
  out += name;
  out += ": ";
  out += value;
  out += "\r\n";
}

void append_number(std::string& out, std::uint64_t n) {
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
}

// RFC 7239's node: an IPv4 address as it is, an IPv6 one quoted in brackets.
std::string forwarded_for(const boost::asio::ip::tcp::endpoint& client) {
  const auto address = client.address();
  return address.is_v6() ? "for=\"[" + address.to_string() + "]\"" : "for=" + address.to_string();
}

}  // namespace

//! [is_hop_by_hop]
bool is_hop_by_hop(std::string_view name, const http::field_list& fields) {
  static constexpr std::array<std::string_view, 7> always{
      "Connection",          "Keep-Alive",      "TE", "Transfer-Encoding", "Upgrade",
      "Proxy-Authorization", "Proxy-Connection"};
  for (const std::string_view hop : always) {
    if (http::iequals(name, hop)) return true;
  }
  return fields.has_token("Connection", name);  // e.g. `Connection: close, X-Trace`
}
//! [is_hop_by_hop]

bool set_by_hub(std::string_view name) {
  static constexpr std::array<std::string_view, 5> ours{"Content-Length", "X-Hub-Request-Id",
                                                        "X-Hub-Reply-To", "X-Hub-Deadline-Ms",
                                                        "X-Hub-Timeout-Ms"};
  for (const std::string_view own : ours) {
    if (http::iequals(name, own)) return true;
  }
  return false;
}

//! [write_forward]
void write_forward(const web::request& r, const forward_tags& tags, std::string& out) {
  const http::field_list& fields = r.head.fields;
  out.clear();
  out += r.head.method;
  out += ' ';
  out += r.head.target;
  out += " HTTP/1.1\r\n";
  // EXERCISE ch10.6: copy the end-to-end fields, add the hub's, and frame the body
  // HINT: Which fields must not reach the backend: look at is_hop_by_hop()
  //       and set_by_hub(). Why may a client not choose its own X-Hub-Request-Id?
  // HINT: The hub protocol (appendix A1) lists four fields to add;
  //       X-Hub-Reply-To ends with the id. The client's body may have come chunked: how does
  //       the backend learn where it ends now?
  // HINT: An HTTP/1.0 request may have no Host field; HTTP/1.1 requires one.
  // STUB: (void)fields; (void)tags; (void)&append_field; (void)&append_number;
  // STUB: (void)&forwarded_for;
  for (const http::field f : fields) {
    if (!is_hop_by_hop(f.name, fields) && !set_by_hub(f.name)) append_field(out, f.name, f.value);
  }
  if (!fields.find("Host")) append_field(out, "Host", tags.host);
  append_field(out, "X-Hub-Request-Id", tags.id);
  out += "X-Hub-Reply-To: ";
  out += tags.reply_to;
  out += tags.id;
  out += "\r\nX-Hub-Deadline-Ms: ";
  append_number(out, static_cast<std::uint64_t>(std::max<std::int64_t>(tags.left.count(), 0)));
  out += "\r\n";
  append_field(out, "Forwarded", forwarded_for(tags.client));
  if (!r.body.empty() || fields.find("Content-Length") || fields.find("Transfer-Encoding")) {
    out += "Content-Length: ";
    append_number(out, r.body.size());
    out += "\r\n";
  }
  out += "\r\n";
  out += r.body;
  // END EXERCISE
}
//! [write_forward]

}  // namespace rdv::hub
