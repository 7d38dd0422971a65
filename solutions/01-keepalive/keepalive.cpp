#include "keepalive.hpp"

#include "rdv/server.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <array>

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
  // EXERCISE ch01.1: decide whether the connection stays open after this request
  // HINT: What does each HTTP version do when the client says nothing about the
  //       connection? Look at the end of the request line.
  // HINT: A "Connection:" field can override the default: which two values matter?
  //       Field names are case-insensitive, and so are those values.
  // HINT: This server cannot skip a request body. What must it do with a request
  //       that announces one (Content-Length or Transfer-Encoding)?
  // STUB: (void)head; (void)&is_named; (void)&lists;
  const auto line_end = head.find("\r\n");
  bool open = !head.substr(0, line_end).ends_with("HTTP/1.0");  // 1.1 keeps, 1.0 closes
  bool close = false;                                           // ... and close wins over all
  for (auto at = line_end; at < head.size();) {                 // one header field per line
    const auto end = std::min(head.find("\r\n", at + 2), head.size());
    const auto field = head.substr(at + 2, end - at - 2);
    at = end;
    if (is_named(field, "content-length") || is_named(field, "transfer-encoding")) {
      return false;  // a body we cannot skip: answer, then hang up
    }
    if (is_named(field, "connection")) {
      const auto value = field.substr(field.find(':') + 1);
      close = close || lists(value, "close");
      open = open || lists(value, "keep-alive");
    }
  }
  return open && !close;
  // END EXERCISE
}
//! [keeps_alive]

//! [answer_heads]
std::size_t answer_heads(std::string_view received, std::string& replies, bool& open) {
  // EXERCISE ch01.2: answer each complete request head, in order
  // HINT: Where does a request head end? Which four bytes mark it?
  // HINT: Several requests can arrive in one read (pipelining). Keep looking
  //       after the end of the first head, until no complete head is left.
  // STUB: (void)received; (void)replies; (void)open;
  std::size_t used = 0;
  for (auto end = received.find("\r\n\r\n"); open && end != received.npos;
       end = received.find("\r\n\r\n", used)) {
    open = keeps_alive(received.substr(used, end - used));
    replies += open ? keep_alive_reply : closing_reply;
    used = end + 4;
  }
  return used;
  // END EXERCISE
}
//! [answer_heads]

//! [serve]
void serve(tcp::socket socket, asio::yield_context yield) {
  // EXERCISE ch01.3: read, answer and write until the connection is done
  // HINT: Which call waits for bytes without blocking the other connections?
  //       What does it return, and how does it say that the client left?
  // HINT: A head may arrive in pieces. Where do you keep the bytes that
  //       answer_heads() did not use, and what if the buffer fills up?
  // STUB: (void)socket; (void)yield;
  std::array<char, max_head_size> buffer;  // lives on this coroutine's stack
  std::size_t filled = 0;
  std::string replies;  // reused: no allocation per request once it has grown
  boost::system::error_code ec;
  for (bool open = true; open && filled < buffer.size();) {
    filled += socket.async_read_some(asio::buffer(buffer.data() + filled, buffer.size() - filled),
                                     yield[ec]);
    if (ec) return;  // the client left, or the server is stopping
    const auto used = answer_heads({buffer.data(), filled}, replies, open);
    if (!replies.empty()) asio::async_write(socket, asio::buffer(replies), yield[ec]);
    if (ec) return;
    replies.clear();
    filled = std::copy(buffer.begin() + used, buffer.begin() + filled, buffer.begin()) -
             buffer.begin();  // keep the start of the next head
  }
  // END EXERCISE
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
    // EXERCISE ch01.4: serve the new connection without holding up the next accept
    // HINT: What goes wrong if this loop calls serve() itself? Think of a
    //       client that connects and then says nothing.
    // HINT: asio::spawn starts a coroutine on an executor. Which executor, and
    //       how does the socket get into the coroutine?
    // STUB: (void)socket;
    asio::spawn(
        acceptor.get_executor(),
        [socket = std::move(socket)](asio::yield_context own) mutable {
          serve(std::move(socket), own);
        },
        rdv::rethrow);
    // END EXERCISE
  }
}
//! [accept]

}  // namespace rdv::keepalive
