// Chapter 2: the byte scans under the parser. Where the processor has SSE2
// they look at sixteen bytes per step; they must answer exactly as a loop
// over one byte at a time would, for every byte at every position.
#include "http_lines.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using rdv::test::explained_in;

// What find_line_stop() must find, one byte at a time.
const char* first_line_stop(const char* p, const char* end) {
  for (; p != end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if ((c < 0x20 && c != '\t') || c == 0x7f) return p;
  }
  return end;
}

// What find_token_end() must find, one byte at a time.
const char* first_non_token(const char* p, const char* end) {
  for (; p != end; ++p) {
    if (!rdv::http::is_tchar(*p)) return p;
  }
  return end;
}

// Checks that `fast` finds what `rule` finds in every text of 0 to 40
// bytes made of `filler`, with every byte value put at every position in
// it, until the first disagreement.
template <class Fast, class Rule>
void agrees_everywhere(std::string_view filler, Fast fast, Rule rule) {
  const auto check = [&](const std::string& text, std::size_t at, int byte) {
    const char* const begin = text.data();
    const char* const end = begin + text.size();
    ASSERT_EQ(fast(begin, end) - begin, rule(begin, end) - begin)
        << "in " << text.size() << " bytes with byte " << byte << " at " << at;
  };
  for (std::size_t size = 0; size <= 40; ++size) {
    std::string text;
    for (std::size_t i = 0; i < size; ++i) text += filler[i % filler.size()];
    check(text, size, -1);  // the filler alone
    for (std::size_t at = 0; at < size; ++at) {
      for (int byte = 0; byte < 256; ++byte) {
        std::string changed = text;
        changed[at] = static_cast<char>(byte);
        check(changed, at, byte);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(Lines, FindTheFirstByteThatEndsALineAsOneByteAtATimeWould) {
  explained_in("ch02-simd");
  agrees_everywhere("Accept: text/html;q=0.9, \t*/*", rdv::http::find_line_stop, first_line_stop);
}

TEST(Lines, FindTheEndOfATokenAsOneByteAtATimeWould) {
  explained_in("ch02-simd");
  // Letters of both cases, digits and '-' (the fast path), and a rarer
  // token character now and then.
  agrees_everywhere("Sec-Fetch-Dest-9z_Accept.Language~0AZaz", rdv::http::find_token_end,
                    first_non_token);
}

}  // namespace
