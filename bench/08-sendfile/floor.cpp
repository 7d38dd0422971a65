// Chapter 8's floor: nginx's system calls for a keep-alive file response,
// with nothing around them. For each request it reads the request, opens the
// file beneath the root, asks its size, writes the head, sends the file with
// one sendfile and closes it, as nginx does with `sendfile on` and its
// defaults (no open-file cache); one thread, one epoll set, no parser, no
// timers, no processes. The benchmark runs it beside static-server and
// nginx: what it costs is what the kernel charges a server for those calls,
// so its CPU per request is as low as a server that makes them can go, and
// a server's distance from it is what the server itself adds.
//
// Only for the benchmark's load generator, on the loopback: it serves the
// files in the root itself (no subdirectory, no name that starts with a
// dot), takes the request's path from "GET /name " as it comes (no
// decoding), answers one request per read (ab sends the next only after the
// answer), keeps the connection only if the request asks for it as ab -k
// does ("Connection: Keep-Alive"), and hangs up on anything else.
//
//   sendfile-floor PORT ROOT
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

constexpr int ready_at_once = 64;  // events taken from one epoll_wait

// The listening socket on 127.0.0.1:`port`, non-blocking; -1 if that fails.
int listen_on(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  const int on = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(fd, 1024) != 0) {
    std::perror("sendfile-floor: listen");
    return -1;
  }
  return fd;
}

// After a send that returned `sent`: whether to go on, waiting first for
// room if the socket was full (which holds up the other connections: the
// benchmark's files fit the socket buffers, and the bench saw no wait).
bool go_on(int socket, ssize_t sent) {
  if (sent >= 0) return true;
  pollfd room{socket, POLLOUT, 0};
  return errno == EAGAIN && ::poll(&room, 1, 10'000) == 1;
}

// Sends all of `bytes`.
bool send_all(int socket, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(socket, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (!go_on(socket, sent)) return false;
    if (sent > 0) bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

// Sends the file `file` of `size` bytes, in one call unless the socket fills.
bool send_file(int socket, int file, off_t size) {
  off_t offset = 0;
  while (offset < size) {
    const ssize_t sent = ::sendfile(socket, file, &offset, static_cast<std::size_t>(size - offset));
    if (sent == 0 || !go_on(socket, sent)) return false;  // 0: the file shrank
  }
  return true;
}

// Answers the request in `request` on `socket`; false: hang up.
bool answer(int socket, int root, std::string_view request) {
  const bool keep = request.find("Connection: Keep-Alive\r\n") != std::string_view::npos;
  constexpr std::string_view get = "GET /";
  const auto end = request.find(' ', get.size());
  if (!request.starts_with(get) || end == std::string_view::npos) return false;
  const std::string name(request.substr(get.size(), end - get.size()));
  if (name.empty() || name.front() == '.' || name.find('/') != std::string::npos) {
    return false;  // the benchmark's files lie in the root itself: nothing else is served
  }
  const int file = ::openat(root, name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (file < 0) return false;
  struct stat about{};
  const bool sent = ::fstat(file, &about) == 0 &&
                    send_all(socket, std::string("HTTP/1.1 200 OK\r\nConnection: ") +
                                         (keep ? "keep-alive" : "close") + "\r\nContent-Length: " +
                                         std::to_string(about.st_size) + "\r\n\r\n") &&
                    send_file(socket, file, about.st_size);
  ::close(file);
  return sent && keep;
}

// Takes every connection waiting on `listener` into `events`.
void accept_all(int listener, int events) {
  for (int fd; (fd = ::accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0;) {
    const int on = 1;  // as nginx's tcp_nodelay (on by default) for keep-alive
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    epoll_event wanted{};
    wanted.events = EPOLLIN;
    wanted.data.fd = fd;
    ::epoll_ctl(events, EPOLL_CTL_ADD, fd, &wanted);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: sendfile-floor PORT ROOT\n");
    return 2;
  }
  const int root = ::open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const int listener = listen_on(std::atoi(argv[1]));
  if (root < 0 || listener < 0) return 1;
  const int events = ::epoll_create1(EPOLL_CLOEXEC);
  epoll_event wanted{};
  wanted.events = EPOLLIN;
  wanted.data.fd = listener;
  ::epoll_ctl(events, EPOLL_CTL_ADD, listener, &wanted);
  std::array<epoll_event, ready_at_once> ready{};
  std::array<char, 4096> request{};
  for (;;) {  // until the benchmark stops it with SIGTERM
    const int count = ::epoll_wait(events, ready.data(), ready_at_once, -1);
    for (int i = 0; i < count; ++i) {
      const int fd = ready[static_cast<std::size_t>(i)].data.fd;
      if (fd == listener) {
        accept_all(listener, events);
        continue;
      }
      const ssize_t got = ::recv(fd, request.data(), request.size(), 0);
      if (got < 0 && errno == EAGAIN) continue;
      if (got <= 0 || !answer(fd, root, {request.data(), static_cast<std::size_t>(got)})) {
        ::close(fd);
      }
    }
  }
}
