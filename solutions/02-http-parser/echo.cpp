#include "echo.hpp"

#include "echo_json.hpp"
#include "rdv/server.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <istream>
#include <iterator>
#include <memory>
#include <ostream>
#include <vector>

namespace rdv::echo {

namespace asio = boost::asio;
using asio::ip::tcp;

session::session(const http::limits& limits, on_request request, on_error error)
    : parser_(limits), on_request_(std::move(request)), on_error_(std::move(error)) {}

//! [feed]
std::size_t session::feed(std::string_view received) {
  std::size_t used = 0;
  while (!closed_) {
    const http::step s = parser_.next(received.substr(used));
    switch (s.what) {
    case http::event::need_more: return used + s.used;
    case http::event::head:  // copy what we need now: the views die with the buffer
      description_ = describe_head(parser_.head(), parser_.body_framing());
      head_request_ = parser_.head().method == "HEAD";
      keep_alive_ = http::keeps_alive(parser_.head());
      in_request_ = true;
      body_.clear();
      break;
    case http::event::body: body_ += s.data; break;
    case http::event::end:
      describe_body(description_, body_, parser_.trailers());
      description_["keep_alive"] = keep_alive_;
      on_request_(description_, head_request_);
      in_request_ = false;
      closed_ = !keep_alive_;
      break;
    case http::event::error:
      on_error_(parser_.error());
      closed_ = true;
      break;
    }
    used += s.used;
  }
  return used;
}
//! [feed]

//! [replies]
void append_reply(std::string& out, const boost::json::object& description, bool head) {
  const std::string body = boost::json::serialize(description) + "\n";
  const bool open = description.at("keep_alive").as_bool();
  out += "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ";
  out += std::to_string(body.size());
  out += open ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n";
  if (!head) out += body;
}

void append_error_reply(std::string& out, http::parse_error error) {
  const int status = http::status_for(error);
  const std::string body = std::string(http::describe(error)) + "\n";
  out += "HTTP/1.1 " + std::to_string(status) + ' ';
  out += http::reason_phrase(status);
  out += "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ";
  out += std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}
//! [replies]

namespace {

// A LF without the CR before it becomes CRLF.
std::string with_crlf(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r')) out += '\r';
    out += text[i];
  }
  return out;
}

}  // namespace

//! [stdin]
int describe_stream(std::istream& in, std::ostream& out, bool crlf, const http::limits& limits) {
  std::string input{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (crlf) input = with_crlf(input);
  int status = 0;
  session requests(
      limits, [&out](const auto& request, bool) { out << boost::json::serialize(request) << '\n'; },
      [&](http::parse_error error) {
        out << boost::json::serialize(describe_error(error)) << '\n';
        status = 1;
      });
  const std::size_t used = requests.feed(input);
  const bool blank_rest = input.find_first_not_of("\r\n", used) == std::string::npos;
  if (!requests.closed() && (!blank_rest || !requests.between_requests())) {
    out << R"({"error":"incomplete","reason":"the input ends in the middle of a request"})" << '\n';
    status = 1;
  }
  return status;
}
//! [stdin]

namespace {

// Closes after the last answer without losing it: a socket closed with
// unread input sends a reset, which can destroy the answer in flight. So
// stop sending, then read and drop what the client still sends, for a while.
void linger_close(tcp::socket& socket, asio::yield_context yield) {
  boost::system::error_code ec;
  socket.shutdown(tcp::socket::shutdown_send, ec);
  auto over = std::make_shared<bool>(false);  // the timer's handler may run after we return
  asio::steady_timer timer(socket.get_executor(), std::chrono::seconds(1));
  timer.async_wait([&socket, over](boost::system::error_code) {
    if (!*over) socket.cancel();  // stops the read below
  });
  std::array<char, 4096> sink;
  while (!ec) socket.async_read_some(asio::buffer(sink), yield[ec]);
  *over = true;
}

}  // namespace

//! [serve]
void serve(tcp::socket socket, asio::yield_context yield, const http::limits& limits,
           std::chrono::milliseconds idle) {
  std::string replies;  // answers to the requests of one read, written at once
  session requests(
      limits, [&replies](const auto& request, bool head) { append_reply(replies, request, head); },
      [&replies](http::parse_error error) { append_error_reply(replies, error); });
  // A client that completes no request for `idle` is hung up on, whether it
  // says nothing or trickles a request in a byte at a time: the deadline
  // moves only when a request is whole.
  auto over = std::make_shared<bool>(false);  // the timer's handler may run after we return
  asio::steady_timer deadline(socket.get_executor());
  const auto wait_at_most = [&] {
    deadline.expires_after(idle);
    deadline.async_wait([&socket, over](boost::system::error_code ec) {
      if (!ec && !*over) socket.cancel();  // the read below ends with operation_aborted
    });
  };
  wait_at_most();
  // A head must fit whole in the buffer (its fields are views into it); a
  // body goes through it in pieces.
  std::vector<char> buffer(std::max(limits.max_head, limits.max_start_line) + 4096);
  std::size_t filled = 0;
  boost::system::error_code ec;
  while (!requests.closed() && filled < buffer.size()) {
    filled += socket.async_read_some(asio::buffer(buffer.data() + filled, buffer.size() - filled),
                                     yield[ec]);
    if (ec) break;  // the client left or stayed silent, or the server is stopping
    const std::size_t used = requests.feed({buffer.data(), filled});
    if (!replies.empty()) {
      wait_at_most();  // a whole request came: the next one gets its own time
      asio::async_write(socket, asio::buffer(replies), yield[ec]);
    }
    if (ec) break;
    replies.clear();
    filled = static_cast<std::size_t>(
        std::copy(buffer.begin() + static_cast<std::ptrdiff_t>(used),
                  buffer.begin() + static_cast<std::ptrdiff_t>(filled), buffer.begin()) -
        buffer.begin());  // keep the start of the next request
  }
  *over = true;
  if (!ec) linger_close(socket, yield);
}
//! [serve]

void accept(tcp::acceptor& acceptor, asio::yield_context yield, const http::limits& limits,
            std::chrono::milliseconds idle) {
  for (;;) {
    boost::system::error_code ec;
    tcp::socket socket = acceptor.async_accept(yield[ec]);
    if (ec == asio::error::operation_aborted) return;  // the acceptor was closed
    if (rdv::out_of_descriptors(ec)) {                 // retrying at once would spin
      asio::steady_timer(acceptor.get_executor(), std::chrono::milliseconds(100))
          .async_wait(yield[ec]);
      continue;
    }
    if (ec) continue;
    asio::spawn(
        acceptor.get_executor(),
        [socket = std::move(socket), limits, idle](asio::yield_context own) mutable {
          serve(std::move(socket), own, limits, idle);
        },
        rdv::rethrow);
  }
}

}  // namespace rdv::echo
