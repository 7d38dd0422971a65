#pragma once
/// \file
/// Chapter 8: the directory a static server serves, and opening files
/// beneath it so that no path — through `..` or a symbolic link — escapes.

#include <boost/system/error_code.hpp>

#include <string>
#include <utility>

namespace rdv::files {

/// An open file descriptor, closed when the handle goes (move-only).
class file_handle {
public:
  /// No file.
  file_handle() = default;
  /// Takes ownership of `fd` (-1: no file).
  explicit file_handle(int fd) noexcept : fd_(fd) {}
  /// Closes the file.
  ~file_handle();
  /// Takes the file of `other`, which is left without one.
  file_handle(file_handle&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  /// Closes this file, then takes the file of `other`.
  file_handle& operator=(file_handle&& other) noexcept;

  /// The descriptor (-1 when there is no file).
  int get() const noexcept { return fd_; }
  /// Whether there is a file.
  explicit operator bool() const noexcept { return fd_ >= 0; }

private:
  int fd_ = -1;
};

// [confinement]
/// How root_directory::open() keeps paths beneath the root.
enum class confinement {
  /// openat2(2) with RESOLVE_BENEATH (Linux 5.6 and later): the kernel walks
  /// the path from the root's descriptor and fails with EXDEV as soon as any
  /// step — a `..`, an absolute path, a symbolic link — would leave it. One
  /// system call, no race.
  kernel,
  /// realpath(3) resolves every link, a prefix check refuses what lies
  /// outside, then open(2) opens the resolved name with O_NOFOLLOW. Portable,
  /// but racy: a directory renamed or replaced by a link between the check and
  /// the open is not noticed (time of check to time of use).
  realpath,
};
// [confinement]

/// The directory a server serves files from.
class root_directory {
public:
  /// Opens the directory `path` (throws std::system_error if it cannot, or
  /// if it is not a directory). With confinement::kernel on a system without
  /// openat2, it falls back to confinement::realpath: see how().
  explicit root_directory(const std::string& path, confinement how = confinement::kernel);

  /// Opens `relative` (as local_path_for() makes it: no leading '/', "" for
  /// the root itself) for reading. On failure returns no file and sets `ec`:
  /// EXDEV when the path leads outside the root, otherwise what open(2) said
  /// (ENOENT, ENOTDIR, EACCES, ELOOP, ...). When a file is not found because
  /// the root's path now names another directory (it was deleted and made
  /// again, as a rebuilt book is), it opens that one and tries again. Not
  /// for use from several threads at once.
  file_handle open(const std::string& relative, boost::system::error_code& ec) const;

  /// The root's canonical path (symbolic links resolved).
  const std::string& path() const noexcept { return real_path_; }
  /// The descriptor open on the root now (see open() for when it changes).
  int descriptor() const noexcept { return directory_.get(); }
  /// The confinement in use.
  confinement how() const noexcept { return how_; }

private:
  file_handle open_kernel(const std::string& relative, boost::system::error_code& ec) const;
  file_handle open_realpath(const std::string& relative, boost::system::error_code& ec) const;

  bool replaced() const;  // the path names another directory than directory_

  mutable file_handle directory_;  // reopened when replaced()
  std::string real_path_;
  confinement how_;
};

}  // namespace rdv::files
