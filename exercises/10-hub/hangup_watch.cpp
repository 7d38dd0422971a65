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
  const int fd = socket.native_handle();
  epoll_event e{};
  e.events = EPOLLRDHUP;  // and, always, EPOLLHUP and EPOLLERR: a reset
  e.data.fd = fd;
  const bool known = watched_.contains(fd);
  if (::epoll_ctl(events_.native_handle(), known ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &e) != 0) {
    throw std::system_error(errno, std::generic_category(), "hangup_watch: epoll_ctl");
  }
  watched_[fd] = {proc::self(), tag};
  wait();
}
//! [watch]

void hangup_watch::forget(boost::asio::ip::tcp::socket& socket) {
  const int fd = socket.native_handle();
  if (watched_.erase(fd) != 0) ::epoll_ctl(events_.native_handle(), EPOLL_CTL_DEL, fd, nullptr);
  idle_if_nothing_watched();
}

// A wait with nothing to watch would keep the io_context from running out of
// work (and the server from stopping).
void hangup_watch::idle_if_nothing_watched() {
  if (!watched_.empty() || !waiting_) return;
  boost::system::error_code ignored;
  events_.cancel(ignored);
}

void hangup_watch::process_exited(proc::pid who, const proc::exit_reason&) {
  for (auto it = watched_.begin(); it != watched_.end();) {
    if (it->second.who == who) {
      ::epoll_ctl(events_.native_handle(), EPOLL_CTL_DEL, it->first, nullptr);
      it = watched_.erase(it);
    } else {
      ++it;
    }
  }
  idle_if_nothing_watched();
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
                       } else if (!watched_.empty()) {  // cancelled, then watched anew
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
    const int fd = ready[static_cast<std::size_t>(i)].data.fd;
    if (const auto it = watched_.find(fd); it != watched_.end()) {
      ::epoll_ctl(events_.native_handle(), EPOLL_CTL_DEL, fd, nullptr);  // told once
      node_.send(it->second.who, hung_up{it->second.tag});
      watched_.erase(it);
    }
  }
  if (!watched_.empty()) wait();
}
//! [deliver]

}  // namespace rdv::hub
