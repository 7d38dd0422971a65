#include "parse_error.hpp"

#include <iterator>

namespace rdv::http {

namespace {

// Every error with its status, its name and what it means, in the order
// of the enum: one table, so that they cannot disagree.
struct error_row {
  parse_error error;
  int status;
  std::string_view name;
  std::string_view text;
};

using e = parse_error;
constexpr error_row rows[] = {
    {e::none, 200, "none", "no error"},
    {e::bad_request_line, 400, "bad_request_line",
     "the request line is not METHOD SP TARGET SP VERSION"},
    {e::bad_method, 400, "bad_method", "the method is not a token"},
    {e::bad_target, 400, "bad_target", "the request-target is empty or holds whitespace"},
    {e::bad_version, 400, "bad_version", "the HTTP version is malformed"},
    {e::version_not_supported, 505, "version_not_supported", "only HTTP/1.x is supported"},
    {e::bad_status_line, 400, "bad_status_line", "the status line is malformed"},
    {e::bare_cr, 400, "bare_cr", "a CR is not followed by LF"},
    {e::bare_lf, 400, "bare_lf", "a line ends with LF instead of CRLF"},
    {e::control_character, 400, "control_character", "a line holds a control character"},
    {e::obs_fold, 400, "obs_fold", "a field line is folded (starts with whitespace)"},
    {e::bad_field_name, 400, "bad_field_name", "a field name is empty or not a token"},
    {e::space_before_colon, 400, "space_before_colon",
     "whitespace between a field name and its colon"},
    {e::missing_host, 400, "missing_host", "an HTTP/1.1 request needs a Host field"},
    {e::duplicate_host, 400, "duplicate_host", "more than one Host field"},
    {e::bad_content_length, 400, "bad_content_length", "Content-Length is not a valid number"},
    {e::conflicting_content_length, 400, "conflicting_content_length",
     "Content-Length values differ"},
    {e::length_and_transfer_encoding, 400, "length_and_transfer_encoding",
     "both Content-Length and Transfer-Encoding"},
    {e::bad_transfer_encoding, 400, "bad_transfer_encoding",
     "chunked must be the last transfer coding, once"},
    {e::unknown_transfer_coding, 501, "unknown_transfer_coding",
     "a transfer coding other than chunked"},
    {e::bad_chunk_size, 400, "bad_chunk_size", "a chunk-size line is malformed"},
    {e::chunk_size_overflow, 400, "chunk_size_overflow", "a chunk size does not fit in 64 bits"},
    {e::bad_chunk_end, 400, "bad_chunk_end", "chunk data is not followed by CRLF"},
    {e::start_line_too_long, 414, "start_line_too_long", "the request line is too long"},
    {e::head_too_large, 431, "head_too_large", "the header section is too large"},
    {e::too_many_fields, 431, "too_many_fields", "too many header fields"},
    {e::body_too_large, 413, "body_too_large", "the body is too large"},
};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < std::size(rows); ++i) {
    if (static_cast<std::size_t>(rows[i].error) != i) return false;
  }
  return true;
}
static_assert(in_enum_order() && std::size(rows) == static_cast<std::size_t>(e::body_too_large) + 1,
              "one row per parse_error, in the order of the enum");

constexpr error_row unknown{e::none, 400, "unknown", "unknown parse error"};

const error_row& row(parse_error error) {
  const auto i = static_cast<std::size_t>(error);
  return i < std::size(rows) ? rows[i] : unknown;
}

}  // namespace

int status_for(parse_error error) { return row(error).status; }

std::string_view reason_phrase(int status) {
  switch (status) {  // RFC 9110, section 15
  case 100: return "Continue";
  case 101: return "Switching Protocols";
  case 200: return "OK";
  case 201: return "Created";
  case 202: return "Accepted";
  case 203: return "Non-Authoritative Information";
  case 204: return "No Content";
  case 205: return "Reset Content";
  case 206: return "Partial Content";
  case 300: return "Multiple Choices";
  case 301: return "Moved Permanently";
  case 302: return "Found";
  case 303: return "See Other";
  case 304: return "Not Modified";
  case 307: return "Temporary Redirect";
  case 308: return "Permanent Redirect";
  case 400: return "Bad Request";
  case 401: return "Unauthorized";
  case 403: return "Forbidden";
  case 404: return "Not Found";
  case 405: return "Method Not Allowed";
  case 406: return "Not Acceptable";
  case 408: return "Request Timeout";
  case 409: return "Conflict";
  case 410: return "Gone";
  case 411: return "Length Required";
  case 412: return "Precondition Failed";
  case 413: return "Content Too Large";
  case 414: return "URI Too Long";
  case 415: return "Unsupported Media Type";
  case 416: return "Range Not Satisfiable";
  case 417: return "Expectation Failed";
  case 421: return "Misdirected Request";
  case 422: return "Unprocessable Content";
  case 426: return "Upgrade Required";
  case 429: return "Too Many Requests";
  case 431: return "Request Header Fields Too Large";
  case 500: return "Internal Server Error";
  case 501: return "Not Implemented";
  case 502: return "Bad Gateway";
  case 503: return "Service Unavailable";
  case 504: return "Gateway Timeout";
  case 505: return "HTTP Version Not Supported";
  default: return "";
  }
}

std::string_view describe(parse_error error) { return row(error).text; }

std::string_view name_of(parse_error error) { return row(error).name; }

}  // namespace rdv::http
