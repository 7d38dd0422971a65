#pragma once
/// \file
/// Chapter 10: hearing that a client hangs up while bytes it sent wait
/// unread — a held client that pipelined its next request, then left.

#include "call.hpp"
#include "extension.hpp"
#include "processes.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <cstdint>
#include <map>
#include <memory>

namespace rdv::hub {

/// The message hangup_watch sends: the peer of the socket watched with
/// `tag` shut its side down, or reset the connection.
struct hung_up {
  proc::ref tag;  ///< what watch() was given
};

/// Tells processes when the peers of their sockets hang up. A wait for
/// readability cannot: a socket with unread bytes is readable all along,
/// whether or not its peer has gone since. Linux reports the peer's
/// shutdown as EPOLLRDHUP, which Asio does not ask for; so the watch keeps
/// an epoll set of its own, with the sockets watched, and waits for that set
/// to be readable in the scheduler's io_context. One per scheduler
/// (scheduler::use<hangup_watch>()).
class hangup_watch : public proc::extension {
public:
  /// A watch for the processes of `node`, whose event loop it waits in.
  explicit hangup_watch(proc::scheduler& node);
  ~hangup_watch() override;
  hangup_watch(const hangup_watch&) = delete;
  hangup_watch& operator=(const hangup_watch&) = delete;

  /// Sends `hung_up{tag}` to the calling process once the peer of `socket`
  /// hangs up (at once, if it has), until forget(socket).
  void watch(boost::asio::ip::tcp::socket& socket, proc::ref tag);
  /// Stops watching `socket`; call it before the socket closes.
  void forget(boost::asio::ip::tcp::socket& socket);

  /// A process that ends forgets nothing by itself: the holds forget() their
  /// sockets; this only drops what a process that crashed left watched.
  void process_exited(proc::pid who, const proc::exit_reason& reason) override;

private:
  void wait();                     // for the epoll set to have events
  void deliver();                  // sends hung_up for each
  void idle_if_nothing_watched();  // cancels the wait when nothing is watched

  struct watcher {
    proc::pid who;
    proc::ref tag;
  };
  proc::scheduler& node_;
  boost::asio::posix::stream_descriptor events_;  // the epoll set, in the io_context
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  bool waiting_ = false;
  std::map<int, watcher> watched_;  // by socket descriptor
};

}  // namespace rdv::hub
