#include "forward.hpp"

#include <array>
#include <charconv>

namespace rdv::hub {

namespace {

using web::append_field;
using web::append_number;

// RFC 7239's node: an IPv4 address as it is, an IPv6 one quoted in brackets.
// An IPv4 address is written here, digit by digit: address::to_string()
// goes through inet_ntop() and sprintf(), and cost a twentieth of the hub's
// instructions per rendezvous, this one function, when it was measured.
std::string forwarded_for(const boost::asio::ip::tcp::endpoint& client) {
  const auto address = client.address();
  if (address.is_v6()) return "for=\"[" + address.to_string() + "]\"";
  std::array<char, 20> text{'f', 'o', 'r', '='};  // and at most 255.255.255.255
  char* at = text.data() + 4;
  for (const unsigned char byte : address.to_v4().to_bytes()) {
    if (at != text.data() + 4) *at++ = '.';
    at = std::to_chars(at, text.data() + text.size(), byte).ptr;
  }
  return std::string(text.data(), at);
}

// At least as many bytes as write_forward() writes for `r`: the client's
// request, and what the hub adds (field names, Host, the address and the
// numbers counted generously), so that the forward is written with one
// allocation rather than one each time the string fills.
std::size_t forward_size(const web::request& r, const forward_tags& tags) {
  std::size_t size = r.head.method.size() + r.head.target.size() + r.body.size() +
                     tags.host.size() + tags.reply_to.size() + 2 * tags.id.size() + 256;
  for (const http::field f : r.head.fields) size += f.name.size() + f.value.size() + 4;
  return size;
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
  static constexpr std::array<std::string_view, 6> ours{"Content-Length",   "X-Hub-Request-Id",
                                                        "X-Hub-Reply-To",   "X-Hub-Deadline-Ms",
                                                        "X-Hub-Timeout-Ms", "Forwarded"};
  for (const std::string_view own : ours) {
    if (http::iequals(name, own)) return true;
  }
  return false;
}

//! [write_forward]
void write_forward(const web::request& r, const forward_tags& tags, std::string& out) {
  const http::field_list& fields = r.head.fields;
  out.clear();
  out.reserve(forward_size(r, tags));
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
  //       And a client may name Host in its Connection field: a forward
  //       always carries exactly one Host.
  // STUB: (void)fields; (void)tags; (void)&append_field; (void)&append_number;
  // STUB: (void)&forwarded_for;
  append_field(out, "Host", fields.find("Host").value_or(tags.host));  // whatever Connection says
  for (const http::field f : fields) {
    if (!is_hop_by_hop(f.name, fields) && !set_by_hub(f.name) && !http::iequals(f.name, "Host")) {
      append_field(out, f.name, f.value);
    }
  }
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

forward_attempts::forward_attempts(connection_pool& pool,
                                   const std::vector<boost::asio::ip::tcp::endpoint>& backends,
                                   std::size_t first, const web::request& request,
                                   const forward_tags& tags,
                                   std::chrono::milliseconds backend_timeout)
    : pool_(pool), backends_(backends), next_(first), request_(request), tags_(tags),
      backend_timeout_(backend_timeout) {}

//! [ask_next]
forward_attempts::state forward_attempts::ask_next(clock::time_point deadline) {
  const auto left = deadline - clock::now();
  if (asked_ == backends_.size() || left <= clock::duration::zero()) {
    backend_deadline_ = clock::time_point::max();
    return state_ = state::refused;
  }
  ++asked_;
  const auto& backend = backends_[next_++ % backends_.size()];
  // Its time: backend_timeout, and never more than half of what is left, so
  // that the backends after it get their turn.
  backend_deadline_ = clock::now() + std::min<clock::duration>(backend_timeout_, left / 2);
  tags_.left = std::chrono::duration_cast<std::chrono::milliseconds>(left);
  std::string forward;
  write_forward(request_, tags_, forward);
  asking_ = pool_.send(backend, std::move(forward), request_.head.method, backend_deadline_);
  return state_ = state::pending;
}
//! [ask_next]

forward_attempts::state forward_attempts::answered(const exchange_result& result,
                                                   clock::time_point deadline) {
  if (state_ != state::pending) return state_;
  if (result.error) return ask_next(deadline);  // refused, reset, silent: the next one
  backend_deadline_ = clock::time_point::max();
  asking_ = {};
  // Any status but 2xx: this backend saw the request and turned it down; the
  // next would most likely do the same, and might do the job twice.
  return state_ = result.status / 100 == 2 ? state::accepted : state::refused;
}

bool forward_attempts::taken() {
  if (state_ != state::pending) return false;
  backend_deadline_ = clock::time_point::max();
  asking_ = {};
  state_ = state::accepted;
  return true;
}

}  // namespace rdv::hub
