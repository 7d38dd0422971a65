#include "media_type.hpp"

#include "http_lines.hpp"

#include <algorithm>

namespace rdv::rest {

namespace {

// A token (RFC 9110, section 5.6.2), such as a type or a parameter name.
bool is_token(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), http::is_tchar);
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; });
  return out;
}

// A parameter value: a token, or a quoted-string (returned without its quotes).
bool parse_value(std::string_view text, std::string& out) {
  if (is_token(text)) {
    out = text;
    return true;
  }
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return false;
  out.clear();
  for (std::size_t i = 1; i + 1 < text.size(); ++i) {
    if (text[i] == '\\' && i + 2 < text.size())
      ++i;  // quoted-pair
    else if (text[i] == '"')
      return false;
    out += text[i];
  }
  return true;
}

}  // namespace

int media_range::specificity() const {
  if (type == "*") return 0;
  if (subtype == "*") return 1;
  return parameters.empty() ? 2 : 3;
}

//! [parse_quality]
bool parse_quality(std::string_view text, quality& out) {
  // EXERCISE ch09.1: read a qvalue into thousandths
  // HINT: A qvalue is "0" or "1", optionally followed by a dot and at most
  //       three digits. Which digits may follow a leading "1"?
  // HINT: Work in thousandths, not floating point: "0.5" is 500, "0.05" is 50.
  // STUB: (void)text; (void)out;
  if (text.empty() || (text[0] != '0' && text[0] != '1')) return false;
  if (text.size() > 1 && (text[1] != '.' || text.size() > 5)) return false;
  quality value = text[0] == '1' ? best : 0;
  int scale = 100;
  for (const char c : text.substr(std::min<std::size_t>(2, text.size()))) {
    if (c < '0' || c > '9' || (text[0] == '1' && c != '0')) return false;
    value += (c - '0') * scale;
    scale /= 10;
  }
  out = value;
  return true;
  // END EXERCISE
}
//! [parse_quality]

bool parse_media_range(std::string_view text, media_range& out) {
  out = media_range{};
  const auto semicolon = text.find(';');
  const auto type_and_subtype = http::trim_ows(text.substr(0, semicolon));
  const auto slash = type_and_subtype.find('/');
  if (slash == std::string_view::npos) return false;
  const auto type = type_and_subtype.substr(0, slash);
  const auto subtype = type_and_subtype.substr(slash + 1);
  if (!is_token(type) || !is_token(subtype) || (type == "*" && subtype != "*")) return false;
  out.type = lowercase(type);
  out.subtype = lowercase(subtype);
  bool after_q = false;  // parameters after q are accept-extensions: ignored
  for (auto rest = semicolon == std::string_view::npos ? std::string_view{}
                                                       : text.substr(semicolon + 1);
       !rest.empty();) {
    const auto end = std::min(rest.find(';'), rest.size());
    const auto parameter = http::trim_ows(rest.substr(0, end));
    rest = end < rest.size() ? rest.substr(end + 1) : std::string_view{};
    if (parameter.empty()) continue;
    const auto equals = parameter.find('=');
    if (equals == std::string_view::npos || !is_token(parameter.substr(0, equals))) return false;
    const auto name = lowercase(parameter.substr(0, equals));
    std::string value;
    if (!parse_value(parameter.substr(equals + 1), value)) return false;
    if (name == "q" && !after_q) {
      if (!parse_quality(value, out.weight)) return false;
      after_q = true;
    } else if (!after_q) {
      out.parameters.emplace_back(name, value);
    }
  }
  return true;
}

accept_list parse_accept(std::string_view value) {
  accept_list list;
  http::any_element(value, [&list](std::string_view element) {  // "a, , b": two elements
    media_range range;
    if (parse_media_range(element, range)) {
      list.ranges.push_back(std::move(range));
    } else {
      list.malformed = true;
    }
    return false;  // all of them
  });
  return list;
}

media_type media_type::of(std::string_view text) {
  const auto slash = text.find('/');
  return {text.substr(0, slash), slash == std::string_view::npos ? "" : text.substr(slash + 1)};
}

}  // namespace rdv::rest
