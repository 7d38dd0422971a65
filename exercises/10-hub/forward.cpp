#include "forward.hpp"

#include <array>
#include <charconv>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

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
  // TODO(ch10.6): copy the end-to-end fields, add the hub's, and frame the body
  // Hint: Which fields must not reach the backend: look at is_hop_by_hop() and
  //   set_by_hub(). Why may a client not choose its own X-Hub-Request-Id? (more:
  //   ./course hint 10 6)
  (void)fields; (void)tags; (void)&append_field; (void)&append_number;
  (void)&forwarded_for;
  throw rdv::todo("ch10.6", "copy the end-to-end fields, add the hub's, and frame the body");
}
//! [write_forward]

}  // namespace rdv::hub
