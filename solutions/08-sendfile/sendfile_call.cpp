// The three sendfile(2) signatures Yaws's sendfile driver supported. Only
// the one of the system at hand is compiled (this course builds on Linux);
// the others are kept as their manual pages describe them.
#include "sendfile_call.hpp"

#include <algorithm>
#include <cerrno>

#if defined(__linux__)
#include <sys/sendfile.h>

namespace rdv::files {

//! [linux]
sendfile_result sendfile_some(int socket, int file, std::uint64_t offset,
                              std::size_t count) noexcept {
  // ssize_t sendfile(int out_fd, int in_fd, off_t *offset, size_t count);
  // Linux moves at most 0x7ffff000 bytes per call; the offset is updated in
  // `at`, not in the file.
  off_t at = static_cast<off_t>(offset);
  const ssize_t n = ::sendfile(socket, file, &at, std::min<std::size_t>(count, 0x7ffff000));
  if (n < 0) return {0, errno};
  return {static_cast<std::size_t>(n), 0};
}
//! [linux]

}  // namespace rdv::files

#elif defined(__FreeBSD__)
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

namespace rdv::files {

//! [freebsd]
sendfile_result sendfile_some(int socket, int file, std::uint64_t offset,
                              std::size_t count) noexcept {
  // int sendfile(int fd, int s, off_t offset, size_t nbytes,
  //              struct sf_hdtr *hdtr, off_t *sbytes, int flags);
  // The file comes first; nbytes == 0 would mean "to the end of the file";
  // on a non-blocking socket it may fail with EAGAIN after sending *sbytes.
  off_t sent = 0;
  const int rc = ::sendfile(file, socket, static_cast<off_t>(offset), count, nullptr, &sent, 0);
  return {static_cast<std::size_t>(sent), rc == 0 ? 0 : errno};
}
//! [freebsd]

}  // namespace rdv::files

#elif defined(__APPLE__)
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

namespace rdv::files {

//! [macos]
sendfile_result sendfile_some(int socket, int file, std::uint64_t offset,
                              std::size_t count) noexcept {
  // int sendfile(int fd, int s, off_t offset, off_t *len,
  //              struct sf_hdtr *hdtr, int flags);
  // *len is both what to send (0 would mean "to the end") and what was sent,
  // also when it fails with EAGAIN or EINTR.
  off_t length = static_cast<off_t>(count);
  const int rc = ::sendfile(file, socket, static_cast<off_t>(offset), &length, nullptr, 0);
  return {static_cast<std::size_t>(length), rc == 0 ? 0 : errno};
}
//! [macos]

}  // namespace rdv::files

#else
#error "sendfile_some: no sendfile(2) for this system; use the read/write path (--no-sendfile)"
#endif
