#include "rdv/server.hpp"

#include <boost/asio/signal_set.hpp>

#if defined(__linux__)
#include <boost/asio/posix/stream_descriptor.hpp>
#include <pthread.h>
#include <sys/signalfd.h>
#include <unistd.h>
#endif

#include <cerrno>
#include <csignal>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <system_error>

namespace rdv {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

// Says why a listener could not open, and what to do about it, in the
// words of a person rather than of the library's source location.
std::string cannot_listen(const cli::host_port& where, std::string_view role,
                          const boost::system::error_code& ec) {
  const bool v6 = where.host.find(':') != std::string::npos;
  std::string text = "cannot listen for " + std::string(role) + " on " + (v6 ? "[" : "") +
                     where.host + (v6 ? "]:" : ":") + std::to_string(where.port) + ": " +
                     ec.message();
  if (ec == boost::system::errc::address_in_use) {
    text += " (another program listens there: stop it, or give another port; 0 picks a free one)";
  } else if (ec == boost::system::errc::permission_denied) {
    text += " (ports below 1024 need root: give a port above 1024)";
  } else if (ec == boost::system::errc::address_not_available) {
    text += " (no interface of this machine has that address)";
  }
  return text;
}

}  // namespace

tcp::endpoint listen_endpoint(asio::io_context& context, const cli::host_port& where) {
  tcp::resolver resolver(context);
  return *resolver
              .resolve(where.host, std::to_string(where.port),
                       tcp::resolver::passive | tcp::resolver::numeric_service)
              .begin();
}

asio::ip::tcp::acceptor open_listener(asio::io_context& context, const cli::host_port& where,
                                      std::string_view role, int backlog, bool reuse_port) {
  const tcp::endpoint endpoint = listen_endpoint(context, where);
  tcp::acceptor acceptor(context, endpoint.protocol());
  acceptor.set_option(tcp::acceptor::reuse_address(true));  // restart without TIME_WAIT trouble
  if (reuse_port) {
    acceptor.set_option(asio::detail::socket_option::boolean<SOL_SOCKET, SO_REUSEPORT>(true));
  }
  boost::system::error_code ec;
  if (acceptor.bind(endpoint, ec); !ec) acceptor.listen(backlog, ec);
  if (ec) throw std::runtime_error(cannot_listen(where, role, ec));
  return acceptor;
}

asio::ip::tcp::acceptor listen(asio::io_context& context, const cli::host_port& where,
                               std::string_view role, int backlog, bool reuse_port) {
  tcp::acceptor acceptor = open_listener(context, where, role, backlog, reuse_port);
  announce(role, acceptor);
  return acceptor;
}

void announce(std::string_view role, const tcp::acceptor& acceptor) {
  std::cout << "listening " << role << ' ' << url_of(acceptor.local_endpoint()) << std::endl;
}

std::string url_of(const tcp::endpoint& endpoint) {
  const auto address = endpoint.address();
  const std::string host = address.is_v6() ? '[' + address.to_string() + ']' : address.to_string();
  return "http://" + host + ':' + std::to_string(endpoint.port());
}

#if defined(__linux__)
// On Linux the signals are taken as data, not as interruptions: blocked in
// this thread (and so in every thread it starts from now on), they wait in
// the kernel until a signalfd(2), which the io_context watches like a
// socket, is read. No handler runs on whatever stack the thread was on when
// the signal came; a handler that did would, under ThreadSanitizer, run
// only when the stack it came on (a process's) ran again, which might be
// never. Once the signal has been taken, both are unblocked and default
// again: a second Ctrl-C ends a program that does not stop.
void on_stop_signal(asio::io_context& context, std::function<void()> action) {
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  for (const int s : {SIGINT, SIGTERM}) {
    ::signal(s, SIG_DFL);  // not ignored (`cmd &` in a script ignores SIGINT): held, then read
  }
  const int fd = ::signalfd(-1, &stop, SFD_NONBLOCK | SFD_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "signalfd");
  // The handler owns the descriptor, so it lives exactly as long as the wait.
  auto signals = std::make_shared<asio::posix::stream_descriptor>(context, fd);
  signals->async_wait(
      asio::posix::stream_descriptor::wait_read,
      [signals, stop, action = std::move(action)](const boost::system::error_code& ec) {
        if (ec) return;
        // Take every signal waiting, so that none is delivered once unblocked.
        signalfd_siginfo taken{};
        while (::read(signals->native_handle(), &taken, sizeof taken) == sizeof taken) continue;
        ::pthread_sigmask(SIG_UNBLOCK, &stop, nullptr);
        action();
      });
}
#else
void on_stop_signal(asio::io_context& context, std::function<void()> action) {
  // The handler owns the signal_set, so it lives exactly as long as the wait.
  auto signals = std::make_shared<asio::signal_set>(context, SIGINT, SIGTERM);
  signals->async_wait(
      [signals, action = std::move(action)](const boost::system::error_code& ec, int) {
        if (!ec) action();
      });
}
#endif

void stop_on_signals(asio::io_context& context) {
  on_stop_signal(context, [&context] { context.stop(); });
}

bool out_of_descriptors(const boost::system::error_code& ec) {
  return ec == boost::system::errc::too_many_files_open ||
         ec == boost::system::errc::too_many_files_open_in_system;
}

void rethrow(std::exception_ptr error) {
  if (error) std::rethrow_exception(error);
}

}  // namespace rdv
