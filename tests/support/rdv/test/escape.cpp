#include "rdv/test/escape.hpp"

#include <algorithm>
#include <cstdio>

namespace rdv::test {

namespace {

// Appends one byte the way C and printf(1) both read it back.
void append_escaped(std::string& out, unsigned char c, bool for_printf) {
  switch (c) {
  case '\r': out += "\\r"; return;
  case '\n': out += "\\n"; return;
  case '\t': out += "\\t"; return;
  case '\\': out += "\\\\"; return;
  case '"': out += for_printf ? "\"" : "\\\""; return;
  case '\'': out += for_printf ? "'\\''" : "'"; return;
  case '%': out += for_printf ? "%%" : "%"; return;
  default: break;
  }
  if (c < 0x20 || c >= 0x7f) {
    char hex[8];
    std::snprintf(hex, sizeof hex, for_printf ? "\\%03o" : "\\x%02x", c);  // printf(1) knows octal
    out += hex;
  } else {
    out += static_cast<char>(c);
  }
}

std::string escaped(std::string_view bytes, bool for_printf) {
  std::string out;
  for (const char c : bytes) append_escaped(out, static_cast<unsigned char>(c), for_printf);
  return out;
}

}  // namespace

std::string in_quotes(std::string_view bytes) { return '"' + escaped(bytes, false) + '"'; }

std::string printf_nc(std::string_view bytes, unsigned port) {
  return "printf '" + escaped(bytes, true) + "' | nc -q 2 127.0.0.1 " + std::to_string(port);
}

std::string first_difference(std::string_view expected, std::string_view actual) {
  const auto [e, a] = std::mismatch(expected.begin(), expected.end(), actual.begin(), actual.end());
  if (e == expected.end() && a == actual.end()) return {};
  const auto at = static_cast<std::size_t>(e - expected.begin());
  const auto from = at > 20 ? at - 20 : 0;
  const std::string want = escaped(expected.substr(from, 40), false);
  const std::string got = escaped(actual.substr(from, 40), false);
  const auto caret = escaped(expected.substr(from, at - from), false).size();
  return "first difference at byte " + std::to_string(at) + ":\n    expected: ..." + want +
         "\n    actual:   ..." + got + "\n              " + std::string(3 + caret, ' ') + "^";
}

}  // namespace rdv::test
