#include "hangup_watch.hpp"

#include "event_loop.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <system_error>

namespace rdv::hub {

namespace {

int new_epoll_set() {
  const int fd = ::epoll_create1(EPOLL_CLOEXEC);
  if (fd < 0)
    throw std::system_error(errno, std::generic_category(), "hangup_watch: epoll_create1");
  return fd;
}

}  // namespace

hangup_watch::hangup_watch(proc::scheduler& node)
    : node_(node), events_(node.use<proc::event_loop>().context(), new_epoll_set()) {}

hangup_watch::~hangup_watch() {
  *alive_ = false;  // a completion already on its way must not touch what is gone
  boost::system::error_code ignored;
  events_.close(ignored);
}

//! [watch]
void hangup_watch::watch(boost::asio::ip::tcp::socket& socket, proc::ref tag) {
  // EXERCISE ch10.3: notice a held client that leaves, and only that
  // HINT: The socket must be in the epoll set (events_) to be heard of:
  //       epoll_ctl(EPOLL_CTL_ADD), for EPOLLRDHUP, edge-triggered. That is
  //       a system call: one per connection, not one per hold. The kernel
  //       takes a socket out of the set when it closes.
  // HINT: by_fd_ is by descriptor number, and a closed socket's number is
  //       the next socket's. What in a watcher tells this connection's
  //       socket from an earlier one's? And when the set has this very
  //       socket already (another process held the connection), what does
  //       epoll_ctl answer?
  // HINT: deliver() notes a hang-up that came while nobody watched. Who
  //       must hear of it, and when? And which counts must be right for
  //       wait() and unwatch()?
  // STUB: (void)socket; (void)tag;
  const int fd = socket.native_handle();
  if (by_fd_.size() <= static_cast<std::size_t>(fd))
    by_fd_.resize(static_cast<std::size_t>(fd) + 1);
  watcher& w = by_fd_[static_cast<std::size_t>(fd)];
  const proc::pid me = proc::self();
  if (w.who != me) {  // a new connection's socket, though its number may be an old one's
    epoll_event e{};
    e.events = EPOLLRDHUP | EPOLLET;  // and, always, EPOLLHUP and EPOLLERR: a reset
    e.data.fd = fd;
    const int set = events_.native_handle();
    if (::epoll_ctl(set, EPOLL_CTL_ADD, fd, &e) != 0 &&  // in the set (another process's
        (errno != EEXIST || ::epoll_ctl(set, EPOLL_CTL_MOD, fd, &e) != 0)) {  // watch): anew
      throw std::system_error(errno, std::generic_category(), "hangup_watch: epoll_ctl");
    }
    w = {.who = me, .tag = tag};
  }
  w.tag = tag;
  if (!w.watching) ++watching_;
  w.watching = true;
  if (w.hung_up) node_.send(me, hung_up{tag});  // it left between two holds
  wait();
  // END EXERCISE
}
//! [watch]

void hangup_watch::unwatch(boost::asio::ip::tcp::socket& socket) noexcept {
  const auto fd = static_cast<std::size_t>(socket.native_handle());
  if (fd >= by_fd_.size() || !by_fd_[fd].watching || by_fd_[fd].who != proc::self()) return;
  by_fd_[fd].watching = false;
  --watching_;
  idle_if_nothing_watched();
}

// A wait with nobody watching would keep the io_context from running out of
// work (and the server from stopping).
void hangup_watch::idle_if_nothing_watched() {
  if (watching_ > 0 || !waiting_) return;
  boost::system::error_code ignored;
  events_.cancel(ignored);
}

void hangup_watch::wait() {
  if (waiting_) return;
  waiting_ = true;
  events_.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                     [this, alive = alive_](boost::system::error_code ec) {
                       if (!*alive) return;
                       waiting_ = false;
                       if (!ec) {
                         deliver();
                       } else if (watching_ > 0) {  // cancelled, then watched anew
                         wait();
                       }
                     });
}

//! [deliver]
void hangup_watch::deliver() {
  std::array<epoll_event, 64> ready;
  const int n =
      ::epoll_wait(events_.native_handle(), ready.data(), static_cast<int>(ready.size()), 0);
  for (int i = 0; i < n; ++i) {
    watcher& w = by_fd_[static_cast<std::size_t>(ready[static_cast<std::size_t>(i)].data.fd)];
    w.hung_up = true;  // for good: its next watch hears of it at once
    if (w.watching) node_.send(w.who, hung_up{w.tag});
  }
  if (watching_ > 0) wait();
}
//! [deliver]

}  // namespace rdv::hub
