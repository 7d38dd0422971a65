#pragma once
/// \file
/// Chapter 8: files kept open between responses, each dropped as soon as
/// the kernel reports a change to it or to a directory on its path.

#include "root_directory.hpp"

#include <boost/system/error_code.hpp>

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace rdv::files {

/// A file opened for a response: its descriptor and what fstat(2) said of
/// it then. Shared by the responses that send it, and by the cache.
struct opened_file {
  file_handle file;  ///< open for reading
  struct stat st{};  ///< its type, size, identity and modification time
};

/// What an open_file_cache has done, for its tests.
struct open_file_stats {
  std::uint64_t hits = 0;     ///< answered from the cache, without a call to open
  std::uint64_t misses = 0;   ///< opened, and kept when the file could be
  std::uint64_t evicted = 0;  ///< entries dropped to make room for another
};

/// Opens files beneath a root_directory, and keeps up to a number of them
/// open between responses, with their fstat(2), so that a file asked for
/// again costs no openat2, fstat and close. An entry is right for as long as
/// nothing changes: not the file (a write, a truncation, new attributes, a
/// link renamed over it or deleted) and not a directory on its path (the
/// same, but its bytes). inotify(7) reports each such change from the call
/// that makes it, and the cache reads those reports before every lookup, so
/// a request sent after a change never gets what was there before it. Files
/// are opened as root_directory::open() opens them, but only those reached
/// without a symbolic link are kept: a link's target may change where no
/// watch looks. Linux only (elsewhere, and with capacity 0, every file is
/// opened afresh); not for use from several threads at once.
class open_file_cache {
public:
  /// Up to `capacity` files beneath `root`, which must outlive the cache.
  open_file_cache(const root_directory& root, std::size_t capacity);
  ~open_file_cache();
  open_file_cache(const open_file_cache&) = delete;
  open_file_cache& operator=(const open_file_cache&) = delete;

  /// `relative` (as for root_directory::open()) opened and fstat'ed: the
  /// cache's copy if nothing has changed since it was made, otherwise opened
  /// now, and kept if it is a regular file the cache can watch. On failure,
  /// no file, and `ec` as root_directory::open() or fstat(2) sets it.
  std::shared_ptr<const opened_file> open(const std::string& relative,
                                          boost::system::error_code& ec);

  /// How many files are kept open now.
  std::size_t size() const noexcept { return entries_.size(); }
  /// How many inotify watches the kept files use now (a user has a limited
  /// number: /proc/sys/fs/inotify/max_user_watches).
  std::size_t watches() const noexcept { return watch_users_.size(); }
  /// What the cache has done so far.
  const open_file_stats& stats() const noexcept { return stats_; }

private:
  struct entry {
    std::string relative;
    std::shared_ptr<const opened_file> opened;
    std::vector<int> watches;  // the directories on its path beneath the root, then the file
  };
  using entry_list = std::list<entry>;  // the most recently used first

  struct opening {
    std::shared_ptr<const opened_file> opened;  // none: `ec` says why
    std::vector<int> watches;                   // the watches it took
    bool keep = false;                          // watched whole: an entry
  };
  opening open_watched(const std::string& relative, boost::system::error_code& ec);
  std::shared_ptr<opened_file> open_plainly(const std::string& relative,
                                            boost::system::error_code& ec);
  int watch(int descriptor, std::uint32_t events);
  void read_changes();
  void drop(entry_list::iterator at);
  void release(int watch);
  void drop_all();

  const root_directory& root_;
  std::size_t capacity_;
  int changes_ = -1;    // the inotify descriptor (-1: none, nothing kept)
  int root_seen_ = -1;  // root_.descriptor() when the entries were made
  entry_list entries_;
  std::unordered_map<std::string, entry_list::iterator> by_path_;
  std::unordered_map<int, std::size_t> watch_users_;  // watch -> entries using it
  open_file_stats stats_;
};

}  // namespace rdv::files
