// idle_echo: a TCP echo server whose connections are processes that hang up
// on a client that says nothing for a while. Try: ./course run 06, then
// `nc 127.0.0.1 7007`, type a line, and wait.
#include "echo_server.hpp"
#include "event_loop.hpp"
#include "processes.hpp"

#include "rdv/cli.hpp"
#include "rdv/server.hpp"

#include <boost/asio/io_context.hpp>

#include <iostream>
#include <string>

namespace {

// Like rdv::listen(), but this server speaks TCP echo, not HTTP.
boost::asio::ip::tcp::acceptor listen(boost::asio::io_context& io,
                                      const rdv::cli::host_port& where) {
  auto acceptor = rdv::open_listener(io, where, "echo");
  const std::string url = rdv::url_of(acceptor.local_endpoint());
  std::cout << "listening echo tcp" << url.substr(url.find(':')) << std::endl;
  return acceptor;
}

}  // namespace

//! [main]
int main(int argc, char* argv[]) {
  rdv::cli::flags flags("idle_echo", "Echoes every byte back, one process per connection, and "
                                     "closes connections that stay idle (chapter 6).");
  rdv::cli::host_port address{"127.0.0.1", 7007};
  std::chrono::milliseconds idle{10'000};
  flags.option("listen", address, "where to accept connections")
      .option("idle-ms", idle, "close a connection after this long without a byte")
      .range(1, 86'400'000);
  if (!flags.parse(argc, argv)) return flags.exit_status();
  try {
    boost::asio::io_context io(1);
    rdv::stop_on_signals(io);  // before `listening`: a signal may follow it at once
    auto acceptor = listen(io, address);
    rdv::proc::scheduler node;  // destroyed before io, as run_in() asks
    rdv::proc::run_in(io, node);
    node.spawn([&acceptor, idle] { rdv::echo::accept(acceptor, idle); });
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "idle_echo: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
