// Chapter 2: the same bytes through our parser and through http-parser.
#include "http_parser_peer.hpp"
#include "parse_driver.hpp"
#include "request_cases.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/escape.hpp"

#include <gtest/gtest.h>

#include <random>

namespace {

using rdv::test::comparable;
using rdv::test::explained_in;

TEST(Differential, AgreesWithHttpParserWhereTheRfcAndItAgree) {
  explained_in("ch02-differential");
  for (const auto& c : rdv::test::all_request_cases()) {
    if (c.http_parser != nullptr) continue;
    const auto theirs = rdv::test::parse_with_http_parser(c.input);
    EXPECT_EQ(comparable(rdv::test::parse_whole(c.input)), comparable(theirs))
        << "case: " << c.what << "\n  input: " << rdv::test::in_quotes(c.input)
        << "\n  http-parser's error: " << theirs.error;
  }
}

TEST(Differential, DiffersFromHttpParserOnlyWhereTheBookSaysWhy) {
  explained_in("ch02-differential");
  for (const auto& c : rdv::test::all_request_cases()) {
    if (c.http_parser == nullptr) continue;
    EXPECT_NE(comparable(rdv::test::parse_whole(c.input)),
              comparable(rdv::test::parse_with_http_parser(c.input)))
        << "case: " << c.what << "\n  is documented as a difference (" << c.http_parser
        << "),\n  but both parsers now read " << rdv::test::in_quotes(c.input) << " the same way";
  }
}

// Requests that both parsers must accept, made at random from a fixed seed
// (the same requests on every run): methods, targets, fields, and bodies of
// every framing, pipelined by two or three.
class request_maker {
public:
  explicit request_maker(unsigned seed) : random_(seed) {}

  std::string request() {
    static const char* const methods[] = {"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"};
    std::string out = std::string(methods[below(6)]) + " /" + text("abcXYZ019-._~%/?=&+", 0, 40) +
                      (below(4) == 0 ? " HTTP/1.0\r\n" : " HTTP/1.1\r\n");
    out += "Host: " + text("abcdefghijklmnopqrstuvwxyz.", 1, 20) + "\r\n";
    for (auto n = below(20); n > 0; --n) out += field();
    switch (below(3)) {
    case 0: return out + "\r\n";
    case 1: {
      const std::string body = bytes(below(300));
      return out + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    }
    default: return out + "Transfer-Encoding: chunked\r\n\r\n" + chunks();
    }
  }

private:
  std::size_t below(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_);
  }
  std::string text(std::string_view alphabet, std::size_t min, std::size_t max) {
    std::string out(min + below(max - min + 1), ' ');
    for (char& c : out) c = alphabet[below(alphabet.size())];
    return out;
  }
  std::string bytes(std::size_t n) {
    std::string out(n, ' ');
    for (char& c : out) c = static_cast<char>(below(256));
    return out;
  }
  std::string field() {
    const std::string value = text("abc XYZ 0-9;,=\"()/:\t*\xe9\x80", 0, 60);
    const auto first = value.find_first_not_of(" \t");
    const auto last = value.find_last_not_of(" \t");
    const std::string trimmed = first == value.npos ? "" : value.substr(first, last - first + 1);
    return "X-" + text("ABCxyz-_019!#$%&'*+.^`|~", 1, 20) + ":" + (below(2) ? " " : "") + trimmed +
           "\r\n";
  }
  std::string chunks() {
    std::string out;
    for (auto n = below(5); n > 0; --n) {
      const std::string data = bytes(1 + below(100));
      char size[20];
      std::snprintf(size, sizeof size, below(2) ? "%zx" : "%zX", data.size());
      out += size + std::string(below(3) == 0 ? ";ext=1" : "") + "\r\n" + data + "\r\n";
    }
    return out + "0\r\n" + (below(3) == 0 ? "X-Trailer: " + text("abc", 1, 5) + "\r\n" : "") +
           "\r\n";
  }

  std::mt19937 random_;
};

TEST(Differential, ReadsRandomValidRequestsLikeHttpParser) {
  explained_in("ch02-differential");
  request_maker maker(2024);
  std::mt19937 cut_at(7);
  for (int i = 0; i < 500; ++i) {
    std::string stream;
    for (auto n = 1 + i % 3; n > 0; --n) stream += maker.request();
    const auto ours = rdv::test::parse_whole(stream);
    ASSERT_EQ(comparable(ours), comparable(rdv::test::parse_with_http_parser(stream)))
        << "random request " << i << ": " << rdv::test::in_quotes(stream);
    const std::size_t cut = std::uniform_int_distribution<std::size_t>(0, stream.size())(cut_at);
    ASSERT_EQ(comparable(rdv::test::parse_in_pieces(stream, {cut})), comparable(ours))
        << "random request " << i << " split after " << cut
        << " bytes: " << rdv::test::in_quotes(stream);
  }
}

}  // namespace
