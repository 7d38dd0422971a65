#include "parse_error.hpp"

namespace rdv::http {

int status_for(parse_error error) {
  switch (error) {
  case parse_error::none: return 200;
  case parse_error::version_not_supported: return 505;
  case parse_error::unknown_transfer_coding: return 501;
  case parse_error::start_line_too_long: return 414;
  case parse_error::head_too_large:
  case parse_error::too_many_fields: return 431;
  case parse_error::body_too_large: return 413;
  default: return 400;
  }
}

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

std::string_view describe(parse_error error) {
  switch (error) {
  case parse_error::none: return "no error";
  case parse_error::bad_request_line: return "the request line is not METHOD SP TARGET SP VERSION";
  case parse_error::bad_method: return "the method is not a token";
  case parse_error::bad_target: return "the request-target is empty or malformed";
  case parse_error::bad_version: return "the HTTP version is malformed";
  case parse_error::version_not_supported: return "only HTTP/1.x is supported";
  case parse_error::bad_status_line: return "the status line is malformed";
  case parse_error::bare_cr: return "a CR is not followed by LF";
  case parse_error::bare_lf: return "a line ends with LF instead of CRLF";
  case parse_error::control_character: return "a line holds a control character";
  case parse_error::obs_fold: return "a field line is folded (starts with whitespace)";
  case parse_error::bad_field_name: return "a field name is empty or not a token";
  case parse_error::space_before_colon: return "whitespace between a field name and its colon";
  case parse_error::missing_host: return "an HTTP/1.1 request needs a Host field";
  case parse_error::duplicate_host: return "more than one Host field";
  case parse_error::bad_content_length: return "Content-Length is not a valid number";
  case parse_error::conflicting_content_length: return "Content-Length values differ";
  case parse_error::length_and_transfer_encoding:
    return "both Content-Length and Transfer-Encoding";
  case parse_error::bad_transfer_encoding: return "chunked must be the last transfer coding, once";
  case parse_error::unknown_transfer_coding: return "a transfer coding other than chunked";
  case parse_error::bad_chunk_size: return "a chunk-size line is malformed";
  case parse_error::chunk_size_overflow: return "a chunk size does not fit in 64 bits";
  case parse_error::bad_chunk_end: return "chunk data is not followed by CRLF";
  case parse_error::start_line_too_long: return "the request line is too long";
  case parse_error::head_too_large: return "the header section is too large";
  case parse_error::too_many_fields: return "too many header fields";
  case parse_error::body_too_large: return "the body is too large";
  }
  return "unknown parse error";
}

std::string_view name_of(parse_error error) {
  using e = parse_error;
  switch (error) {
  case e::none: return "none";
  case e::bad_request_line: return "bad_request_line";
  case e::bad_method: return "bad_method";
  case e::bad_target: return "bad_target";
  case e::bad_version: return "bad_version";
  case e::version_not_supported: return "version_not_supported";
  case e::bad_status_line: return "bad_status_line";
  case e::bare_cr: return "bare_cr";
  case e::bare_lf: return "bare_lf";
  case e::control_character: return "control_character";
  case e::obs_fold: return "obs_fold";
  case e::bad_field_name: return "bad_field_name";
  case e::space_before_colon: return "space_before_colon";
  case e::missing_host: return "missing_host";
  case e::duplicate_host: return "duplicate_host";
  case e::bad_content_length: return "bad_content_length";
  case e::conflicting_content_length: return "conflicting_content_length";
  case e::length_and_transfer_encoding: return "length_and_transfer_encoding";
  case e::bad_transfer_encoding: return "bad_transfer_encoding";
  case e::unknown_transfer_coding: return "unknown_transfer_coding";
  case e::bad_chunk_size: return "bad_chunk_size";
  case e::chunk_size_overflow: return "chunk_size_overflow";
  case e::bad_chunk_end: return "bad_chunk_end";
  case e::start_line_too_long: return "start_line_too_long";
  case e::head_too_large: return "head_too_large";
  case e::too_many_fields: return "too_many_fields";
  case e::body_too_large: return "body_too_large";
  }
  return "unknown";
}

}  // namespace rdv::http
