#include "keepalive.hpp"

#include "rdv/server.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <array>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::keepalive {

namespace asio = boost::asio;
using asio::ip::tcp;
using namespace std::chrono_literals;

namespace {

//! [replies]
// The reply of Neumann's server, byte for byte, and the one we send when we
// will hang up.
constexpr std::string_view keep_alive_reply =
    "HTTP/1.1 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 7\r\n"
    "Content-Type: text/plain\r\n\r\n1234567";
constexpr std::string_view closing_reply =
    "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 7\r\n"
    "Content-Type: text/plain\r\n\r\n1234567";
//! [replies]

char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

// Whether `text` contains `token` (written in lowercase), ignoring ASCII case
// as HTTP does for field names and for these field values.
bool contains(std::string_view text, std::string_view token) {
  return std::search(text.begin(), text.end(), token.begin(), token.end(),
                     [](char a, char b) { return lower(a) == b; }) != text.end();
}

// Whether the header field `field` ("Name: value") is called `name`. HTTP
// allows no whitespace before the colon, but some parsers skip it, and a
// client could count on that ("Content-Length : 5"): so it is skipped here
// too, and such a field is the field it names.
bool is_named(std::string_view field, std::string_view name) {
  if (field.size() <= name.size() || !contains(field.substr(0, name.size()), name)) return false;
  auto rest = field.substr(name.size());
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
  return rest.starts_with(':');
}

// Whether the comma-separated list `value` ("TE, close") holds the option
// `option` (written in lowercase), ignoring ASCII case and the spaces and
// tabs around each item.
bool lists(std::string_view value, std::string_view option) {
  for (std::size_t at = 0; at <= value.size();) {
    const auto comma = std::min(value.find(',', at), value.size());
    auto item = value.substr(at, comma - at);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item.size() == option.size() && contains(item, option)) return true;
    at = comma + 1;
  }
  return false;
}

}  // namespace

//! [keeps_alive]
bool keeps_alive(std::string_view head) {
  // TODO(ch01.1): decide whether the connection stays open after this request
  // Hint: What does each HTTP version do when the client says nothing about the
  //   connection? Look at the end of the request line. (more: ./course hint 01 1)
  (void)head; (void)&is_named; (void)&lists;
  throw rdv::todo("ch01.1", "decide whether the connection stays open after this request");
}
//! [keeps_alive]

//! [answer_heads]
std::size_t answer_heads(std::string_view received, std::string& replies, bool& open) {
  // TODO(ch01.2): answer each complete request head, in order
  // Hint: Where does a request head end? Which four bytes mark it? (more:
  //   ./course hint 01 2)
  (void)received; (void)replies; (void)open;
  throw rdv::todo("ch01.2", "answer each complete request head, in order");
}
//! [answer_heads]

//! [serve]
void serve(tcp::socket socket, asio::yield_context yield) {
  // TODO(ch01.3): read, answer and write until the connection is done
  // Hint: Which call waits for bytes without blocking the other connections? What does
  //   it return, and how does it say that the client left? (more: ./course hint 01 3)
  (void)socket; (void)yield;
  throw rdv::todo("ch01.3", "read, answer and write until the connection is done");
}
//! [serve]

//! [accept]
void accept(tcp::acceptor& acceptor, asio::yield_context yield) {
  for (;;) {
    boost::system::error_code ec;
    tcp::socket socket = acceptor.async_accept(yield[ec]);
    if (ec == asio::error::operation_aborted) return;  // the acceptor was closed
    if (rdv::out_of_descriptors(ec)) {                 // retrying at once would spin
      asio::steady_timer(acceptor.get_executor(), 100ms).async_wait(yield[ec]);
      continue;
    }
    if (ec) continue;  // e.g. the client already left
    // TODO(ch01.4): serve the new connection without holding up the next accept
    // Hint: What goes wrong if this loop calls serve() itself? Think of a client that
    //   connects and then says nothing. (more: ./course hint 01 4)
    (void)socket;
    throw rdv::todo("ch01.4", "serve the new connection without holding up the next accept");
  }
}
//! [accept]

}  // namespace rdv::keepalive
