#include "chapters_resource.hpp"

#include "http_fields.hpp"

namespace rdv::rest {

namespace {

constexpr std::string_view collection = "/chapters";
constexpr std::string_view json = "application/json";
constexpr std::string_view xml = "application/xml";

// "03" for "/chapters/03"; "" for the collection.
std::string_view number_in(std::string_view path) {
  return path.size() > collection.size() ? path.substr(collection.size() + 1) : std::string_view{};
}

// Whether a Content-Type field value names `type` ("application/json; charset=utf-8" does).
bool is_type(std::string_view content_type, std::string_view type) {
  const auto end = content_type.find_first_of("; \t");
  return http::iequals(content_type.substr(0, end), type);
}

}  // namespace

std::vector<std::string_view> chapters_resource::allowed(std::string_view path) const {
  if (path == collection) return {"GET", "HEAD", "OPTIONS"};
  if (catalog_.find(number_in(path)) != nullptr) return {"GET", "HEAD", "PUT", "OPTIONS"};
  return {};
}

std::vector<std::string_view> chapters_resource::methods(std::string_view) const {
  return {"GET", "HEAD", "PUT", "OPTIONS"};  // PUT on a chapter
}

std::vector<std::string_view> chapters_resource::representations(std::string_view) const {
  return {json, xml};  // one resource, two representations: the client chooses
}

//! [respond]
web::response chapters_resource::respond(web::request& request, std::string_view path,
                                         std::string_view media_type) {
  const auto number = number_in(path);
  if (request.head.method == "PUT") {
    // The new status comes in either representation, named by Content-Type.
    const auto type = request.head.fields.find("Content-Type").value_or("");
    std::optional<std::string> status;
    if (is_type(type, json)) {
      status = status_from_json(request.body);
    } else if (is_type(type, xml)) {
      status = status_from_xml(request.body);
    } else {
      return web::text_response(415, "send application/json or application/xml\n");
    }
    if (!status) return web::text_response(400, "expected a status of todo, doing or done\n");
    catalog_.set_status(number, *status);
  }
  web::response r;
  if (number.empty()) {
    r.body = media_type == json ? to_json(catalog_.all()) : to_xml(catalog_.all());
  } else {
    const chapter& c = *catalog_.find(number);
    r.body = media_type == json ? to_json(c) : to_xml(c);
  }
  return r;
}
//! [respond]

}  // namespace rdv::rest
