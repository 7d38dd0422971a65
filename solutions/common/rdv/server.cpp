#include "rdv/server.hpp"

#include <boost/asio/signal_set.hpp>

#include <csignal>
#include <iostream>
#include <memory>
#include <stdexcept>

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

asio::ip::tcp::acceptor open_listener(asio::io_context& context, const cli::host_port& where,
                                      std::string_view role, int backlog, bool reuse_port) {
  tcp::resolver resolver(context);
  const auto results = resolver.resolve(where.host, std::to_string(where.port),
                                        tcp::resolver::passive | tcp::resolver::numeric_service);
  const tcp::endpoint endpoint = *results.begin();
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
  std::cout << "listening " << role << ' ' << url_of(acceptor.local_endpoint()) << std::endl;
  return acceptor;
}

std::string url_of(const tcp::endpoint& endpoint) {
  const auto address = endpoint.address();
  const std::string host = address.is_v6() ? '[' + address.to_string() + ']' : address.to_string();
  return "http://" + host + ':' + std::to_string(endpoint.port());
}

void on_stop_signal(asio::io_context& context, std::function<void()> action) {
  // The handler owns the signal_set, so it lives exactly as long as the wait.
  auto signals = std::make_shared<asio::signal_set>(context, SIGINT, SIGTERM);
  signals->async_wait(
      [signals, action = std::move(action)](const boost::system::error_code& ec, int) {
        if (!ec) action();
      });
}

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
