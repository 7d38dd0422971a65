#include "request_cases.hpp"

#include "rdv/test/escape.hpp"

namespace rdv::test {

namespace {

const std::string host = "Host: example.com\r\n";
const std::string get = "GET / HTTP/1.1\r\n" + host + "\r\n";
const std::string get_summary = "GET / HTTP/1.1 [Host: example.com]";

// A POST with `fields` (each ending in CRLF) and `body`.
std::string post(const std::string& fields, const std::string& body) {
  return "POST /form HTTP/1.1\r\n" + host + fields + "\r\n" + body;
}
std::string post_summary(const std::string& fields, const std::string& body) {
  return "POST /form HTTP/1.1 [Host: example.com]" + fields +
         (body.empty() ? "" : " body=<" + body + ">");
}
const std::string chunked = "Transfer-Encoding: chunked\r\n";
const std::string chunked_summary = " [Transfer-Encoding: chunked]";

}  // namespace

std::vector<request_case> request_line_cases() {
  return {
      {"a GET with a Host field", get, get_summary},
      {"a target with a query", "GET /search?q=a+b&x=%20 HTTP/1.1\r\n" + host + "\r\n",
       "GET /search?q=a+b&x=%20 HTTP/1.1 [Host: example.com]"},
      {"OPTIONS * (asterisk-form)", "OPTIONS * HTTP/1.1\r\n" + host + "\r\n",
       "OPTIONS * HTTP/1.1 [Host: example.com]"},
      {"CONNECT host:port (authority-form)", "CONNECT example.com:443 HTTP/1.1\r\n" + host + "\r\n",
       "CONNECT example.com:443 HTTP/1.1 [Host: example.com]"},
      {"an absolute-form target", "GET http://example.com/a HTTP/1.1\r\n" + host + "\r\n",
       "GET http://example.com/a HTTP/1.1 [Host: example.com]"},
      {"HTTP/1.0 needs no Host", "GET /old HTTP/1.0\r\n\r\n", "GET /old HTTP/1.0"},
      {"HTTP/1.2 is served as HTTP/1.x", "GET / HTTP/1.2\r\n" + host + "\r\n",
       "GET / HTTP/1.2 [Host: example.com]"},
      {"any token is a method", "M-SEARCH * HTTP/1.1\r\n" + host + "\r\n",
       "M-SEARCH * HTTP/1.1 [Host: example.com]"},
      {"empty lines before the request line are ignored", "\r\n\r\n" + get, get_summary},
      {"a method that is not a token", "G(T / HTTP/1.1\r\n" + host + "\r\n", "bad_method"},
      {"a tab after the method", "GET\t/ HTTP/1.1\r\n" + host + "\r\n", "bad_method"},
      {"a lowercase method is another method", "get / HTTP/1.1\r\n" + host + "\r\n",
       "get / HTTP/1.1 [Host: example.com]",
       "http-parser knows a fixed list of methods and rejects any other; in RFC 9110 any token is "
       "a method (case-sensitive), and a server that does not implement one answers 501 itself"},
      {"two spaces after the method", "GET  / HTTP/1.1\r\n" + host + "\r\n", "bad_target",
       "http-parser skips repeated spaces; RFC 9112 section 3 allows that leniency, but a lenient "
       "server behind a strict proxy reads a different target"},
      {"a space inside the target", "GET /a b HTTP/1.1\r\n" + host + "\r\n", "bad_target"},
      {"a tab inside the target", "GET /a\tb HTTP/1.1\r\n" + host + "\r\n", "bad_target",
       "http-parser keeps the tab in the target; RFC 9112 section 3 lets a lenient reader split "
       "the line at any whitespace, and that reader sees the target /a"},
      {"a space after the version", "GET / HTTP/1.1 \r\n" + host + "\r\n", "bad_target"},
      {"a request line that starts with a space", " GET / HTTP/1.1\r\n" + host + "\r\n",
       "bad_request_line"},
      {"an HTTP/0.9 request (no version)", "GET /\r\n\r\n", "bad_request_line",
       "http-parser still accepts HTTP/0.9 requests (no version, no fields); this parser serves "
       "HTTP/1.x only"},
      {"a lowercase protocol name", "GET / http/1.1\r\n" + host + "\r\n", "bad_version"},
      {"a two-digit minor version", "GET / HTTP/1.10\r\n" + host + "\r\n", "bad_version"},
      {"a version without a minor", "GET / HTTP/1\r\n" + host + "\r\n", "bad_version"},
      {"HTTP/2.0 in an HTTP/1 request line", "GET / HTTP/2.0\r\n" + host + "\r\n",
       "version_not_supported",
       "http-parser accepts any one-digit version and leaves the choice to the application; we "
       "answer 505"},
      {"HTTP/0.9 with a version", "GET / HTTP/0.9\r\n\r\n", "version_not_supported",
       "http-parser accepts any one-digit version and leaves the choice to the application; we "
       "answer 505"},
      {"a request line ending in LF alone", "GET / HTTP/1.1\n" + host + "\r\n", "bare_lf",
       "http-parser takes a bare LF as the end of a line, which RFC 9112 section 2.2 allows (MAY); "
       "we refuse it, because a proxy that does not would see a different head"},
      {"a CR inside the request line", "GET /a\rb HTTP/1.1\r\n" + host + "\r\n", "bare_cr"},
      {"a NUL inside the target", std::string("GET /a\0b HTTP/1.1\r\n", 20) + host + "\r\n",
       "control_character"},
  };
}

std::vector<request_case> field_cases() {
  return {
      {"fields keep their order and their case",
       "GET / HTTP/1.1\r\nhost: a\r\nACCEPT: */*\r\nX-Two: 1\r\nX-Two: 2\r\n\r\n",
       "GET / HTTP/1.1 [host: a] [ACCEPT: */*] [X-Two: 1] [X-Two: 2]"},
      {"whitespace around a value is not part of it", "GET / HTTP/1.1\r\nHost: \t a b \t\r\n\r\n",
       "GET / HTTP/1.1 [Host: a b]",
       "http-parser keeps trailing whitespace in a value; RFC 9110 section 5.5 excludes it"},
      {"an empty value", "GET / HTTP/1.1\r\n" + host + "X-Empty:\r\n\r\n",
       get_summary + " [X-Empty: ]"},
      {"a value with obs-text bytes", "GET / HTTP/1.1\r\n" + host + "X-Latin: caf\xe9\r\n\r\n",
       get_summary + " [X-Latin: caf\xe9]"},
      {"a field name with every token character",
       "GET / HTTP/1.1\r\n" + host + "!#$%&'*+-.^_`|~09AZaz: x\r\n\r\n",
       get_summary + " [!#$%&'*+-.^_`|~09AZaz: x]"},
      {"a space before the colon", "GET / HTTP/1.1\r\nHost : example.com\r\n\r\n",
       "space_before_colon",
       "http-parser keeps the space as part of the name; RFC 9112 section 5.1 says a server MUST "
       "answer 400"},
      {"a tab before the colon", "GET / HTTP/1.1\r\n" + host + "Content-Length\t: 5\r\n\r\n",
       "space_before_colon"},
      {"a field line without a name", "GET / HTTP/1.1\r\n" + host + ": x\r\n\r\n",
       "bad_field_name"},
      {"a field line without a colon", "GET / HTTP/1.1\r\n" + host + "Just text\r\n\r\n",
       "bad_field_name"},
      {"a field name with a character that is not a token",
       "GET / HTTP/1.1\r\n" + host + "X-A(b): x\r\n\r\n", "bad_field_name"},
      {"a folded field line (obs-fold)", "GET / HTTP/1.1\r\n" + host + "X-A: a\r\n b\r\n\r\n",
       "obs_fold",
       "http-parser unfolds folded lines; RFC 9112 section 5.2 lets a server reject them or "
       "replace each fold with a space, and we reject"},
      {"a field line folded with a tab", "GET / HTTP/1.1\r\n" + host + "X-A: a\r\n\tb\r\n\r\n",
       "obs_fold",
       "http-parser unfolds folded lines; RFC 9112 section 5.2 lets a server reject them or "
       "replace each fold with a space, and we reject"},
      {"a CR alone inside a value", "GET / HTTP/1.1\r\n" + host + "X-A: a\rb\r\n\r\n", "bare_cr"},
      {"a field line ending in LF alone", "GET / HTTP/1.1\r\nHost: a\n\r\n", "bare_lf",
       "http-parser takes a bare LF as the end of a line (RFC 9112 section 2.2: MAY); we refuse "
       "it"},
      {"a head ending in LF alone", "GET / HTTP/1.1\r\n" + host + "\n", "bare_lf",
       "http-parser takes a bare LF as the end of a line (RFC 9112 section 2.2: MAY); we refuse "
       "it"},
      {"a NUL inside a value", std::string("GET / HTTP/1.1\r\nHost: a\0b\r\n\r\n", 29),
       "control_character"},
      {"a DEL inside a value", "GET / HTTP/1.1\r\n" + host + "X-A: a\x7f\r\n\r\n",
       "control_character"},
      {"an HTTP/1.1 request without Host", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", "missing_host",
       "http-parser leaves Host to the application; RFC 9112 section 3.2 says a server MUST answer "
       "400"},
      {"two Host fields", "GET / HTTP/1.1\r\n" + host + "Host: evil.example\r\n\r\n",
       "duplicate_host",
       "http-parser leaves Host to the application; RFC 9112 section 3.2 says a server MUST answer "
       "400"},
  };
}

std::vector<request_case> framing_cases() {
  return {
      {"a Content-Length body", post("Content-Length: 5\r\n", "hello"),
       post_summary(" [Content-Length: 5]", "hello")},
      {"Content-Length: 0", post("Content-Length: 0\r\n", ""),
       post_summary(" [Content-Length: 0]", "")},
      {"a lowercase content-length", post("content-length: 3\r\n", "abc"),
       post_summary(" [content-length: 3]", "abc")},
      {"a Content-Length in capitals", post("CONTENT-LENGTH: 3\r\n", "abc"),
       post_summary(" [CONTENT-LENGTH: 3]", "abc")},
      {"a body that looks like a request, framed by a Content-length",
       post("Content-length: " + std::to_string(get.size()) + "\r\n", get),
       post_summary(" [Content-length: " + std::to_string(get.size()) + "]", get)},
      {"leading zeros in Content-Length", post("Content-Length: 005\r\n", "hello"),
       post_summary(" [Content-Length: 005]", "hello")},
      {"a request without Content-Length has no body", get + get,
       get_summary + " || " + get_summary},
      {"a Content-Length list of equal values", post("Content-Length: 5, 5\r\n", "hello"),
       post_summary(" [Content-Length: 5, 5]", "hello"),
       "http-parser refuses any repeated Content-Length; RFC 9110 section 8.6 lets a recipient "
       "accept identical values, as we do"},
      {"two equal Content-Length fields",
       post("Content-Length: 5\r\nContent-Length: 5\r\n", "hello"),
       post_summary(" [Content-Length: 5] [Content-Length: 5]", "hello"),
       "http-parser refuses any repeated Content-Length; RFC 9110 section 8.6 lets a recipient "
       "accept identical values, as we do"},
      {"Content-Length values that differ", post("Content-Length: 5, 6\r\n", "hello!"),
       "conflicting_content_length"},
      {"two Content-Length fields that differ",
       post("Content-Length: 6\r\nContent-Length: 5\r\n", "hello!"), "conflicting_content_length"},
      {"a negative Content-Length", post("Content-Length: -1\r\n", ""), "bad_content_length"},
      {"a Content-Length with a plus sign", post("Content-Length: +5\r\n", "hello"),
       "bad_content_length"},
      {"a hexadecimal Content-Length", post("Content-Length: 0x5\r\n", "hello"),
       "bad_content_length"},
      {"a Content-Length with a space inside", post("Content-Length: 1 2\r\n", "hello"),
       "bad_content_length"},
      {"an empty Content-Length", post("Content-Length: \r\n", ""), "bad_content_length"},
      {"a Content-Length too big for 64 bits",
       post("Content-Length: 99999999999999999999999\r\n", ""), "bad_content_length"},
      {"a Content-Length over the body limit", post("Content-Length: 1048577\r\n", ""),
       "body_too_large",
       "http-parser has no body limit and waits for the bytes; limits are its caller's job"},
      {"both Content-Length and Transfer-Encoding (CL.TE)",
       post("Content-Length: 3\r\n" + chunked, "0\r\n\r\n"), "length_and_transfer_encoding"},
      {"both Transfer-Encoding and Content-Length (TE.CL)",
       post(chunked + "Content-Length: 3\r\n", "0\r\n\r\n"), "length_and_transfer_encoding"},
      {"both, with a Content-Length of 0 (CL.TE)",
       post("Content-Length: 0\r\n" + chunked, "5\r\nhello\r\n0\r\n\r\n"),
       "length_and_transfer_encoding"},
      {"a Content-Length 5 bytes past 2^32", post("Content-Length: 4294967301\r\n", "hello"),
       "body_too_large",
       "http-parser has no body limit and waits for the bytes; limits are its caller's job"},
      {"a Content-Length of 2^32", post("Content-Length: 4294967296\r\n", ""), "body_too_large",
       "http-parser has no body limit and waits for the bytes; limits are its caller's job"},
      {"both, in other cases (CL.TE)",
       post("Content-length: 3\r\nTRANSFER-ENCODING: chunked\r\n", "0\r\n\r\n"),
       "length_and_transfer_encoding"},
      {"a coding before chunked that this parser cannot undo",
       post("Transfer-Encoding: gzip, chunked\r\n", "0\r\n\r\n"), "unknown_transfer_coding",
       "http-parser removes the chunks and leaves gzip to its caller; RFC 9112 section 6.1 says a "
       "server SHOULD answer 501 for a coding it does not implement"},
      {"chunked that is not the last coding",
       post("Transfer-Encoding: chunked, gzip\r\n", "0\r\n\r\n"), "bad_transfer_encoding"},
      {"a Transfer-Encoding without chunked", post("Transfer-Encoding: gzip\r\n", ""),
       "bad_transfer_encoding"},
      {"chunked twice in one field", post("Transfer-Encoding: chunked, chunked\r\n", "0\r\n\r\n"),
       "bad_transfer_encoding"},
      {"chunked twice in two fields", post(chunked + chunked, "0\r\n\r\n"), "bad_transfer_encoding",
       "http-parser accepts chunked in two fields; RFC 9112 section 6.1 forbids applying chunked "
       "twice"},
      {"a coding that only looks like chunked", post("Transfer-Encoding: xchunked\r\n", ""),
       "bad_transfer_encoding"},
      {"an empty Transfer-Encoding", post("Transfer-Encoding: \r\n", ""), "bad_transfer_encoding"},
  };
}

std::vector<request_case> chunked_cases() {
  return {
      {"one chunk", post(chunked, "5\r\nhello\r\n0\r\n\r\n"),
       post_summary(chunked_summary, "hello")},
      {"several chunks", post(chunked, "3\r\nabc\r\n1\r\nd\r\n2\r\nef\r\n0\r\n\r\n"),
       post_summary(chunked_summary, "abcdef")},
      {"an empty chunked body", post(chunked, "0\r\n\r\n"), post_summary(chunked_summary, "")},
      {"hex digits in either case",
       post(chunked, "A\r\n0123456789\r\nb\r\nabcdefghijk\r\n0\r\n\r\n"),
       post_summary(chunked_summary, "0123456789abcdefghijk")},
      {"a chunk size with leading zeros", post(chunked, "0003\r\nabc\r\n000\r\n\r\n"),
       post_summary(chunked_summary, "abc")},
      {"a Chunked coding in capitals",
       post("Transfer-Encoding: Chunked\r\n", "1\r\nx\r\n0\r\n\r\n"),
       post_summary(" [Transfer-Encoding: Chunked]", "x")},
      {"a Transfer-Encoding in capitals",
       post("TRANSFER-ENCODING: chunked\r\n", "1\r\nx\r\n0\r\n\r\n"),
       post_summary(" [TRANSFER-ENCODING: chunked]", "x")},
      {"chunk extensions are ignored",
       post(chunked, "3;name=value\r\nabc\r\n2 ; q=\"a;b\"\r\nde\r\n0;last\r\n\r\n"),
       post_summary(chunked_summary, "abcde")},
      {"a chunk-size line of 1 KiB, its limit",
       post(chunked, "1;x=" + std::string(1020, 'y') + "\r\nz\r\n0\r\n\r\n"),
       post_summary(chunked_summary, "z")},
      {"trailer fields", post(chunked, "2\r\nhi\r\n0\r\nX-Checksum: 42\r\nX-More: a b\r\n\r\n"),
       post_summary(chunked_summary, "hi") + " trailer[X-Checksum: 42] trailer[X-More: a b]"},
      {"a chunk size that is not hex", post(chunked, "g\r\nabc\r\n0\r\n\r\n"), "bad_chunk_size"},
      {"an empty chunk-size line", post(chunked, "\r\nabc\r\n0\r\n\r\n"), "bad_chunk_size"},
      {"a chunk size written as 0x5", post(chunked, "0x5\r\nhello\r\n0\r\n\r\n"), "bad_chunk_size"},
      {"a negative chunk size", post(chunked, "-5\r\nhello\r\n0\r\n\r\n"), "bad_chunk_size"},
      {"whitespace after a chunk size", post(chunked, "5 \r\nhello\r\n0\r\n\r\n"), "bad_chunk_size",
       "http-parser ignores spaces after a chunk size; the grammar of RFC 9112 section 7.1 has "
       "none there"},
      {"a chunk extension without a name", post(chunked, "5;\r\nhello\r\n0\r\n\r\n"),
       "bad_chunk_size",
       "http-parser skips extensions without looking at them; RFC 9112 section 7.1.1 requires a "
       "name after the semicolon"},
      {"a chunk extension with an unclosed quoted value",
       post(chunked, "5;a=\"b\r\nhello\r\n0\r\n\r\n"), "bad_chunk_size",
       "http-parser skips extensions without looking at them; RFC 9112 section 7.1.1 gives their "
       "grammar"},
      {"a chunk extension with words after its name", post(chunked, "5;a b\r\nhello\r\n0\r\n\r\n"),
       "bad_chunk_size",
       "http-parser skips extensions without looking at them; RFC 9112 section 7.1.1 gives their "
       "grammar"},
      {"a chunk-size line one byte over 1 KiB",
       post(chunked, "1;x=" + std::string(1021, 'y') + "\r\nz\r\n0\r\n\r\n"), "bad_chunk_size",
       "http-parser has no limit on a chunk-size line and keeps reading extensions"},
      {"a chunk size of 17 hex digits", post(chunked, "10000000000000005\r\nhello\r\n0\r\n\r\n"),
       "chunk_size_overflow"},
      {"a chunk size over the body limit", post(chunked, "FFFFFFFFFFFFFFFF\r\nhello\r\n"),
       "body_too_large"},
      {"a chunk size that would wrap the body's length around",
       post(chunked, "1\r\nx\r\nFFFFFFFFFFFFFFFF\r\nhello\r\n"), "body_too_large"},
      {"a chunk size 5 past 2^32", post(chunked, "100000005\r\nhello\r\n0\r\n\r\n"),
       "body_too_large",
       "http-parser has no body limit and waits for the bytes; limits are its caller's job"},
      {"a chunk size of 2^32, which is not the last chunk",
       post(chunked, "100000000\r\n\r\nGET /admin HTTP/1.1\r\n\r\n"), "body_too_large",
       "http-parser has no body limit and waits for the bytes; limits are its caller's job"},
      {"chunk data longer than its size", post(chunked, "3\r\nhello\r\n0\r\n\r\n"),
       "bad_chunk_end"},
      {"spaces between chunk data and its CRLF", post(chunked, "5\r\nhello  \r\n0\r\n\r\n"),
       "bad_chunk_end"},
      {"a trailer line that is a request line, not a field",
       post(chunked, "0\r\nGET /admin HTTP/1.1\r\nHost: x\r\n\r\n"), "bad_field_name"},
      {"a chunk-size line ending in LF alone", post(chunked, "5\nhello\r\n0\r\n\r\n"), "bare_lf"},
      {"chunk data followed by LF alone", post(chunked, "5\r\nhello\n0\r\n\r\n"), "bad_chunk_end"},
      {"chunk data followed by CR and another byte", post(chunked, "5\r\nhello\rX0\r\n\r\n"),
       "bad_chunk_end",
       "http-parser, unless built strict, skips the two bytes after chunk data without looking at "
       "them; RFC 9112 section 7.1 has CRLF there, and a reader that skips any two bytes lets a "
       "body hide bytes from a reader that does not"},
      {"a trailer with a space before the colon", post(chunked, "1\r\nx\r\n0\r\nX-T : 1\r\n\r\n"),
       "space_before_colon",
       "http-parser keeps the space as part of the name; RFC 9112 section 5.1 says MUST reject"},
  };
}

std::vector<request_case> pipelined_cases() {
  const std::string post_length = post("Content-Length: 5\r\n", "hello");
  const std::string post_chunked = post(chunked, "2\r\nhi\r\n0\r\nT: 1\r\n\r\n");
  return {
      {"three pipelined GETs", get + get + get,
       get_summary + " || " + get_summary + " || " + get_summary},
      {"pipelined requests with bodies of each kind", get + post_length + post_chunked + get,
       get_summary + " || " + post_summary(" [Content-Length: 5]", "hello") + " || " +
           post_summary(chunked_summary, "hi") + " trailer[T: 1] || " + get_summary},
      {"a body that looks like a request is still a body",
       post("Content-Length: " + std::to_string(get.size()) + "\r\n", get) + get,
       post_summary(" [Content-Length: " + std::to_string(get.size()) + "]", get) + " || " +
           get_summary},
      {"a bad request after a good one", get + "GET / HTTP/1.1\r\nHost : x\r\n\r\n" + get,
       get_summary + " || space_before_colon",
       "http-parser accepts \"Host : x\" (see \"a space before the colon\") and reads all three "
       "requests"},
      {"a request cut short", get + "GET / HTTP/1.1\r\nHo", get_summary + " || incomplete"},
      {"a body cut short", post("Content-Length: 10\r\n", "hello"), "incomplete"},
  };
}

std::vector<request_case> all_request_cases() {
  std::vector<request_case> all;
  for (auto group :
       {request_line_cases(), field_cases(), framing_cases(), chunked_cases(), pipelined_cases()}) {
    all.insert(all.end(), group.begin(), group.end());
  }
  return all;
}

::testing::AssertionResult parses_as_expected(const request_case& c, const http::limits& limits) {
  for (std::size_t cut = 0; cut <= c.input.size(); ++cut) {
    const std::string got = summary(parse_in_pieces(c.input, {cut}, limits));
    if (got == c.expected) continue;
    return ::testing::AssertionFailure()
           << "case: " << c.what << "\n  input:    " << in_quotes(c.input) << "\n  split:    first "
           << cut << " bytes, then the rest (" << in_quotes(c.input.substr(0, cut))
           << " + ...)\n  expected: " << in_quotes(c.expected)
           << "\n  but got:  " << in_quotes(got);
  }
  return ::testing::AssertionSuccess();
}

void expect_cases(const std::vector<request_case>& cases, const http::limits& limits) {
  for (const request_case& c : cases) EXPECT_TRUE(parses_as_expected(c, limits));
}

}  // namespace rdv::test
