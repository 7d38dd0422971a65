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

#include <csignal>
#include <iostream>

//! [main]
int main(int argc, char* argv[]) {
  rdv::cli::flags flags("static-server", "Serves the files beneath a directory over HTTP, sending "
                                         "them with sendfile(2) (chapter 8).");
  flags.option("root", "DIR", "the directory to serve", ".")
      .option("listen", "HOST:PORT", "where to accept connections", "127.0.0.1:8000")
      .toggle("no-sendfile", "send files with a read/write loop instead, to compare");
  if (!flags.parse(argc, argv)) return flags.exit_status();
  // sendfile(2) to a client that has gone raises SIGPIPE, which would end
  // the server; with it ignored, the call fails with EPIPE instead.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    const rdv::web::handler handle = rdv::files::static_files(
        {.root = flags.value("root"), .use_sendfile = !flags.is_on("no-sendfile")});
    boost::asio::io_context io(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE);  // one thread, no locks
    auto acceptor = rdv::listen(io, flags.endpoint("listen"), "http");
    rdv::proc::scheduler node({.crash_log = nullptr});  // the acceptor reports crashed connections
    rdv::proc::run_in(io, node);
    // TCP_NODELAY: the last bytes of a file leave at once (see the book).
    const rdv::web::server_options options{.log = &std::cerr, .no_delay = true};
    node.spawn([&] { rdv::web::accept_connections(acceptor, handle, options); });
    rdv::stop_on_signals(io);
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "static-server: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
