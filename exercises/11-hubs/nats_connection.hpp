#pragma once
/// \file
/// Chapter 11: a NATS connection whose socket the hub's io_context watches —
/// a C library's I/O fitted into Asio's loop, on the hub's one thread.

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <nats/nats.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

/// Chapter 11: many hubs, joined by NATS.
namespace rdv::hubs {

/// A message that came on a subscription: valid while its handler runs.
struct bus_message {
  std::string_view subject;  ///< the subject it was published on
  std::string_view reply;    ///< where an answer goes, if the sender wants one
  std::string_view data;     ///< its payload
};

/// How a hub proves itself to the NATS server (`--bus-credentials`), and
/// whom it trusts to be the server. Nothing given: the server lets anybody
/// in, and a `tls://` server's certificate is checked against the system's
/// certificate authorities.
struct bus_credentials {
  std::string user;       ///< a user the server's `authorization` block knows; empty: none
  std::string password;   ///< the user's password
  std::string nkey;       ///< or an nkey: the user's public key (`U...`); empty: none
  std::string seed_file;  ///< the file that holds the nkey's seed (`SU...`)
  std::string
      ca_file;  ///< the certificate authorities (PEM) to trust for `tls://`; empty: the system's
};

/// Reads a credentials file: lines `KEY VALUE`, blank lines and lines
/// beginning with # aside; the keys are `user` and `password`, or `nkey`
/// and `seed` (a file, relative to the credentials file's folder unless
/// absolute), and `ca` (a file, likewise), alone or with either. Throws
/// std::runtime_error, with one line saying why, if it cannot be read or
/// is not one.
bus_credentials read_credentials(const std::string& path);

/// The URLs of `list`, separated by commas: `nats://a:4222,nats://b:4222`.
std::vector<std::string> bus_urls(std::string_view list);

/// Sets `options` to reach the servers of `urls` (a list as bus_urls()
/// reads it; `tls://` asks for TLS) as `who`. Throws std::runtime_error,
/// with one line saying why, if the client refuses them.
void set_access(natsOptions* options, const std::string& urls, const bus_credentials& who);

/// A connection to a NATS server, driven by an io_context.
///
/// The NATS C client is given the io_context as its event loop
/// (natsOptions_SetEventLoop): it reads and writes its socket only when the
/// io_context's thread says the socket is ready, and the messages of the
/// subscriptions made here are handed out on that thread too, so that the
/// hub's processes never meet another thread. The client still keeps
/// threads of its own: for its timers (pings), for flushing what was
/// published, and for reconnecting; whatever they ask of the loop is posted
/// to the io_context. So the
/// io_context must allow posts from other threads: not
/// BOOST_ASIO_CONCURRENCY_HINT_UNSAFE.
class nats_connection {
public:
  /// What handles a subscription's messages, on the io_context's thread.
  using handler = std::function<void(const bus_message&)>;

  /// A connection to be driven by `io`; not connected yet.
  explicit nats_connection(boost::asio::io_context& io);
  /// Closes the connection.
  ~nats_connection();
  nats_connection(const nats_connection&) = delete;
  nats_connection& operator=(const nats_connection&) = delete;

  /// Connects to one of the servers of `urls` (`nats://HOST:PORT`, or
  /// several separated by commas; `tls://` asks for TLS, verified against
  /// the system's certificate authorities), as `who` if given, trying
  /// again until `patience` has passed; throws std::runtime_error, with one
  /// line saying why, if it cannot. Once connected, the client reconnects
  /// by itself whenever the connection breaks, every half second, for ever,
  /// to any server of the list or any other node its cluster announces. It
  /// blocks the calling thread: call it before the io_context runs.
  void connect(const std::string& urls, std::chrono::milliseconds patience,
               const bus_credentials& who = {});

  /// Hands every message on `subject` (NATS wildcards allowed) to
  /// `on_message`, on the io_context's thread.
  void subscribe(const std::string& subject, handler on_message);

  /// How a publish went.
  enum class sent {
    yes,       ///< in the client's buffer, on its way
    down,      ///< the connection is not up now
    too_large  ///< larger than the server takes (its max_payload, 1 MiB by default)
  };

  /// Publishes `data` on `subject`, with `reply` as the subject for an
  /// answer unless it is empty.
  sent publish(const std::string& subject, const std::string& reply, std::string_view data);

  /// Whether the connection is up.
  bool connected() const;
  /// Whether the io_context holds (and watches) a copy of the client's
  /// socket: from hand_over() until the connection breaks or closes.
  bool watching() const noexcept { return socket_ != nullptr; }

private:
  // The client's event-loop callbacks. They may run on any of its threads:
  // each hands what it asks to the io_context, where the members below run.
  static natsStatus on_attach(void** user, void* loop, natsConnection* nc, natsSock socket);
  static natsStatus on_read(void* user, bool add);
  static natsStatus on_write(void* user, bool add);
  static natsStatus on_detach(void* user);
  // Runs a callback's `work` (which returns its status) so that no
  // exception leaves it: one is kept for connect(), thrown again on the
  // io_context's thread, and the client is told NATS_ERR.
  template <class Work>
  natsStatus relay(Work work) noexcept;
  // What a callback threw, if one did.
  std::exception_ptr failed() const;

  natsStatus hand_over(natsSock socket);  // on a thread of the client's
  void attach(natsSock copy);
  void detach();
  void watch_read();
  void watch_write();
  void hand_out_messages();

  struct subscription {
    natsSubscription* sub = nullptr;
    handler on_message;
  };

  boost::asio::io_context& io_;
  natsOptions* options_ = nullptr;
  natsConnection* connection_ = nullptr;
  // A duplicate of the client's socket, for the io_context to watch: the
  // client closes its own when the connection breaks, and a descriptor
  // number the kernel gives again to another socket must not be ours.
  std::unique_ptr<boost::asio::posix::stream_descriptor> socket_;
  std::uint64_t generation_ = 0;  // counts attaches: a wait of an earlier socket is stale
  bool reading_ = false, writing_ = false;
  bool read_waiting_ = false, write_waiting_ = false;
  std::vector<subscription> subscriptions_;
  mutable std::mutex failure_mutex_;  // the client's threads write failure_
  std::exception_ptr failure_;
};

}  // namespace rdv::hubs
