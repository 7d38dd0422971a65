#pragma once
/// \file
/// Chapter 9: the chapters of the course as resources — `/chapters` and
/// `/chapters/NN` — each offered as JSON and as XML.

#include "chapter_catalog.hpp"
#include "resource.hpp"

namespace rdv::rest {

/// `/chapters` (GET, HEAD, OPTIONS) lists the chapters; `/chapters/NN`
/// (GET, HEAD, PUT, OPTIONS) is one chapter, whose status a client may set
/// with a PUT in either representation.
class chapters_resource : public resource {
public:
  std::vector<std::string_view> allowed(std::string_view path) const override;
  std::vector<std::string_view> methods(std::string_view prefix) const override;
  std::vector<std::string_view> representations(std::string_view path) const override;
  web::response respond(web::request& request, std::string_view path,
                        std::string_view media_type) override;

  /// The catalog this resource serves.
  const chapter_catalog& catalog() const { return catalog_; }

private:
  chapter_catalog catalog_;
};

}  // namespace rdv::rest
