#pragma once
/// \file
/// Chapter 2: the byte-level layer of the parser. HTTP/1.1 heads are lines
/// ending in CRLF; this finds where a line ends, and rejects the bytes that
/// must never appear in one, in a single pass over the input.

#include "parse_error.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rdv::http {

/// Which bytes may appear in a token (RFC 9110 §5.6.2): method names and
/// field names are tokens. A table, so that the test is one load.
inline constexpr std::array<bool, 256> token_chars = [] {
  std::array<bool, 256> t{};
  for (int d = '0'; d <= '9'; ++d) t[d] = true;
  for (int a = 'a'; a <= 'z'; ++a) t[a] = t[a - 'a' + 'A'] = true;
  for (char s : std::string_view("!#$%&'*+-.^_`|~")) t[static_cast<unsigned char>(s)] = true;
  return t;
}();

/// Whether `c` may appear in a token.
constexpr bool is_tchar(char c) { return token_chars[static_cast<unsigned char>(c)]; }

/// The first byte in [p, end) that may not appear in a token, or `end`:
/// std::find_if_not(p, end, is_tchar), sixteen bytes at a time where the
/// processor has SSE2.
//! [find_token_end]
inline const char* find_token_end(const char* p, const char* end) {
#if defined(__SSE2__)
  // Sixteen bytes at a time, for the bytes nearly every token is made of:
  // letters, digits and '-'. The first other byte ends the token, unless
  // it is one of the rarer token characters ('_', '.', ...): then go on.
  const auto within = [](__m128i v, char low, char high) {  // low <= v <= high, unsigned
    const __m128i span = _mm_set1_epi8(static_cast<char>(high - low));
    return _mm_cmpeq_epi8(_mm_max_epu8(_mm_sub_epi8(v, _mm_set1_epi8(low)), span), span);
  };
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i usual = _mm_or_si128(
        _mm_or_si128(within(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 'z'), within(v, '0', '9')),
        _mm_cmpeq_epi8(v, _mm_set1_epi8('-')));
    const auto other = static_cast<unsigned>(~_mm_movemask_epi8(usual) & 0xffff);
    if (other == 0) {
      p += 16;
    } else if (p += __builtin_ctz(other); !is_tchar(*p)) {
      return p;
    } else {
      ++p;  // a rarer token character
    }
  }
#endif
  return std::find_if_not(p, end, is_tchar);
}
//! [find_token_end]

/// Whether `c` is optional whitespace (OWS): a space or a horizontal tab.
constexpr bool is_ows(char c) { return c == ' ' || c == '\t'; }

/// `s` without the optional white space (spaces and tabs) at either end.
constexpr std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && is_ows(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ows(s.back())) s.remove_suffix(1);
  return s;
}

/// Calls `each` with every element of the comma-separated list `list` (RFC
/// 9110, 5.6.1): split at the commas outside quoted strings, trimmed of
/// optional whitespace, empty elements skipped (`a, , b` has two). Stops as
/// soon as `each` returns true, and returns whether it did.
template <class Each>
constexpr bool any_element(std::string_view list, Each each) {
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= list.size(); ++i) {
    if (i < list.size() && quoted && list[i] == '\\') {
      ++i;  // a quoted-pair: the next byte is taken as it is
    } else if (i < list.size() && list[i] == '"') {
      quoted = !quoted;
    } else if (i == list.size() || (list[i] == ',' && !quoted)) {
      const std::string_view element = trim_ows(list.substr(start, i - start));
      if (!element.empty() && each(element)) return true;
      start = i + 1;
    }
  }
  return false;
}

/// Just past the quoted-string that starts at `p` (RFC 9110, 5.6.4: a
/// double quote, text in which a backslash takes the next byte as it is, and
/// a double quote), or nullptr if none starts there or it is not closed
/// before `end`. Inside a line (see find_line_stop()), every other byte may
/// be text.
constexpr const char* quoted_string_end(const char* p, const char* end) {
  if (p == end || *p != '"') return nullptr;
  for (++p; p != end; ++p) {
    if (*p == '"') return p + 1;
    if (*p == '\\' && ++p == end) break;  // a quoted-pair cut short
  }
  return nullptr;
}

/// The first byte in [p, end) that may not appear inside a line: a control
/// character other than HTAB (CR and LF included), or DEL. Returns `end` if
/// there is none. Bytes 0x80-0xFF (obs-text) may appear. One byte at a
/// time: find_line_stop() gives the same answer faster.
//! [find_line_stop_bytewise]
inline const char* find_line_stop_bytewise(const char* p, const char* end) {
  for (; p != end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if ((c < 0x20 && c != '\t') || c == 0x7f) return p;
  }
  return p;
}
//! [find_line_stop_bytewise]

/// What find_line_stop_bytewise() finds, sixteen bytes at a time where the
/// processor has SSE2 (every x86-64 one does).
//! [find_line_stop]
inline const char* find_line_stop(const char* p, const char* end) {
#if defined(__SSE2__)
  // A saturating subtraction leaves zero exactly for the bytes below 0x20;
  // take HTAB out of those, add DEL, and the first byte flagged is the one.
  const __m128i below_space = _mm_set1_epi8(0x1f), del = _mm_set1_epi8(0x7f),
                tab = _mm_set1_epi8('\t');
  for (; end - p >= 16; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i control = _mm_cmpeq_epi8(_mm_subs_epu8(v, below_space), _mm_setzero_si128());
    const __m128i stop =
        _mm_or_si128(_mm_andnot_si128(_mm_cmpeq_epi8(v, tab), control), _mm_cmpeq_epi8(v, del));
    if (const auto mask = static_cast<unsigned>(_mm_movemask_epi8(stop)); mask != 0) {
      return p + __builtin_ctz(mask);
    }
  }
#endif
  return find_line_stop_bytewise(p, end);  // the last few bytes
}
//! [find_line_stop]

/// What looking for the end of a line found.
enum class line_status {
  complete,    ///< a whole line, CRLF included
  incomplete,  ///< the input ends before the line does
  too_long,    ///< the line is longer than allowed
  invalid,     ///< a byte that cannot be in a line: see the error
};

/// Finds lines one after another in a growing input, without scanning any
/// byte twice: a line that is not complete yet is resumed where the scan
/// stopped when more input arrives.
class line_reader {
public:
  /// Forgets any partial line; the next line starts at offset `at`.
  void start_at(std::size_t at) { line_at_ = scan_at_ = at; }
  /// Where the current line starts, as an offset into the input.
  std::size_t line_at() const { return line_at_; }

  /// Looks for the end of the line that starts at line_at() in `input`
  /// (the same bytes as before, maybe followed by more). On `complete`,
  /// `line` is the line without its CRLF, and the reader has moved on to
  /// the next line; on `invalid`, `error` says why. It looks at no more
  /// than the first `max_size` + 2 bytes of the line, so that its verdict
  /// does not depend on how the input was split.
  //! [line_next]
  line_status next(std::string_view input, std::size_t max_size, std::string_view& line,
                   parse_error& error) {
    const char* const begin = input.data();
    const std::size_t window = std::min(input.size(), line_at_ + max_size + 2);
    const char* const stop = find_line_stop(begin + scan_at_, begin + window);
    scan_at_ = static_cast<std::size_t>(stop - begin);
    if (scan_at_ - line_at_ > max_size) return line_status::too_long;  // no CR in time
    if (scan_at_ == input.size()) return line_status::incomplete;
    if (*stop == '\r') {
      if (scan_at_ + 1 == input.size()) return line_status::incomplete;  // is LF next?
      if (stop[1] == '\n') {
        line = std::string_view(begin + line_at_, scan_at_ - line_at_);
        start_at(scan_at_ + 2);
        return line_status::complete;
      }
      error = parse_error::bare_cr;
    } else {
      error = *stop == '\n' ? parse_error::bare_lf : parse_error::control_character;
    }
    return line_status::invalid;
  }
  //! [line_next]

private:
  std::size_t line_at_ = 0;  // where the current line starts
  std::size_t scan_at_ = 0;  // the first byte not yet scanned
};

}  // namespace rdv::http
