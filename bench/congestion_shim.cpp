// For the benchmarks that compare TCP congestion controls (chapters 8 and
// 10): a library to preload (LD_PRELOAD) into a program that has no setting
// for it, such as nginx or wrk. When the environment variable RDV_CONGESTION
// names one (cubic, bbr, ...), the program's TCP sockets get it: a listening
// socket before it listens (the connections accepted from it inherit it), and
// a socket before it connects. A socket the kernel refuses it fails to listen
// or connect, so that the benchmark skips that system rather than measuring
// it with the wrong one. Without RDV_CONGESTION it does nothing.
#include <dlfcn.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

// Whether `fd` is a TCP socket (an Internet stream socket; not a Unix one).
bool is_tcp(int fd) {
  int domain = 0, type = 0;
  socklen_t size = sizeof domain;
  if (::getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &size) != 0) return false;
  size = sizeof type;
  if (::getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &size) != 0) return false;
  return (domain == AF_INET || domain == AF_INET6) && type == SOCK_STREAM;
}

// Sets RDV_CONGESTION's congestion control on `fd`, if it names one and `fd`
// is a TCP socket; false (errno set, a line on stderr) if the kernel refused.
bool set_congestion(int fd) {
  const char* name = std::getenv("RDV_CONGESTION");
  if (name == nullptr || *name == '\0' || !is_tcp(fd)) return true;
  if (::setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name,
                   static_cast<socklen_t>(std::strlen(name))) == 0) {
    return true;
  }
  const int error = errno;
  const std::string why = std::string("congestion_shim: cannot set TCP_CONGESTION ") + name + ": " +
                          std::strerror(error) + "\n";
  [[maybe_unused]] const auto written = ::write(2, why.data(), why.size());
  errno = error;
  return false;
}

template <class Call>
Call next(const char* symbol) {
  return reinterpret_cast<Call>(dlsym(RTLD_NEXT, symbol));
}

}  // namespace

extern "C" int listen(int fd, int backlog) {
  static const auto real = next<int (*)(int, int)>("listen");
  return set_congestion(fd) ? real(fd, backlog) : -1;
}

extern "C" int connect(int fd, const sockaddr* address, socklen_t size) {
  static const auto real = next<int (*)(int, const sockaddr*, socklen_t)>("connect");
  return set_congestion(fd) ? real(fd, address, size) : -1;
}
