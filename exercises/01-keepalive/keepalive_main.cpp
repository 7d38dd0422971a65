// keepalive: answers every HTTP request with "1234567", keeping connections
// alive. Try: ./course run 01, then `curl -v http://127.0.0.1:8081/test`.
#include "keepalive.hpp"

#include "rdv/server.hpp"

#include <iostream>

//! [main]
int main(int argc, char* argv[]) {
  rdv::cli::flags flags("keepalive", "Answers every HTTP request with the seven bytes "
                                     "1234567 and keeps connections alive (chapter 1).");
  rdv::cli::host_port listen{"127.0.0.1", 8081};
  flags.option("listen", listen, "where to accept connections");
  if (!flags.parse(argc, argv)) return flags.exit_status();
  try {
    boost::asio::io_context context(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE);  // one thread, no locks
    rdv::stop_on_signals(context);  // before `listening`: a signal may follow it at once
    auto acceptor = rdv::listen(context, listen, "http");
    boost::asio::spawn(
        context,
        [&acceptor](boost::asio::yield_context yield) { rdv::keepalive::accept(acceptor, yield); },
        rdv::rethrow);
    context.run();
  } catch (const std::exception& e) {
    std::cerr << "keepalive: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
