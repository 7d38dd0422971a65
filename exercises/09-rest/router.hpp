#pragma once
/// \file
/// Chapter 9: handlers mounted at path prefixes, and what HTTP asks of every
/// resource: OPTIONS, 405 with Allow, content negotiation with 406 and Vary.

#include "resource.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rdv::rest {

/// Sends each request to the resource mounted at the longest prefix of its
/// path, after the checks every resource shares.
class router {
public:
  /// Mounts `r` at `prefix` ("/chapters"): it gets `/chapters` and
  /// `/chapters/...`, with the path relative to nothing (the whole path).
  void mount(std::string prefix, std::shared_ptr<resource> r);

  /// Answers one request (a chapter 7 handler): `OPTIONS *` for the whole
  /// server, else the mounted resource's answer, or 404, 405, 406.
  web::response handle(web::request& request);

  /// The methods some path of some mounted resource allows, for `OPTIONS *`.
  std::vector<std::string_view> server_methods() const;

private:
  resource* find(std::string_view path) const;
  std::vector<std::pair<std::string, std::shared_ptr<resource>>> mounts_;
};

/// The path of a request target, without its query ("/a/b?x=1" gives "/a/b").
std::string_view path_of(std::string_view target);

/// `methods` joined for an Allow field: "GET, HEAD, OPTIONS".
std::string allow_field(const std::vector<std::string_view>& methods);

}  // namespace rdv::rest
