#include "chapter_catalog.hpp"

#include <boost/json.hpp>
#include <pugixml.hpp>

#include <algorithm>
#include <array>
#include <sstream>

namespace rdv::rest {

namespace {

std::string href(const chapter& c) { return "/chapters/" + c.number; }

boost::json::object json_of(const chapter& c) {
  return {{"number", c.number}, {"title", c.title}, {"status", c.status}, {"href", href(c)}};
}

void xml_of(const chapter& c, pugi::xml_node parent) {
  auto node = parent.append_child("chapter");
  node.append_attribute("number") = c.number.c_str();
  node.append_attribute("href") = href(c).c_str();
  node.append_child("title").text() = c.title.c_str();
  node.append_child("status").text() = c.status.c_str();
}

std::string text_of(const pugi::xml_document& document) {
  std::ostringstream out;
  document.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

}  // namespace

bool is_valid_status(std::string_view status) {
  return status == "todo" || status == "doing" || status == "done";
}

chapter_catalog::chapter_catalog() {
  static constexpr std::array<std::pair<const char*, const char*>, 11> titles{{
      {"00", "Introduction"},
      {"01", "A 30-line keep-alive server"},
      {"02", "Decoding HTTP"},
      {"03", "Processes"},
      {"04", "Registered names"},
      {"05", "The ring benchmark"},
      {"06", "Timeouts, and I/O inside processes"},
      {"07", "One process per connection"},
      {"08", "Static files and sendfile"},
      {"09", "Resources and representations"},
      {"10", "The rendezvous hub"},
  }};
  for (const auto& [number, title] : titles) chapters_.push_back({number, title, "todo"});
}

const chapter* chapter_catalog::find(std::string_view number) const {
  const auto it = std::find_if(chapters_.begin(), chapters_.end(),
                               [&](const chapter& c) { return c.number == number; });
  return it == chapters_.end() ? nullptr : &*it;
}

bool chapter_catalog::set_status(std::string_view number, std::string status) {
  const auto it = std::find_if(chapters_.begin(), chapters_.end(),
                               [&](const chapter& c) { return c.number == number; });
  if (it == chapters_.end()) return false;
  it->status = std::move(status);
  return true;
}

//! [representations]
std::string to_json(const chapter& c) { return boost::json::serialize(json_of(c)); }

std::string to_json(const std::vector<chapter>& all) {
  boost::json::array items;
  for (const chapter& c : all) items.push_back(json_of(c));
  return boost::json::serialize(
      boost::json::object{{"chapters", std::move(items)}, {"href", "/chapters"}});
}

std::string to_xml(const chapter& c) {
  pugi::xml_document document;
  xml_of(c, document);
  return text_of(document);
}

std::string to_xml(const std::vector<chapter>& all) {
  pugi::xml_document document;
  auto root = document.append_child("chapters");
  root.append_attribute("href") = "/chapters";
  for (const chapter& c : all) xml_of(c, root);
  return text_of(document);
}
//! [representations]

std::optional<std::string> status_from_json(std::string_view body) {
  boost::system::error_code ec;
  const auto value = boost::json::parse(body, ec);
  if (ec || !value.is_object()) return std::nullopt;
  const auto* status = value.as_object().if_contains("status");
  if (status == nullptr || !status->is_string()) return std::nullopt;
  std::string text(status->as_string());
  if (!is_valid_status(text)) return std::nullopt;
  return text;
}

std::optional<std::string> status_from_xml(std::string_view body) {
  pugi::xml_document document;
  if (!document.load_buffer(body.data(), body.size())) return std::nullopt;
  const std::string text = document.child("chapter").child("status").text().as_string();
  if (!is_valid_status(text)) return std::nullopt;
  return text;
}

}  // namespace rdv::rest
