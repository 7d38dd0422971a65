// static-server: serves the files of a directory over HTTP with sendfile(2)
// — chapter 7's process-per-connection server with chapter 8's handler. It
// also serves the book: ./course book. Try: ./course run 08 --root chapters,
// then `curl -v http://127.0.0.1:8000/08-sendfile.md`.
#include "acceptor.hpp"
#include "event_loop.hpp"
#include "processes.hpp"
#include "static_files.hpp"

#include "rdv/server.hpp"

#include <boost/asio/io_context.hpp>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <system_error>

namespace {

std::optional<rdv::files::packing> packing_named(const std::string& name) {
  using rdv::files::packing;
  if (name == "auto") return packing::automatic;
  if (name == "joined") return packing::joined;
  if (name == "separate") return packing::separate;
  if (name == "nagle") return packing::nagle;
  if (name == "cork") return packing::cork;
  return std::nullopt;
}

// Linux's TCP_CONGESTION; the book's experiment compares BBR with CUBIC.
void set_congestion_control(boost::asio::ip::tcp::acceptor& acceptor, const std::string& name) {
#if defined(TCP_CONGESTION)
  if (::setsockopt(acceptor.native_handle(), IPPROTO_TCP, TCP_CONGESTION, name.data(),
                   static_cast<socklen_t>(name.size())) == 0) {
    return;
  }
  throw std::system_error(errno, std::system_category(),
                          "--congestion " + name +
                              " (see /proc/sys/net/ipv4/"
                              "tcp_available_congestion_control)");
#else
  throw std::runtime_error("--congestion: not on this system (" + name + ")");
#endif
}

}  // namespace

//! [main]
int main(int argc, char* argv[]) {
  rdv::cli::flags flags("static-server", "Serves the files beneath a directory over HTTP, sending "
                                         "them with sendfile(2) (chapter 8).");
  struct {
    std::string root = ".";
    rdv::cli::host_port listen{"127.0.0.1", 8000};
    bool no_sendfile = false;
    std::string packing = "auto", congestion;
    std::size_t open_files = rdv::files::static_options{}.open_files;
    std::uint32_t notsent_lowat = 0;
  } settings;
  rdv::web::server_options options{.log = &std::cerr};
  flags.option("root", settings.root, "the directory to serve", "DIR")
      .option("listen", settings.listen, "where to accept connections")
      .toggle("no-sendfile", settings.no_sendfile,
              "send files with a read/write loop instead, to compare")
      .option("send-timeout-ms", options.send_timeout,
              "drop a client that takes none of a file this long")
      .range(1, 86'400'000)
      .option("packing", settings.packing,
              "how the head and the file meet TCP: auto, joined, separate, nagle or cork (the "
              "book's experiment)",
              "HOW")
      .option("open-files", settings.open_files,
              "how many files to keep open between responses, each until it or a directory on "
              "its path changes (0: open each time)",
              "N")
      .range(0, 100'000)
      .option("congestion", settings.congestion,
              "TCP congestion control for the connections (cubic, bbr, ...); default: the system's",
              "NAME")
      .option("notsent-lowat", settings.notsent_lowat,
              "keep at most about this many bytes of a response queued unsent, so that the "
              "server sends its file itself (TCP_NOTSENT_LOWAT; the book's experiment); "
              "0: the system's",
              "BYTES")
      .range(0, 1 << 30);
  if (!flags.parse(argc, argv)) return flags.exit_status();
  const auto pack = packing_named(settings.packing);
  if (!pack) {
    std::cerr << "static-server: --packing: expected auto, joined, separate, nagle or cork, got "
              << settings.packing << '\n';
    return 2;
  }
  // sendfile(2) to a client that has gone raises SIGPIPE, which would end
  // the server; with it ignored, the call fails with EPIPE instead.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    // With --congestion, every connection inherits the listener's congestion
    // control, so `auto` need not ask each connection which it has.
    const rdv::web::handler handle =
        rdv::files::static_files({.root = settings.root,
                                  .use_sendfile = !settings.no_sendfile,
                                  .pack = *pack,
                                  .open_files = settings.open_files,
                                  .congestion = settings.congestion});
    boost::asio::io_context io(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE);  // one thread, no locks
    rdv::stop_on_signals(io);  // before `listening`: a signal may follow it at once
    auto acceptor = rdv::listen(io, settings.listen, "http");
    if (!settings.congestion.empty()) {
      set_congestion_control(acceptor, settings.congestion);  // accepted connections inherit it
    }
    rdv::files::limit_unsent(acceptor, settings.notsent_lowat);  // they inherit this too
    rdv::proc::scheduler node({.crash_log = nullptr});  // the acceptor reports crashed connections
    rdv::proc::run_in(io, node);
    node.spawn([&] { rdv::web::accept_connections(acceptor, handle, options); });
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "static-server: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
