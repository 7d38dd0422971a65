#include "root_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/openat2.h>  // struct open_how, RESOLVE_BENEATH
#include <sys/syscall.h>
#endif

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <memory>
#include <system_error>

namespace rdv::files {

namespace {

// How every file is opened: read-only, not inherited by child processes, and
// without blocking (opening a FIFO for reading would otherwise wait for a writer).
constexpr int open_flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;

boost::system::error_code from_errno(int error) {
  return {error, boost::system::system_category()};
}

}  // namespace

file_handle::~file_handle() {
  if (fd_ >= 0) ::close(fd_);
}

file_handle& file_handle::operator=(file_handle&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

root_directory::root_directory(const std::string& path, confinement how) : how_(how) {
  const std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr),
                                                         &std::free);
  if (!real) throw std::system_error(errno, std::system_category(), "the root " + path);
  real_path_ = real.get();
  directory_ = file_handle(::open(real_path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!directory_) throw std::system_error(errno, std::system_category(), "the root " + path);
  if (how_ == confinement::kernel) {
    // Is openat2 there? Old kernels say ENOSYS, and some sandboxes EPERM.
    boost::system::error_code ec;
    open_kernel("", ec);
    if (ec == boost::system::errc::function_not_supported ||
        ec == boost::system::errc::operation_not_permitted) {
      how_ = confinement::realpath;
    }
  }
}

file_handle root_directory::open(const std::string& relative, boost::system::error_code& ec) const {
  for (int attempt = 0;; ++attempt) {
    ec.clear();
    file_handle file =
        how_ == confinement::kernel ? open_kernel(relative, ec) : open_realpath(relative, ec);
    if (ec != boost::system::errc::no_such_file_or_directory || attempt > 0 || !replaced())
      return file;
    if (file_handle again(::open(real_path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)); again) {
      directory_ = std::move(again);
    }
  }
}

bool root_directory::replaced() const {
  struct stat named{}, held{};
  return ::stat(real_path_.c_str(), &named) == 0 && ::fstat(directory_.get(), &held) == 0 &&
         (named.st_ino != held.st_ino || named.st_dev != held.st_dev);
}

//! [open_kernel]
file_handle root_directory::open_kernel(const std::string& relative,
                                        boost::system::error_code& ec) const {
#if defined(__linux__) && defined(RESOLVE_BENEATH)
  // EXERCISE ch08.2: open the file with openat2, beneath the root's descriptor
  // HINT: glibc has no wrapper for openat2: syscall(SYS_openat2, dirfd,
  //       pathname, &how, sizeof how). What goes in `how`'s flags and resolve?
  // HINT: What name opens the root itself, when `relative` is empty? And
  //       which errno says "that would leave the root"?
  // STUB: (void)relative; (void)ec; (void)open_flags; (void)from_errno;
  open_how how{};
  how.flags = open_flags;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  const char* name = relative.empty() ? "." : relative.c_str();
  const long fd = ::syscall(SYS_openat2, directory_.get(), name, &how, sizeof how);
  if (fd < 0) {
    ec = from_errno(errno);
    return {};
  }
  return file_handle(static_cast<int>(fd));
  // END EXERCISE
#else
  (void)relative;
  ec = from_errno(ENOSYS);
  return {};
#endif
}
//! [open_kernel]

//! [open_realpath]
file_handle root_directory::open_realpath(const std::string& relative,
                                          boost::system::error_code& ec) const {
  const std::string full = relative.empty() ? real_path_ : real_path_ + "/" + relative;
  const std::unique_ptr<char, decltype(&std::free)> real(::realpath(full.c_str(), nullptr),
                                                         &std::free);
  if (!real) {
    ec = from_errno(errno);
    return {};
  }
  const std::string_view resolved(real.get());
  const bool inside =
      resolved == real_path_ || (resolved.starts_with(real_path_) &&
                                 (real_path_ == "/" || resolved[real_path_.size()] == '/'));
  if (!inside) {
    ec = from_errno(EXDEV);
    return {};
  }
  // The race: between realpath() and here, any directory on the way may have
  // become a link. O_NOFOLLOW guards the last component only.
  file_handle file(::open(real.get(), open_flags | O_NOFOLLOW));
  if (!file) ec = from_errno(errno);
  return file;
}
//! [open_realpath]

}  // namespace rdv::files
