#include "http_parser_peer.hpp"

#include <http_parser.h>

namespace rdv::test {

namespace {

// Collects http-parser's callbacks into parsed_request values.
struct collector {
  peer_outcome out;
  parsed_request current;
  bool in_message = false, in_trailers = false, last_was_value = false;

  static collector& of(http_parser* p) { return *static_cast<collector*>(p->data); }
  auto& fields() { return in_trailers ? current.trailers : current.fields; }
};

int on_message_begin(http_parser* p) {
  auto& c = collector::of(p);
  c.current = {};
  c.in_message = true;
  c.in_trailers = c.last_was_value = false;
  return 0;
}

int on_url(http_parser* p, const char* at, std::size_t size) {
  collector::of(p).current.target.append(at, size);
  return 0;
}

int on_header_field(http_parser* p, const char* at, std::size_t size) {
  auto& c = collector::of(p);
  if (c.fields().empty() || c.last_was_value) c.fields().emplace_back();
  c.fields().back().first.append(at, size);
  c.last_was_value = false;
  return 0;
}

int on_header_value(http_parser* p, const char* at, std::size_t size) {
  auto& c = collector::of(p);
  c.fields().back().second.append(at, size);
  c.last_was_value = true;
  return 0;
}

int on_headers_complete(http_parser* p) {
  auto& c = collector::of(p);
  c.current.method = http_method_str(static_cast<http_method>(p->method));
  c.current.version = p->http_major * 10 + p->http_minor;
  c.current.keep_alive = http_should_keep_alive(p) != 0;
  c.in_trailers = true;  // any header callback from now on is a trailer
  c.last_was_value = false;
  return 0;
}

int on_body(http_parser* p, const char* at, std::size_t size) {
  collector::of(p).current.body.append(at, size);
  return 0;
}

int on_message_complete(http_parser* p) {
  auto& c = collector::of(p);
  c.out.requests.push_back(std::move(c.current));
  c.in_message = false;
  return 0;
}

}  // namespace

peer_outcome parse_with_http_parser(std::string_view input) {
  http_parser_settings settings;
  http_parser_settings_init(&settings);
  settings.on_message_begin = on_message_begin;
  settings.on_url = on_url;
  settings.on_header_field = on_header_field;
  settings.on_header_value = on_header_value;
  settings.on_headers_complete = on_headers_complete;
  settings.on_body = on_body;
  settings.on_message_complete = on_message_complete;
  http_parser parser;
  http_parser_init(&parser, HTTP_REQUEST);
  collector c;
  parser.data = &c;
  http_parser_execute(&parser, &settings, input.data(), input.size());
  if (HTTP_PARSER_ERRNO(&parser) != HPE_OK) {
    c.out.error = http_errno_name(HTTP_PARSER_ERRNO(&parser));
  } else {
    c.out.incomplete = c.in_message;
  }
  return std::move(c.out);
}

std::string comparable(const parse_outcome& ours) {
  std::string out;
  for (const auto& r : ours.requests) out += (out.empty() ? "" : " || ") + summary(r);
  if (ours.error != http::parse_error::none)
    out += (out.empty() ? "" : " || ") + std::string("rejected");
  else if (ours.incomplete)
    out += (out.empty() ? "" : " || ") + std::string("incomplete");
  return out;
}

std::string comparable(const peer_outcome& theirs) {
  std::string out;
  for (const auto& r : theirs.requests) out += (out.empty() ? "" : " || ") + summary(r);
  if (!theirs.error.empty())
    out += (out.empty() ? "" : " || ") + std::string("rejected");
  else if (theirs.incomplete)
    out += (out.empty() ? "" : " || ") + std::string("incomplete");
  return out;
}

}  // namespace rdv::test
