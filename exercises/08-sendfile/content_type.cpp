#include "content_type.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace rdv::files {

namespace {

// Sorted by extension, for a binary search. What the book's pages use, and
// what a small site is made of; a real server reads /etc/mime.types.
constexpr std::array<std::pair<std::string_view, std::string_view>, 27> types{{
    {"avif", "image/avif"},
    {"css", "text/css; charset=utf-8"},
    {"csv", "text/csv; charset=utf-8"},
    {"gif", "image/gif"},
    {"gz", "application/gzip"},
    {"htm", "text/html; charset=utf-8"},
    {"html", "text/html; charset=utf-8"},
    {"ico", "image/vnd.microsoft.icon"},
    {"jpeg", "image/jpeg"},
    {"jpg", "image/jpeg"},
    {"js", "text/javascript; charset=utf-8"},
    {"json", "application/json"},
    {"map", "application/json"},
    {"md", "text/markdown; charset=utf-8"},
    {"mjs", "text/javascript; charset=utf-8"},
    {"mp4", "video/mp4"},
    {"pdf", "application/pdf"},
    {"png", "image/png"},
    {"svg", "image/svg+xml"},
    {"tar", "application/x-tar"},
    {"txt", "text/plain; charset=utf-8"},
    {"wasm", "application/wasm"},
    {"webp", "image/webp"},
    {"woff", "font/woff"},
    {"woff2", "font/woff2"},
    {"xml", "application/xml"},
    {"zip", "application/zip"},
}};

static_assert(std::is_sorted(types.begin(), types.end()), "keep the table sorted");

}  // namespace

std::string_view content_type_for(std::string_view name) {
  constexpr std::string_view unknown = "application/octet-stream";
  const auto slash = name.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? name : name.substr(slash + 1);
  const auto dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || base.size() - dot - 1 > 8) return unknown;
  char lower[8];  // the longest extension in the table fits
  const std::string_view ext = base.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), lower, [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  });
  const std::string_view key(lower, ext.size());
  const auto found =
      std::lower_bound(types.begin(), types.end(), key,
                       [](const auto& entry, std::string_view k) { return entry.first < k; });
  return found != types.end() && found->first == key ? found->second : unknown;
}

}  // namespace rdv::files
