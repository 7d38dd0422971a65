// For chapter 8's benchmark: a library to preload (LD_PRELOAD) into a server
// that has no setting for TCP's congestion control, such as nginx. Before
// the server listens on a socket, it sets the congestion control that the
// environment variable RDV_CONGESTION names (cubic, bbr, ...) on that
// socket; the connections accepted from it inherit it. static-server does
// the same itself, with --congestion. Without RDV_CONGESTION it does nothing.
#include <dlfcn.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" int listen(int fd, int backlog) {
  using listen_call = int (*)(int, int);
  static const auto real = reinterpret_cast<listen_call>(dlsym(RTLD_NEXT, "listen"));
  const char* name = std::getenv("RDV_CONGESTION");
  if (name != nullptr && *name != '\0' &&
      ::setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name,
                   static_cast<socklen_t>(std::strlen(name))) != 0) {
    const int error = errno;
    const std::string why = std::string("congestion_shim: cannot set TCP_CONGESTION ") + name +
                            ": " + std::strerror(error) + "\n";
    [[maybe_unused]] const auto written = ::write(2, why.data(), why.size());
    errno = error;
    return -1;  // the server says it cannot listen, and the benchmark skips it
  }
  return real(fd, backlog);
}
