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
  flags.option("listen", rdv::cli::address, "where to accept connections", "127.0.0.1:8082");
  flags.toggle("stdin", "parse requests from standard input, print their JSON, and exit");
  flags.toggle("crlf", "with --stdin: end lines with CRLF where the input has LF alone");
  flags
      .option("idle-ms", rdv::cli::milliseconds,
              "hang up on a connection that completes no request this long", "5000")
      .range(1, 86'400'000);
  if (!flags.parse(argc, argv)) return flags.exit_status();
  const std::chrono::milliseconds idle(flags.number("idle-ms"));
  const rdv::http::limits limits;
  if (flags.is_on("stdin")) {
    return rdv::echo::describe_stream(std::cin, std::cout, flags.is_on("crlf"), limits);
  }
  try {
    boost::asio::io_context context(1);
    rdv::stop_on_signals(context);  // before `listening`: a signal may follow it at once
    auto acceptor = rdv::listen(context, flags.endpoint("listen"), "http");
    boost::asio::spawn(
        context,
        [&](boost::asio::yield_context yield) { rdv::echo::accept(acceptor, yield, limits, idle); },
        rdv::rethrow);
    context.run();
  } catch (const std::exception& e) {
    std::cerr << "echo: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
