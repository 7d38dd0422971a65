#pragma once
/// \file
/// Chapter 8: from a request target to a path beneath the server's root,
/// refusing every spelling of "somewhere else".

#include <string>
#include <string_view>

namespace rdv::files {

// [local_path]
/// What a request target names beneath the root, or why it names nothing.
struct local_path {
  int status = 0;               ///< 0 when the path may be opened; else 400 or 403
  std::string relative;         ///< decoded segments joined by '/', no leading '/'; "" is the root
  bool trailing_slash = false;  ///< the target's path ended with '/' or '/.' (asks for a directory)
  std::string_view why;         ///< for a refusal: one sentence on what was wrong
};

/// Turns a request target (`/docs/a%20b.html?x=1`, or the absolute form
/// `http://host/docs/`) into a path relative to the root. The query is
/// dropped. Each segment between slashes is percent-decoded exactly once, and
/// the target is refused when a segment
/// - has a `%` not followed by two hexadecimal digits, or decodes to a NUL
///   byte: 400, it cannot be a file name;
/// - decodes to `..`, or holds an encoded slash (`%2f`): 403, it would leave
///   the root or hide a separator from this check.
///
/// Empty and `.` segments are skipped, so `//etc/passwd` is `etc/passwd`
/// *inside* the root. A path whose last segment is empty or `.` asks for a
/// directory (`trailing_slash`).
local_path local_path_for(std::string_view target);

// [directory_target]
/// The target, from the root, of the directory that `p` names, ending in
/// '/': its segments percent-encoded again wherever they hold more than
/// RFC 3986 lets a segment hold as it is. Only a path, never a host: what a
/// redirect may send, whatever the request's target looked like
/// (`//evil.example/x`, `http://evil.example/x` or `/\evil.example`).
std::string directory_target(const local_path& p);
// [directory_target]
// [local_path]

}  // namespace rdv::files
