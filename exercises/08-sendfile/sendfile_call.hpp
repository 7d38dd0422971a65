#pragma once
/// \file
/// Chapter 8: one call of the system's sendfile(2), the same on Linux,
/// FreeBSD and macOS from the caller's side.

#include <cstddef>
#include <cstdint>

namespace rdv::files {

/// What one sendfile call did.
struct sendfile_result {
  std::size_t sent = 0;  ///< bytes handed to the socket (also when error is set)
  int error = 0;         ///< errno: 0, or EAGAIN (socket buffer full), EINTR, ...
};

/// Sends up to `count` bytes (count > 0) of `file`, from `offset`, to the
/// non-blocking socket `socket`, without copying them through user space,
/// and without moving the file's offset. Sends fewer when the socket's
/// buffer fills (or, on BSD, when a signal arrives), and reports EAGAIN with
/// `sent` = 0 — on FreeBSD and macOS also with `sent` > 0 — when it is full.
/// Returns sent = 0 and no error at the end of the file.
sendfile_result sendfile_some(int socket, int file, std::uint64_t offset,
                              std::size_t count) noexcept;

}  // namespace rdv::files
