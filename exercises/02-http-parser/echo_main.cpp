// echo: answers every HTTP request with JSON describing what chapter 2's
// parser saw. Try: ./course run 02, then
//   curl -s http://127.0.0.1:8082/hello -d 'name=value'
// or parse a file:  printf 'GET / HTTP/1.1\r\nHost: x\r\n\r\n' | ./course run 02 --stdin
#include "echo.hpp"

#include "rdv/server.hpp"

#include <chrono>
#include <iostream>

//! [main]
int main(int argc, char* argv[]) {
  rdv::cli::flags flags("echo", "Answers every HTTP request with JSON describing what the "
                                "parser saw: method, target, version, fields, body (chapter 2).");
  struct {
    rdv::cli::host_port listen{"127.0.0.1", 8082};
    bool from_stdin = false, crlf = false;
    std::chrono::milliseconds idle{5000};
  } settings;
  flags.option("listen", settings.listen, "where to accept connections")
      .toggle("stdin", settings.from_stdin,
              "parse requests from standard input, print their JSON, and exit")
      .toggle("crlf", settings.crlf,
              "with --stdin: end lines with CRLF where the input has LF alone")
      .option("idle-ms", settings.idle,
              "hang up on a connection that completes no request this long")
      .range(1, 86'400'000);
  if (!flags.parse(argc, argv)) return flags.exit_status();
  const rdv::http::limits limits;
  if (settings.from_stdin) {
    return rdv::echo::describe_stream(std::cin, std::cout, settings.crlf, limits);
  }
  try {
    boost::asio::io_context context(1);
    rdv::stop_on_signals(context);  // before `listening`: a signal may follow it at once
    auto acceptor = rdv::listen(context, settings.listen, "http");
    boost::asio::spawn(
        context,
        [&](boost::asio::yield_context yield) {
          rdv::echo::accept(acceptor, yield, limits, settings.idle);
        },
        rdv::rethrow);
    context.run();
  } catch (const std::exception& e) {
    std::cerr << "echo: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
