#pragma once
/// \file
/// Asio completions as messages: how a process waits for a message *or* a
/// socket, by turning the socket's completion into a message it receives.

#include "processes.hpp"

#include <boost/system/error_code.hpp>

#include <cstddef>
#include <utility>

namespace rdv::proc {

/// The message an operation started with notify() sends when it completes.
template <class Tag>
struct completed {
  Tag tag;                          ///< which operation (the tag given to notify())
  boost::system::error_code error;  ///< how it ended
  std::size_t bytes = 0;            ///< bytes transferred, for reads and writes
};

/// A completion handler that sends `completed<Tag>{tag, error, bytes}` to `to`
/// when the operation completes, instead of resuming anybody. With it, a
/// process can start an operation and go on to receive() messages, among them
/// the operation's completion: `socket.async_wait(tcp::socket::wait_read,
/// notify(self(), client_spoke{}))`, then receive a reply *or* that.
template <class Tag>
class notify {
public:
  /// Sends to `to` on completion, with `tag` in the message.
  notify(pid to, Tag tag) : to_(to), tag_(std::move(tag)), node_(&scheduler::current()) {}

  /// For operations that complete with an error only (waits, connects).
  void operator()(boost::system::error_code error) {
    node_->send(to_, completed<Tag>{tag_, error});
  }
  /// For operations that complete with a byte count (reads, writes).
  void operator()(boost::system::error_code error, std::size_t bytes) {
    node_->send(to_, completed<Tag>{tag_, error, bytes});
  }

private:
  pid to_;
  Tag tag_;
  scheduler* node_;
};

}  // namespace rdv::proc
