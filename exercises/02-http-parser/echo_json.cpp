#include "echo_json.hpp"

#include <boost/json/array.hpp>

namespace rdv::echo {

namespace json = boost::json;

namespace {

// Text for JSON: HTTP allows bytes 0x80-0xFF (obs-text) in field values,
// which were historically ISO-8859-1; show them as such if they are not UTF-8.
json::string text(std::string_view bytes) {
  if (is_utf8(bytes)) return json::string(bytes);
  json::string out;
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x80) {
      out.push_back(c);
    } else {
      out.push_back(static_cast<char>(0xc0 | (b >> 6)));
      out.push_back(static_cast<char>(0x80 | (b & 0x3f)));
    }
  }
  return out;
}

json::array describe_fields(const http::field_list& fields) {
  json::array out;
  out.reserve(fields.size());
  for (const http::field f : fields) {
    out.push_back(json::object{{"name", text(f.name)}, {"value", text(f.value)}});
  }
  return out;
}

std::string_view framing_name(http::body_kind kind) {
  switch (kind) {
  case http::body_kind::none: return "none";
  case http::body_kind::length: return "content-length";
  case http::body_kind::chunked: return "chunked";
  case http::body_kind::until_close: return "until-close";
  }
  return "unknown";
}

}  // namespace

bool is_utf8(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto* const end = p + bytes.size();
  while (p != end) {
    const unsigned char b = *p++;
    if (b < 0x80) continue;
    int more = 0;
    unsigned min = 0, code = 0;
    if ((b & 0xe0) == 0xc0)
      more = 1, min = 0x80, code = b & 0x1f;
    else if ((b & 0xf0) == 0xe0)
      more = 2, min = 0x800, code = b & 0x0f;
    else if ((b & 0xf8) == 0xf0)
      more = 3, min = 0x10000, code = b & 0x07;
    else
      return false;  // a continuation byte, or 0xf8-0xff
    if (end - p < more) return false;
    for (; more > 0; --more, ++p) {
      if ((*p & 0xc0) != 0x80) return false;
      code = code << 6 | (*p & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
  }
  return true;
}

std::string base64(std::string_view bytes) {
  static constexpr char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    unsigned group = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      group = group << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    }
    for (std::size_t k = 0; k < 4; ++k) {
      out.push_back(k <= n ? alphabet[(group >> (18 - 6 * k)) & 0x3f] : '=');
    }
  }
  return out;
}

//! [describe_head]
json::object describe_head(const http::request_head& head, const http::framing& framing) {
  return {
      {"method", text(head.method)},
      {"target", text(head.target)},
      {"version", head.version == 10 ? "HTTP/1.0" : "HTTP/1." + std::to_string(head.version - 10)},
      {"fields", describe_fields(head.fields)},
      {"framing", framing_name(framing.kind)},
  };
}
//! [describe_head]

void describe_body(json::object& description, std::string_view body,
                   const http::field_list& trailers) {
  const bool utf8 = is_utf8(body);
  description["body"] = utf8 ? json::string(body) : json::string(base64(body));
  description["body_encoding"] = utf8 ? "utf-8" : "base64";
  description["body_size"] = body.size();
  description["trailers"] = describe_fields(trailers);
}

json::object describe_error(http::parse_error error) {
  return {{"error", http::name_of(error)},
          {"status", http::status_for(error)},
          {"reason", http::describe(error)}};
}

}  // namespace rdv::echo
