#include "parse_driver.hpp"

namespace rdv::test {

namespace {

std::vector<std::pair<std::string, std::string>> copy(const http::field_list& fields) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const http::field f : fields) out.emplace_back(f.name, f.value);
  return out;
}

}  // namespace

parse_outcome parse_in_pieces(std::string_view input, const std::vector<std::size_t>& cuts,
                              const http::limits& limits) {
  parse_outcome out;
  http::request_parser parser(limits);
  std::string unused;  // received and not yet used, as a server keeps it
  parsed_request current;
  bool in_request = false;
  std::size_t from = 0;
  for (std::size_t i = 0; i <= cuts.size(); ++i) {
    const std::size_t to = i < cuts.size() ? cuts[i] : input.size();
    unused += input.substr(from, to - from);
    from = to;
    for (std::size_t calls = 0;; ++calls) {
      if (calls > 4 * input.size() + 16) {
        out.trouble = "the parser makes no progress";
        return out;
      }
      const std::vector<char> fresh(unused.begin(), unused.end());  // a new address every call
      const http::step s = parser.next({fresh.data(), fresh.size()});
      if (s.used > fresh.size()) {
        out.trouble = "a step used more bytes than it was given";
        return out;
      }
      switch (s.what) {
      case http::event::need_more: break;
      case http::event::head:
        current = {std::string(parser.head().method),
                   std::string(parser.head().target),
                   parser.head().version,
                   copy(parser.head().fields),
                   {},
                   {},
                   http::keeps_alive(parser.head())};
        in_request = true;
        break;
      case http::event::body:
        if (s.data.empty()) out.trouble = "an empty body piece";
        current.body += s.data;
        break;
      case http::event::end:
        current.trailers = copy(parser.trailers());
        out.requests.push_back(std::move(current));
        in_request = false;
        break;
      case http::event::error: out.error = parser.error(); return out;
      }
      unused.erase(0, s.used);
      if (s.what == http::event::need_more) break;
    }
  }
  out.incomplete = in_request || unused.find_first_not_of("\r\n") != std::string::npos;
  return out;
}

std::string summary(const parsed_request& r) {
  std::string out = r.method + ' ' + r.target + " HTTP/" + std::to_string(r.version / 10) + '.' +
                    std::to_string(r.version % 10);
  for (const auto& [name, value] : r.fields) out += " [" + name + ": " + value + ']';
  if (!r.body.empty()) out += " body=<" + r.body + '>';
  for (const auto& [name, value] : r.trailers) out += " trailer[" + name + ": " + value + ']';
  return out;
}

std::string summary(const parse_outcome& outcome) {
  std::string out;
  for (const auto& r : outcome.requests) out += (out.empty() ? "" : " || ") + summary(r);
  if (outcome.error != http::parse_error::none) {
    out += (out.empty() ? "" : " || ") + error_name(outcome.error);
  } else if (outcome.incomplete) {
    out += (out.empty() ? "" : " || ") + std::string("incomplete");
  }
  if (!outcome.trouble.empty()) out += " !! " + outcome.trouble;
  return out;
}

std::string error_name(http::parse_error error) { return std::string(http::name_of(error)); }

}  // namespace rdv::test
