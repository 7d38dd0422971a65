#pragma once
/// \file
/// Chapter 9: a resource, as a handler mounted at a path prefix sees it
/// (Yaws calls such handlers "appmods").

#include "web.hpp"

#include <string_view>
#include <vector>

namespace rdv::rest {

/// The resources under one path prefix. The router does what HTTP asks of
/// every resource (405 with Allow, OPTIONS, content negotiation, 406, Vary);
/// a resource says only what it is and answers what is left.
class resource {
public:
  virtual ~resource() = default;

  /// The methods the resource at `path` allows, for example {"GET", "HEAD",
  /// "OPTIONS"}; empty when there is no resource at `path` (404).
  virtual std::vector<std::string_view> allowed(std::string_view path) const = 0;

  /// Every method that some path under `prefix`, where the resource is
  /// mounted, allows: what it adds to the server's methods (`OPTIONS *`).
  /// By default, those of `prefix` itself.
  virtual std::vector<std::string_view> methods(std::string_view prefix) const {
    return allowed(prefix);
  }

  /// The media types of the representations of `path`, in the server's
  /// order of preference, for example {"application/json", "application/xml"}.
  virtual std::vector<std::string_view> representations(std::string_view path) const = 0;

  /// Answers an allowed request other than OPTIONS, with the representation
  /// of type `media_type` chosen by negotiation. The router adds Vary, and
  /// Content-Type unless the answer has one.
  virtual web::response respond(web::request& request, std::string_view path,
                                std::string_view media_type) = 0;
};

}  // namespace rdv::rest
