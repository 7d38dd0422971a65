// echo: answers every HTTP request with JSON describing what chapter 2's
// parser saw. Try: ./course run 02, then
//   curl -s http://127.0.0.1:8082/hello -d 'name=value'
// or parse a file:  printf 'GET / HTTP/1.1\r\nHost: x\r\n\r\n' | ./course run 02 --stdin
#include "echo.hpp"
#include "echo_json.hpp"

#include "rdv/server.hpp"

#include <boost/json/serialize.hpp>

#include <iostream>
#include <iterator>
#include <string>

namespace {

// --crlf: files written in an editor end their lines with LF alone.
std::string with_crlf(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r')) out += '\r';
    out += text[i];
  }
  return out;
}

//! [stdin]
int describe_stdin(bool crlf, const rdv::http::limits& limits) {
  std::string input{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  if (crlf) input = with_crlf(input);
  int status = 0;
  rdv::echo::session requests(
      limits,
      [](const auto& request, bool) { std::cout << boost::json::serialize(request) << '\n'; },
      [&status](rdv::http::parse_error error) {
        std::cout << boost::json::serialize(rdv::echo::describe_error(error)) << '\n';
        status = 1;
      });
  const std::size_t used = requests.feed(input);
  const bool blank_rest = input.find_first_not_of("\r\n", used) == std::string::npos;
  if (!requests.closed() && (!blank_rest || !requests.between_requests())) {
    std::cout << R"({"error":"the input ends in the middle of a request"})" << '\n';
    status = 1;
  }
  return status;
}
//! [stdin]

}  // namespace

int main(int argc, char* argv[]) {
  rdv::cli::flags flags("echo", "Answers every HTTP request with JSON describing what the "
                                "parser saw: method, target, version, fields, body (chapter 2).");
  flags.option("listen", "HOST:PORT", "where to accept connections", "127.0.0.1:8082");
  flags.toggle("stdin", "parse requests from standard input, print their JSON, and exit");
  flags.toggle("crlf", "with --stdin: end lines with CRLF where the input has LF alone");
  if (!flags.parse(argc, argv)) return flags.exit_status();
  const rdv::http::limits limits;
  if (flags.is_on("stdin")) return describe_stdin(flags.is_on("crlf"), limits);
  try {
    boost::asio::io_context context(1);
    auto acceptor = rdv::listen(context, flags.endpoint("listen"), "http");
    boost::asio::spawn(
        context,
        [&](boost::asio::yield_context yield) { rdv::echo::accept(acceptor, yield, limits); },
        rdv::rethrow);
    rdv::stop_on_signals(context);
    context.run();
  } catch (const std::exception& e) {
    std::cerr << "echo: " << e.what() << '\n';
    return 1;
  }
}
