#include "open_file_cache.hpp"

#include <fcntl.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/inotify.h>
#endif

#include <algorithm>
#include <cerrno>

namespace rdv::files {

namespace {

#if defined(__linux__)
// What makes a kept entry wrong, reported by the file or directory it
// happens to. A directory on the path: renamed or deleted, or new
// permissions. The file: the same, or new bytes (a write, a truncation).
// A name that stops leading where it led reports it too: the file or
// directory it led to is renamed, or loses a link (IN_ATTRIB: its count
// of links changed), when it is renamed over or deleted.
constexpr std::uint32_t directory_changes = IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;
constexpr std::uint32_t file_changes = IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF;
#endif

}  // namespace

open_file_cache::open_file_cache(const root_directory& root, std::size_t capacity)
    : root_(root), capacity_(capacity) {
#if defined(__linux__)
  if (capacity_ > 0) changes_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#endif
}

open_file_cache::~open_file_cache() {
  if (changes_ >= 0) ::close(changes_);
}

//! [open]
std::shared_ptr<const opened_file> open_file_cache::open(const std::string& relative,
                                                         boost::system::error_code& ec) {
  ec.clear();
  if (changes_ < 0) return open_plainly(relative, ec);
  read_changes();                          // one read(2), EAGAIN when nothing has changed
  if (root_.descriptor() != root_seen_) {  // the root reopened: its name leads elsewhere
    drop_all();
    root_seen_ = root_.descriptor();
  }
  if (const auto found = by_path_.find(relative); found != by_path_.end()) {
    entries_.splice(entries_.begin(), entries_, found->second);
    ++stats_.hits;
    return found->second->opened;
  }
  ++stats_.misses;
  opening o = open_watched(relative, ec);
  if (o.keep) {
    if (entries_.size() == capacity_) {
      drop(std::prev(entries_.end()));  // the least recently used
      ++stats_.evicted;
    }
    entries_.push_front({relative, o.opened, std::move(o.watches)});
    by_path_.emplace(relative, entries_.begin());
    return o.opened;
  }
  for (const int w : o.watches) release(w);  // those it took for nothing
  return o.opened;
}
//! [open]

// Watches every directory on the path beneath the root, from the top
// down, then opens the file as root_directory opens any, watches it and
// asks fstat: a change after a directory's watch is reported (and so is
// one after the file's), so what is opened after the watches can be kept
// until a report comes. The root itself needs none: files are opened
// beneath its descriptor, which stays on the same directory whatever
// happens to its name. The file is kept if it is a regular one, every
// watch could be set, and no symbolic link is on the way (the walk takes
// none, and the name must lead to the file itself); otherwise it is only
// given back. It says which watches it took, kept or not.
open_file_cache::opening open_file_cache::open_watched(const std::string& relative,
                                                       boost::system::error_code& ec) {
  opening o;
#if defined(__linux__)
  const auto watched = [&](int descriptor, std::uint32_t events) {
    const int w = watch(descriptor, events);
    if (w >= 0) o.watches.push_back(w);
    return w >= 0;
  };
  // The directories, one name at a time, refusing a link at each.
  file_handle directory;
  std::size_t name = 0;
  bool whole = !relative.empty();  // the root itself is a directory, never kept
  for (std::size_t slash = 0; whole && (slash = relative.find('/', name)) != std::string::npos;
       name = slash + 1) {
    const int parent = directory ? directory.get() : root_.descriptor();
    directory = file_handle(::openat(parent, relative.substr(name, slash - name).c_str(),
                                     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    whole = directory && watched(directory.get(), directory_changes);
  }
  const auto opened = open_plainly(relative, ec);
  o.opened = opened;
  if (!opened || !whole || !S_ISREG(opened->st.st_mode)) return o;
  // What fstat says after the file's watch is what counts; and the last
  // name must be the file's own, not a link to it.
  struct stat named{};
  o.keep = watched(opened->file.get(), file_changes) &&
           ::fstat(opened->file.get(), &opened->st) == 0 &&
           ::fstatat(directory ? directory.get() : root_.descriptor(), relative.c_str() + name,
                     &named, AT_SYMLINK_NOFOLLOW) == 0 &&
           named.st_ino == opened->st.st_ino && named.st_dev == opened->st.st_dev;
#else
  o.opened = open_plainly(relative, ec);
#endif
  return o;
}

std::shared_ptr<opened_file> open_file_cache::open_plainly(const std::string& relative,
                                                           boost::system::error_code& ec) {
  auto opened = std::make_shared<opened_file>();
  opened->file = root_.open(relative, ec);
  if ((ec == boost::system::errc::too_many_files_open ||
       ec == boost::system::errc::too_many_files_open_in_system) &&
      !entries_.empty()) {
    drop_all();  // the descriptors kept are worth less than this response
    opened->file = root_.open(relative, ec);
  }
  if (ec) return nullptr;
  if (::fstat(opened->file.get(), &opened->st) != 0) {
    ec.assign(errno, boost::system::system_category());
    return nullptr;
  }
  return opened;
}

// A watch on the file or directory `descriptor` is open on (through its
// name in /proc, which leads to that very one), counted as used once more.
int open_file_cache::watch(int descriptor, std::uint32_t events) {
#if defined(__linux__)
  const std::string name = "/proc/self/fd/" + std::to_string(descriptor);
  const int w = ::inotify_add_watch(changes_, name.c_str(), events);
  if (w >= 0) ++watch_users_[w];
  return w;
#else
  (void)descriptor;
  (void)events;
  return -1;
#endif
}

//! [read_changes]
// Drops every entry a reported change may concern: those with a directory
// on the path or a file that reported a change of its own, or all of them
// when the kernel's queue of reports overflowed. A report with a name is
// about something in a watched directory (its attributes: the directory's
// watch cannot leave those out), which the cache watches itself if it
// keeps anything through it.
void open_file_cache::read_changes() {
#if defined(__linux__)
  alignas(inotify_event) char reports[4096];
  for (;;) {
    const ssize_t n = ::read(changes_, reports, sizeof reports);
    if (n <= 0) return;  // EAGAIN: nothing has changed
    for (ssize_t at = 0; at < n;) {
      const auto* report = reinterpret_cast<const inotify_event*>(reports + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + report->len);
      if (report->mask & IN_Q_OVERFLOW) {
        drop_all();
      } else if (report->len == 0 && !(report->mask & IN_IGNORED)) {  // IN_IGNORED: a watch gone
        for (auto e = entries_.begin(); e != entries_.end();) {
          const auto next = std::next(e);
          if (std::ranges::find(e->watches, report->wd) != e->watches.end()) drop(e);
          e = next;
        }
      }
    }
  }
#endif
}
//! [read_changes]

// Forgets the entry at `at` (its file closes when the last response sending
// it is done) and the watches no other entry uses.
void open_file_cache::drop(entry_list::iterator at) {
  for (const int w : at->watches) release(w);
  by_path_.erase(at->relative);
  entries_.erase(at);
}

// One use of the watch `w` fewer; the watch goes with its last.
void open_file_cache::release(int w) {
  if (--watch_users_[w] > 0) return;
  watch_users_.erase(w);
#if defined(__linux__)
  ::inotify_rm_watch(changes_, w);
#endif
}

void open_file_cache::drop_all() {
  while (!entries_.empty()) drop(entries_.begin());
}

}  // namespace rdv::files
