// held_clients: a share of the clients in chapter 10's bench of many held
// clients (bench/10-hub/run --held). It opens --clients connections from
// one source address (--from: each process its own, so that no address runs
// out of ports), sends one GET on each, and waits for the answers.
//
// Each connection's source port is chosen here, the next free one in turn,
// not by connect(): the kernel's search for a free port walks the ports the
// address already uses, and at 14,000 connections from one address it took
// the clients' core for seconds at a time, long enough for a server's idle
// timeout to close connections whose request was not written yet.
//
// It says "sent N" on stdout once every request is written (N of them; the
// rest could not connect). Each line "report" on stdin gets one JSON line
// back: the requests sent, the answers by status, the connections that
// closed without one, and, for each 200 answer whose body has "posted_ns"
// (peer_worker puts it there), that moment ("posted_ns") and the
// microseconds from it to the answer's arrival ("latency_us", in the same
// order). Both clocks are CLOCK_MONOTONIC, which every process on the
// machine shares. The end of stdin ends it.
//
// One thread and one epoll set: the load must cost little next to what it
// measures, and a process of its own per source address keeps each under
// the limit on open files.
#include "rdv/cli.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::uint64_t input = ~std::uint64_t{0};  // epoll's tag for stdin

std::int64_t monotonic_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

// The number after `key` in `text`, if it is there.
template <class N>
bool number_after(std::string_view text, std::string_view key, N& into) {
  const auto at = text.find(key);
  if (at == text.npos) return false;
  const char* first = text.data() + at + key.size();
  while (first < text.data() + text.size() && *first == ' ') ++first;
  return std::from_chars(first, text.data() + text.size(), into).ec == std::errc();
}

struct client {
  int fd = -1;
  bool connected = false;
  std::string in;  // what came back so far
};

class load {
public:
  load(sockaddr_in to, sockaddr_in from, std::size_t count, std::size_t in_flight)
      : to_(to), from_(from), clients_(count), in_flight_(in_flight),
        events_(::epoll_create1(EPOLL_CLOEXEC)) {
    if (events_ < 0) fail("epoll_create1");
    watch(STDIN_FILENO, EPOLLIN, input, EPOLL_CTL_ADD);
  }

  int run() {
    while (started_ < clients_.size() && connecting_ < in_flight_) start(started_++);
    std::vector<epoll_event> ready(256);
    for (;;) {
      const int n = ::epoll_wait(events_, ready.data(), static_cast<int>(ready.size()), -1);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail("epoll_wait");
      for (int i = 0; i < n; ++i) {
        const epoll_event& e = ready[static_cast<std::size_t>(i)];
        if (e.data.u64 == input) {
          if (!command()) return 0;
          continue;
        }
        client& c = clients_[e.data.u64];
        if (!c.connected) {
          connected(c);
        } else {
          readable(c);
        }
      }
    }
  }

private:
  [[noreturn]] static void fail(const char* what) {
    std::cerr << "held_clients: " << what << ": " << std::strerror(errno) << '\n';
    std::exit(1);
  }

  void watch(int fd, std::uint32_t what, std::uint64_t tag, int op) {
    epoll_event e{};
    e.events = what;
    e.data.u64 = tag;
    if (::epoll_ctl(events_, op, fd, &e) != 0) fail("epoll_ctl");
  }

  // Begins connecting client `i`, from the source address, on the next
  // port it can bind. SO_REUSEADDR lets a port that an earlier run left in
  // TIME_WAIT be bound again; a connect that would repeat such a
  // connection's addresses exactly may fail, and then the next port is tried.
  void start(std::size_t i) {
    client& c = clients_[i];
    for (;;) {
      if (next_port_ > last_port) return gave_up(c);  // none left
      c.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      if (c.fd < 0) fail("socket");
      const int yes = 1;
      ::setsockopt(c.fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
      sockaddr_in from = from_;
      from.sin_port = htons(next_port_++);
      if (::bind(c.fd, reinterpret_cast<const sockaddr*>(&from), sizeof from) == 0 &&
          (::connect(c.fd, reinterpret_cast<const sockaddr*>(&to_), sizeof to_) == 0 ||
           errno == EINPROGRESS)) {
        break;
      }
      if (errno != EADDRINUSE && errno != EADDRNOTAVAIL) return gave_up(c);
      ::close(c.fd);  // in use: the next
    }
    ++connecting_;
    watch(c.fd, EPOLLOUT, i, EPOLL_CTL_ADD);
  }

  void gave_up(client& c) {
    ::close(c.fd);
    c.fd = -1;
    ++failed_;
    sent_if_all();
  }

  // A connect ended: send the request, and wait for the answer.
  void connected(client& c) {
    --connecting_;
    if (started_ < clients_.size()) start(started_++);
    int error = 0;
    socklen_t size = sizeof error;
    ::getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &error, &size);
    const auto index = static_cast<std::size_t>(&c - clients_.data());
    const std::string request =
        "GET /held/" + std::to_string(index) + " HTTP/1.1\r\nHost: hub\r\n\r\n";
    if (error != 0 || ::send(c.fd, request.data(), request.size(), MSG_NOSIGNAL) !=
                          static_cast<ssize_t>(request.size())) {
      return gave_up(c);
    }
    c.connected = true;
    ++sent_;
    watch(c.fd, EPOLLIN | EPOLLRDHUP, index, EPOLL_CTL_MOD);
    sent_if_all();
  }

  void sent_if_all() {
    if (!said_sent_ && sent_ + failed_ == clients_.size()) {
      said_sent_ = true;
      std::cout << "sent " << sent_ << std::endl;
    }
  }

  // Bytes, or the end: a whole answer is counted, and the connection closed.
  void readable(client& c) {
    char bytes[4096];
    const ssize_t n = ::recv(c.fd, bytes, sizeof bytes, 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n > 0) {
      c.in.append(bytes, static_cast<std::size_t>(n));
      if (!whole_answer(c)) return;
    } else {
      ++closed_;  // the end, or an error, before a whole answer
    }
    ::close(c.fd);
    c.fd = -1;
    c.in = {};
  }

  bool whole_answer(client& c) {
    const std::string_view in = c.in;
    const auto end = in.find("\r\n\r\n");
    if (end == in.npos) return false;
    std::size_t length = 0;
    number_after(in.substr(0, end), "Content-Length:", length);
    if (in.size() < end + 4 + length) return false;
    int status = 0;
    number_after(in.substr(0, end), "HTTP/1.1 ", status);
    ++statuses_[status];
    std::int64_t posted = 0;
    if (status == 200 && number_after(in.substr(end + 4, length), "\"posted_ns\":", posted)) {
      posted_ns_.push_back(posted);
      latencies_us_.push_back(static_cast<double>(monotonic_ns() - posted) / 1000.0);
    }
    return true;
  }

  // A line on stdin: "report" is answered; false at the end of stdin.
  bool command() {
    char line[256];
    const ssize_t n = ::read(STDIN_FILENO, line, sizeof line);
    if (n <= 0) return false;
    if (std::string_view(line, static_cast<std::size_t>(n)).starts_with("report")) report();
    return true;
  }

  void report() const {
    std::ostringstream out;
    out << "{\"clients\":" << clients_.size() << ",\"sent\":" << sent_ << ",\"failed\":" << failed_
        << ",\"closed\":" << closed_ << ",\"statuses\":{";
    const char* comma = "";
    for (const auto& [status, count] : statuses_) {
      out << comma << '"' << status << "\":" << count;
      comma = ",";
    }
    out << '}';
    json_array(out, "posted_ns", posted_ns_);
    json_array(out, "latency_us", latencies_us_);
    std::cout << out.str() << '}' << std::endl;
  }

  // `,"name":[v,...]`
  template <class Number>
  static void json_array(std::ostream& out, std::string_view name,
                         const std::vector<Number>& values) {
    out << ",\"" << name << "\":[";
    const char* comma = "";
    for (const Number v : values) {
      out << comma << v;
      comma = ",";
    }
    out << ']';
  }

  sockaddr_in to_, from_;
  std::vector<client> clients_;
  std::size_t in_flight_;
  int events_;
  std::size_t started_ = 0, connecting_ = 0, sent_ = 0, failed_ = 0, closed_ = 0;
  // The source ports: above those a server listens on, most often; and no
  // privilege needed.
  static constexpr std::uint16_t first_port = 10'000, last_port = 65'535;
  std::uint32_t next_port_ = first_port;
  bool said_sent_ = false;
  std::map<int, std::size_t> statuses_;
  std::vector<std::int64_t> posted_ns_;  // when each 200 answer was posted
  std::vector<double> latencies_us_;     // and how long it took to arrive
};

sockaddr_in ipv4(const std::string& host, std::uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  if (::inet_pton(AF_INET, host.c_str(), &a.sin_addr) != 1) {
    std::cerr << "held_clients: not an IPv4 address: " << host << '\n';
    std::exit(2);
  }
  return a;
}

}  // namespace

int main(int argc, char* argv[]) {
  rdv::cli::flags flags("held_clients",
                        "Clients that send one request each and wait for the answer (bench 10).");
  rdv::cli::host_port connect{"127.0.0.1", 8080};
  std::string from = "127.0.0.1";
  std::size_t count = 1000, in_flight = 256;
  flags.option("connect", connect, "the server")
      .option("from", from, "the source address of every connection", "IPV4")
      .option("clients", count, "how many")
      .range(1, 1'000'000)
      .option("in-flight", in_flight, "connects begun and not done, at most")
      .range(1, 100'000);
  if (!flags.parse(argc, argv)) return flags.exit_status();
  load clients(ipv4(connect.host, connect.port), ipv4(from, 0), count, in_flight);
  return clients.run();
}
