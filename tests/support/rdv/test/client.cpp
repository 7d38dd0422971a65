#include "rdv/test/client.hpp"

#include "rdv/test/escape.hpp"
#include "rdv/test/loopback.hpp"
#include "rdv/test/unsolved.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <thread>

namespace rdv::test {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

std::string field_value(const field_lines& fields, std::string_view name) {
  for (const auto& [n, v] : fields) {
    if (same_ignoring_case(n, name)) return v;
  }
  return {};
}

std::size_t field_count(const field_lines& fields, std::string_view name) {
  return static_cast<std::size_t>(std::count_if(fields.begin(), fields.end(), [&](const auto& f) {
    return same_ignoring_case(f.first, name);
  }));
}

std::string response::field(std::string_view name) const { return field_value(fields, name); }

bool response::has_field(std::string_view name) const { return field_count(fields, name) > 0; }

client::client(const server_thread& server, std::chrono::milliseconds timeout)
    : client(server.port(), timeout) {
  server_ = &server;
}

client::client(std::uint16_t port, std::chrono::milliseconds timeout)
    : port_(port), timeout_(timeout) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw network_error(std::string("socket: ") + std::strerror(errno));
  const int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // pieces stay pieces
  if (connect_to_loopback(fd_, port) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    throw network_error("could not connect to 127.0.0.1:" + std::to_string(port) + ": " +
                        std::strerror(error));
  }
}

client::~client() { close(); }

void client::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void client::send(std::string_view bytes) {
  sent_ += bytes;
  while (!bytes.empty()) {
    const auto n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(std::string("sending failed: ") + std::strerror(errno));
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void client::send_in_pieces(std::string_view bytes, std::size_t piece) {
  while (!bytes.empty()) {
    send(bytes.substr(0, piece));
    bytes.remove_prefix(std::min(piece, bytes.size()));
  }
}

std::size_t client::read_more() {
  const auto n = read_by(std::chrono::steady_clock::now() + timeout_);
  if (!n) fail("no answer within " + std::to_string(timeout_.count()) + " ms");
  return *n;
}

std::optional<std::size_t> client::read_by(std::chrono::steady_clock::time_point deadline) {
  if (eof_) return 0;
  for (;;) {
    if (server_ != nullptr) {
      if (const auto died = server_->failure(); !died.empty()) {
        fail("the server stopped with an error: " + died);
      }
    }
    if (const auto unsolved = unsolved_message()) fail(*unsolved);
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    // Wake up every 50 ms to notice a server that died or reached an exercise
    // stub; the deadline is what counts.
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, 50);
    if (ready < 0 && errno != EINTR) fail(std::string("poll: ") + std::strerror(errno));
    if (ready <= 0) continue;
    char chunk[16384];
    const auto n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      eof_ = true;
      return 0;
    }
    received_.append(chunk, static_cast<std::size_t>(n));
    buffered_.append(chunk, static_cast<std::size_t>(n));
    return static_cast<std::size_t>(n);
  }
}

std::size_t client::need(std::size_t bytes) {
  while (buffered_.size() < bytes) {
    if (read_more() == 0) {
      fail("the connection was closed after " + std::to_string(buffered_.size()) + " of " +
           std::to_string(bytes) + " expected bytes");
    }
  }
  return bytes;
}

std::string client::read_exactly(std::size_t bytes) {
  std::string bytes_read = buffered_.substr(0, need(bytes));
  buffered_.erase(0, bytes);
  return bytes_read;
}

std::string client::read_line() {
  std::size_t end;
  while ((end = buffered_.find("\r\n")) == std::string::npos) {
    if (buffered_.size() > 65536) fail("a response line longer than 64 KiB");
    if (read_more() == 0) {
      fail(buffered_.empty() ? "the connection was closed before any response"
                             : "the connection was closed in the middle of a response line");
    }
  }
  std::string line = buffered_.substr(0, end);
  buffered_.erase(0, end + 2);
  return line;
}

response client::read_response(bool to_head_request) {
  const auto start = received_.size() - buffered_.size();
  response r;
  const std::string status_line = read_line();
  // HTTP-version SP status-code SP [reason-phrase]
  const auto sp1 = status_line.find(' ');
  const auto sp2 = status_line.find(' ', sp1 + 1);
  r.version = status_line.substr(0, sp1);
  const std::string code = status_line.substr(sp1 + 1, sp2 - sp1 - 1);
  const auto [p, ec] = std::from_chars(code.data(), code.data() + code.size(), r.status);
  if (sp1 == std::string::npos || ec != std::errc{} || p != code.data() + code.size() ||
      !r.version.starts_with("HTTP/")) {
    fail("expected a status line like \"HTTP/1.1 200 OK\", got " + in_quotes(status_line));
  }
  r.reason = sp2 == std::string::npos ? "" : status_line.substr(sp2 + 1);
  for (std::string line; !(line = read_line()).empty();) {
    const auto colon = line.find(':');
    if (colon == std::string::npos)
      fail("expected a header field \"Name: value\", got " + in_quotes(line));
    r.fields.emplace_back(line.substr(0, colon),
                          std::string(trim(std::string_view(line).substr(colon + 1))));
  }
  const bool no_body = to_head_request || r.status / 100 == 1 || r.status == 204 || r.status == 304;
  if (no_body) {
  } else if (same_ignoring_case(r.field("Transfer-Encoding"), "chunked")) {
    for (;;) {
      const std::string size_line = read_line();
      std::size_t size = 0;
      const auto [q, e] =
          std::from_chars(size_line.data(), size_line.data() + size_line.size(), size, 16);
      if (e != std::errc{}) fail("expected a chunk size in hex, got " + in_quotes(size_line));
      if (size == 0) {
        while (!read_line().empty()) {}  // trailer fields
        break;
      }
      r.body += buffered_.substr(0, need(size));
      buffered_.erase(0, size);
      if (!read_line().empty()) fail("expected CRLF after a chunk");
    }
  } else if (r.has_field("Content-Length")) {
    std::size_t length = 0;
    const std::string text = r.field("Content-Length");
    const auto [q, e] = std::from_chars(text.data(), text.data() + text.size(), length);
    if (e != std::errc{} || q != text.data() + text.size()) {
      fail("expected a number in Content-Length, got " + in_quotes(text));
    }
    r.body = buffered_.substr(0, need(length));
    buffered_.erase(0, length);
  } else {
    while (read_more() != 0) {}  // the body ends when the connection does
    r.body = std::move(buffered_);
    buffered_.clear();
  }
  r.raw = received_.substr(start, received_.size() - buffered_.size() - start);
  return r;
}

bool client::wait_delivered() {
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  for (;;) {
    int unacknowledged = 0;  // TIOCOUTQ: bytes not yet acknowledged by the peer
    if (::ioctl(fd_, TIOCOUTQ, &unacknowledged) != 0) return false;
    if (unacknowledged == 0) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    ::poll(nullptr, 0, 1);  // the kernel gives no event for it: look again shortly
  }
}

bool client::wait_closed() {
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  for (std::optional<std::size_t> n; (n = read_by(deadline));) {
    if (*n == 0) return true;  // closed, in order or by a reset
  }
  return false;  // still open at the deadline
}

void client::fail(const std::string& what) const {
  // An exercise stub explains whatever went wrong after it. A program the
  // test started announces one on its standard error, which may reach the
  // test a moment after the connection closed: wait that moment (only on
  // this failure path).
  for (int i = 0; i < 20 && server_ == nullptr && !todo_reached(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (const auto unsolved = unsolved_message()) {
    throw unsolved_exercise(*unsolved + "\n(" + what + ")\n" + transcript());
  }
  if (server_ != nullptr) {
    // A server that throws closes its sockets while the exception unwinds, a
    // moment before its thread records why. Give it that moment, so that the
    // message names the cause (only on this failure path: a passing test never
    // waits here).
    for (int i = 0; i < 50 && server_->failure().empty() && !todo_reached(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (const auto unsolved = unsolved_message()) {
      throw unsolved_exercise(*unsolved + "\n(" + what + ")\n" + transcript());
    }
    if (const auto died = server_->failure(); !died.empty()) {
      throw network_error(what + "\nbecause the server stopped with an error: " + died + "\n" +
                          transcript());
    }
  }
  throw network_error(what + "\n" + transcript());
}

std::string client::transcript() const {
  std::string out = "  sent:     " + in_quotes(sent_) + "\n  received: " + in_quotes(received_);
  if (server_ != nullptr && !server_->manual().command.empty()) {
    out += "\n  try it by hand: run `" + server_->manual().command + "`, then\n    " +
           printf_nc(sent_, server_->manual().default_port);
  } else {
    out += "\n  try it by hand: " + printf_nc(sent_, port_);
  }
  return out;
}

}  // namespace rdv::test
