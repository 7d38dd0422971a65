// Chapter 2's libFuzzer target: tools/fuzz 02 builds it with clang and runs
// it on the seed corpus in corpus/. The first byte of an input chooses how
// the rest is cut into pieces; the parsers must then
//  - never crash, leak, or trip AddressSanitizer or UndefinedBehaviorSanitizer;
//  - keep their contract (progress on every call, `used` within the input);
//  - find exactly the same requests, body bytes and error however the bytes
//    are cut, which is what "incremental" promises.
#include "parse_driver.hpp"
#include "response_parser.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

[[noreturn]] void broken(const char* what, const std::string& a, const std::string& b) {
  std::fprintf(stderr, "%s\n  one way:   %s\n  other way: %s\n", what, a.c_str(), b.c_str());
  std::abort();
}

std::vector<std::size_t> cuts_every(std::size_t step, std::size_t size) {
  std::vector<std::size_t> cuts;
  for (std::size_t at = step; at < size; at += step) cuts.push_back(at);
  return cuts;
}

// A response stream, summarised; `cuts` as for parse_in_pieces.
std::string responses(std::string_view input, const std::vector<std::size_t>& cuts) {
  rdv::http::response_parser parser;
  std::string out, unused;
  std::size_t from = 0;
  for (std::size_t i = 0; i <= cuts.size(); ++i) {
    const std::size_t to = i < cuts.size() ? cuts[i] : input.size();
    unused.append(input.substr(from, to - from));
    from = to;
    for (std::size_t calls = 0;; ++calls) {
      if (calls > 4 * input.size() + 16) return out + " no progress";
      const std::vector<char> fresh(unused.begin(), unused.end());
      const auto s = parser.next({fresh.data(), fresh.size()});
      if (s.used > fresh.size()) return out + " used too much";
      unused.erase(0, s.used);
      if (s.what == rdv::http::event::head) out += " head " + std::to_string(parser.head().status);
      if (s.what == rdv::http::event::body) out += std::string(s.data);
      if (s.what == rdv::http::event::end) out += " end";
      if (s.what == rdv::http::event::error) {
        return out + ' ' + std::string(rdv::http::name_of(parser.error()));
      }
      if (s.what == rdv::http::event::need_more) break;
    }
  }
  return out + (parser.finish_at_close() ? " closed" : " cut");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t step = 1 + data[0] % 32;
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  rdv::http::limits limits;
  limits.max_head = 2048;  // small limits, so that the fuzzer reaches them
  limits.max_start_line = 512;
  limits.max_fields = 16;
  limits.max_body = 4096;

  const auto whole = rdv::test::parse_whole(input, limits);
  const auto pieces = rdv::test::parse_in_pieces(input, cuts_every(step, input.size()), limits);
  if (!whole.trouble.empty() || !pieces.trouble.empty()) {
    broken("the request parser broke its contract", whole.trouble, pieces.trouble);
  }
  if (summary(whole) != summary(pieces)) {
    broken("requests differ with the split", summary(whole), summary(pieces));
  }
  const auto one = responses(input, {});
  const auto many = responses(input, cuts_every(step, input.size()));
  if (one != many) broken("responses differ with the split", one, many);
  return 0;
}
