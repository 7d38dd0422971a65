#pragma once
/// \file
/// Chapter 10: hearing that a held client hangs up, without a system call
/// per hold.

#include "call.hpp"
#include "extension.hpp"
#include "processes.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace rdv::hub {

/// The message hangup_watch sends: the peer of the socket watched with
/// `tag` shut its side down, or reset the connection.
struct hung_up {
  proc::ref tag;  ///< what watch() was given
};

/// Tells held clients' processes when their clients hang up. Linux reports
/// a peer's shutdown or reset as EPOLLRDHUP (and EPOLLHUP, EPOLLERR), which
/// Asio does not ask for, and reports it even while bytes the peer sent
/// wait unread; so the watch keeps an epoll set of its own, waited for in
/// the scheduler's io_context. A socket joins the set at its first watch,
/// edge-triggered, and stays until it closes: later watches of it make no
/// system call, as nginx keeps each connection in its epoll set once. One
/// per scheduler (scheduler::use<hangup_watch>()).
class hangup_watch : public proc::extension {
public:
  /// A watch for the processes of `node`, whose event loop it waits in.
  explicit hangup_watch(proc::scheduler& node);
  ~hangup_watch() override;
  hangup_watch(const hangup_watch&) = delete;
  hangup_watch& operator=(const hangup_watch&) = delete;

  /// Sends `hung_up{tag}` to the calling process when the peer of `socket`
  /// hangs up, until unwatch(socket); at once if it hung up already, even
  /// while nobody watched. A process watches one socket for its life (a
  /// connection's), as often as it likes.
  void watch(boost::asio::ip::tcp::socket& socket, proc::ref tag);
  /// Stops telling the calling process about `socket`; the socket stays in
  /// the set, and a hang-up is still noted for its next watch.
  void unwatch(boost::asio::ip::tcp::socket& socket) noexcept;

  /// Nothing to do: a socket leaves the epoll set when it closes, and its
  /// descriptor's entry is taken over by the next socket with that number.
  void process_exited(proc::pid, const proc::exit_reason&) override {}

private:
  void wait();                     // for the epoll set to have events
  void deliver();                  // tells the watchers, notes the rest
  void idle_if_nothing_watched();  // cancels the wait when nobody watches

  // What the watch knows of one descriptor number.
  struct watcher {
    proc::pid who;          // the process whose socket joined the set with it
    proc::ref tag;          // what its current or last watch was given
    bool watching = false;  // between watch() and unwatch()
    bool hung_up = false;   // its peer has hung up
  };
  proc::scheduler& node_;
  boost::asio::posix::stream_descriptor events_;  // the epoll set, in the io_context
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  bool waiting_ = false;
  std::size_t watching_ = 0;    // watchers watching now
  std::vector<watcher> by_fd_;  // by descriptor number
};

}  // namespace rdv::hub
