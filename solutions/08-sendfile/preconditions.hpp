#pragma once
/// \file
/// Chapter 8: conditional requests (RFC 9110 §13) — validators, and whether
/// a request's preconditions let the server send the file, say "not
/// modified", or refuse.

#include "http_fields.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace rdv::http {

/// What identifies one version of a file's contents.
struct validators {
  std::string etag;                          ///< a strong entity tag, quotes included
  std::chrono::sys_seconds last_modified{};  ///< the modification time, to the second
};

/// The conditional header fields of a request (each absent or its value).
struct conditions {
  std::optional<std::string_view> if_match{};             ///< If-Match
  std::optional<std::string_view> if_none_match{};        ///< If-None-Match
  std::optional<std::string_view> if_modified_since{};    ///< If-Modified-Since
  std::optional<std::string_view> if_unmodified_since{};  ///< If-Unmodified-Since
  std::optional<std::string_view> if_range{};             ///< If-Range

  /// The conditional fields among `fields`.
  static conditions of(const field_list& fields);
};

/// Whether the entity-tag list `list` (an If-None-Match value: `*`, or
/// `"a", W/"b"`) matches `etag` by the weak comparison: equal opaque tags,
/// whether either is marked weak or not.
bool weak_match(std::string_view list, std::string_view etag);

/// Whether `list` (an If-Match value) matches `etag` by the strong comparison:
/// equal opaque tags, neither marked weak. `*` matches any current file.
bool strong_match(std::string_view list, std::string_view etag);

// [precondition]
/// What the preconditions of a request say.
enum class precondition {
  proceed,       ///< send the file (or the range asked for)
  not_modified,  ///< 304: the client's copy is current
  failed,        ///< 412: a precondition is false
};

/// Evaluates `c` against the file's current `v` in the order of RFC 9110
/// §13.2.2: If-Match, else If-Unmodified-Since (412 when false); then
/// If-None-Match, for any method: when it matches, 304 to GET and HEAD
/// (`get_or_head`) and 412 to the others; else If-Modified-Since, for GET and
/// HEAD only, 304 when the client's copy is current. A date that does not
/// parse is ignored, as the RFC says.
precondition evaluate(const conditions& c, bool get_or_head, const validators& v);

/// Whether a Range field may be honoured given If-Range: yes without one;
/// with an entity tag, when it strongly matches; with a date, when it equals
/// the Last-Modified date. Otherwise the client's partial copy is stale and
/// it gets the whole file.
bool range_still_applies(const conditions& c, const validators& v);
// [precondition]

}  // namespace rdv::http
