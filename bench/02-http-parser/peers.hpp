#pragma once
// The parsers chapter 2's benchmark compares, behind one interface: each
// parses a whole stream of pipelined requests and tallies what it saw, so
// that the runs can be checked against each other.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rdv::bench {

// What a parser saw in one pass over the corpus; every parser must agree.
struct tally {
  std::uint64_t requests = 0, fields = 0, target_bytes = 0, body_bytes = 0;
  bool operator==(const tally&) const = default;
};

class parser_under_test {
public:
  virtual ~parser_under_test() = default;
  // Called before each pass, outside the timed region.
  virtual void prepare() {}
  // Parses the whole corpus once; false if the parser rejected it.
  virtual bool parse(std::string_view corpus, tally& out) = 0;
};

// Each peer, in a file of its own (their C headers clash).
std::unique_ptr<parser_under_test> make_http_parser();
std::unique_ptr<parser_under_test> make_llhttp();
std::unique_ptr<parser_under_test> make_picohttpparser(std::string_view corpus,
                                                       const std::vector<std::size_t>& ends);

// The parsers this build has, by name ("rendezvous", "http-parser", ...).
std::vector<std::string> parser_names();
// A parser by name; `ends` are the offsets where each request of the corpus
// ends (picohttpparser's chunked decoder needs them, see peers.cpp).
std::unique_ptr<parser_under_test> make_parser(const std::string& name, std::string_view corpus,
                                               const std::vector<std::size_t>& ends);

}  // namespace rdv::bench
