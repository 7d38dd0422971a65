#include "nats_connection.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

#include <fcntl.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace rdv::hubs {

namespace asio = boost::asio;
using descriptor = asio::posix::stream_descriptor;

namespace {

// Throws std::runtime_error saying `what` failed and why, unless it went well.
void check(natsStatus status, std::string_view what) {
  if (status != NATS_OK) {
    throw std::runtime_error(std::string(what) + ": " + natsStatus_GetText(status));
  }
}

// `text` without the blanks at either end.
std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

}  // namespace

std::vector<std::string> bus_urls(std::string_view list) {
  std::vector<std::string> urls;
  for (std::size_t from = 0; from <= list.size();) {
    const std::size_t comma = std::min(list.find(',', from), list.size());
    if (const auto url = trimmed(list.substr(from, comma - from)); !url.empty()) {
      urls.emplace_back(url);
    }
    from = comma + 1;
  }
  return urls;
}

void set_access(natsOptions* options, const std::string& urls, const bus_credentials& who) {
  const std::vector<std::string> servers = bus_urls(urls);
  std::vector<const char*> names;
  for (const std::string& server : servers) names.push_back(server.c_str());
  check(natsOptions_SetServers(options, names.data(), static_cast<int>(names.size())),
        "the bus's URLs " + urls);
  if (urls.find("tls://") != std::string::npos) check(natsOptions_SetSecure(options, true), "TLS");
  if (!who.ca_file.empty()) {
    check(natsOptions_LoadCATrustedCertificates(options, who.ca_file.c_str()),
          "the certificate authorities in " + who.ca_file);
  }
  if (!who.user.empty()) {
    check(natsOptions_SetUserInfo(options, who.user.c_str(), who.password.c_str()),
          "bus credentials");
  }
  if (!who.nkey.empty()) {
    check(natsOptions_SetNKeyFromSeed(options, who.nkey.c_str(), who.seed_file.c_str()),
          "the nkey " + who.nkey);
  }
}

namespace {

// `file` as named in the credentials file `path`: relative to its folder.
std::string beside(const std::string& path, std::string_view file) {
  const std::filesystem::path named(file);
  return (named.is_absolute() ? named : std::filesystem::path(path).parent_path() / named).string();
}

// Checks that what `path` gave makes sense together.
void check_complete(const bus_credentials& who, const std::string& path) {
  if (who.user.empty() && who.nkey.empty() && who.ca_file.empty()) {
    throw std::runtime_error(path + ": no \"user NAME\", \"nkey PUBLIC\" or \"ca FILE\" line");
  }
  if (!who.user.empty() && !who.nkey.empty()) {
    throw std::runtime_error(path + ": a user or an nkey, not both");
  }
  if (!who.nkey.empty() && who.seed_file.empty()) {
    throw std::runtime_error(path + ": an nkey needs its \"seed FILE\"");
  }
  if (!who.nkey.empty() && !std::ifstream(who.seed_file)) {
    throw std::runtime_error(path + ": cannot read the seed file " + who.seed_file);
  }
}

}  // namespace

bus_credentials read_credentials(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read the bus credentials " + path);
  bus_credentials who;
  for (std::string line; std::getline(file, line);) {
    const std::string_view text = trimmed(line);
    if (text.empty() || text.front() == '#') continue;
    const auto space = text.find_first_of(" \t");
    const std::string_view key = text.substr(0, space);
    const std::string_view value = space == text.npos ? "" : trimmed(text.substr(space));
    if (key == "user") {
      who.user = value;
    } else if (key == "password") {
      who.password = value;
    } else if (key == "nkey") {
      who.nkey = value;
    } else if (key == "seed") {
      who.seed_file = beside(path, value);
    } else if (key == "ca") {
      who.ca_file = beside(path, value);
    } else {
      throw std::runtime_error(path + ": unknown line \"" + std::string(key) +
                               "\"; expected user, password, nkey, seed or ca");
    }
  }
  check_complete(who, path);
  return who;
}

nats_connection::nats_connection(asio::io_context& io) : io_(io) {}

std::exception_ptr nats_connection::failed() const {
  const std::lock_guard lock(failure_mutex_);
  return failure_;
}

nats_connection::~nats_connection() {
  for (subscription& s : subscriptions_) natsSubscription_Destroy(s.sub);
  natsConnection_Destroy(connection_);  // closes it: on_detach() runs
  natsOptions_Destroy(options_);
}

//! [connect]
void nats_connection::connect(const std::string& urls, std::chrono::milliseconds patience,
                              const bus_credentials& who) {
  check(natsOptions_Create(&options_), "nats options");
  set_access(options_, urls, who);
  // The io_context is the client's event loop: `this` is what the callbacks get.
  check(natsOptions_SetEventLoop(options_, this, on_attach, on_read, on_write, on_detach),
        "nats event loop");
  check(natsOptions_SetMaxReconnect(options_, -1), "nats options");    // for ever
  check(natsOptions_SetReconnectWait(options_, 500), "nats options");  // every half second
  check(natsOptions_SetTimeout(options_, 1000), "nats options");       // per attempt
  // A bus that vanishes without closing the connection is noticed after
  // two unanswered pings, a second apart.
  check(natsOptions_SetPingInterval(options_, 1000), "nats options");
  check(natsOptions_SetMaxPingsOut(options_, 2), "nats options");
  // What is published waits in the client's buffer until its flusher
  // thread asks the loop to write: the publishes of one turn of the loop,
  // often of several, leave in one write. (With natsOptions_SetSendAsap
  // the publishing thread would ask at once, for each turn that publishes:
  // a message leaves a little sooner, and a routed reply costs more CPU.)
  // A request to a subject nobody listens on times out like one to a hub
  // that is gone. (Otherwise the server answers it at once with an empty
  // message whose header says `Status: 503`, which the client does not
  // hand to a synchronous subscription like ours.)
  check(natsOptions_DisableNoResponders(options_, true), "nats options");
  const auto give_up = std::chrono::steady_clock::now() + patience;
  for (;;) {
    const natsStatus status = natsConnection_Connect(&connection_, options_);
    if (status == NATS_OK) return;
    if (const std::exception_ptr failure = failed()) std::rethrow_exception(failure);
    if (std::chrono::steady_clock::now() >= give_up) {
      throw std::runtime_error("cannot reach the bus at " + urls + ": " +
                               natsStatus_GetText(status));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the server may be starting
  }
}
//! [connect]

//! [callbacks]
natsStatus nats_connection::on_attach(void** user, void* loop, natsConnection*, natsSock socket) {
  auto* self = static_cast<nats_connection*>(loop);
  *user = self;
  return self->relay([self, socket] { return self->hand_over(socket); });
}

natsStatus nats_connection::on_read(void* user, bool add) {
  auto* self = static_cast<nats_connection*>(user);
  return self->relay([self, add] {
    asio::dispatch(self->io_, [self, add] {
      self->reading_ = add;
      self->watch_read();
    });
    return NATS_OK;
  });
}

natsStatus nats_connection::on_write(void* user, bool add) {
  auto* self = static_cast<nats_connection*>(user);
  return self->relay([self, add] {
    asio::dispatch(self->io_, [self, add] {
      self->writing_ = add;
      self->watch_write();
    });
    return NATS_OK;
  });
}

natsStatus nats_connection::on_detach(void* user) {
  auto* self = static_cast<nats_connection*>(user);
  return self->relay([self] {
    asio::dispatch(self->io_, [self] { self->detach(); });
    return NATS_OK;
  });
}

template <class Work>
natsStatus nats_connection::relay(Work work) noexcept {
  try {
    return work();
  } catch (...) {
    // An exception must not unwind through the client's C frames, which
    // hold its locks: it goes to the io_context's thread instead, whose
    // run() throws it, and to connect() if that is waiting.
    const std::exception_ptr failure = std::current_exception();
    {
      const std::lock_guard lock(failure_mutex_);
      failure_ = failure;
    }
    asio::post(io_, [failure] { std::rethrow_exception(failure); });
    return NATS_ERR;
  }
}
//! [callbacks]

//! [attach]
natsStatus nats_connection::hand_over(natsSock socket) {
  // EXERCISE ch11.1: give the io_context the client's new socket, as a descriptor of its own
  // HINT: This runs on one of the client's threads; the socket is to be
  //       watched on the io_context's thread, a moment or a while later.
  //       What may the client have done to `socket` by then, and what may
  //       its number name by then?
  // HINT: How does a process get a second descriptor of the same socket,
  //       one that no close of the client's can take away (fcntl(2))?
  //       And should a program the hub starts inherit it?
  // HINT: Out of descriptors is no reason to stop the hub: the client
  //       takes an error status as a failed connection, and tries again.
  // STUB: (void)socket;
  const int copy = ::fcntl(socket, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return NATS_SYS_ERROR;
  asio::dispatch(io_, [this, copy] { attach(copy); });
  return NATS_OK;
  // END EXERCISE
}

void nats_connection::attach(natsSock copy) {
  if (!io_.get_executor().running_in_this_thread()) {
    throw std::logic_error("nats_connection::attach() runs on the io_context's thread only");
  }
  // EXERCISE ch11.1, part 2: watch the new socket, and let no wait on an earlier one count
  // HINT: What becomes of the duplicate that was watched before, and of
  //       its waits that are still in the io_context's queue?
  // HINT: Of the flags, which describe the earlier socket's waits? What
  //       does a new connection need first: to read or to write?
  // STUB: (void)copy;
  socket_ = std::make_unique<descriptor>(io_, copy);  // the earlier one, if any, closes
  ++generation_;
  read_waiting_ = write_waiting_ = false;
  reading_ = true;  // a new connection: read what the server sends
  watch_read();
  watch_write();
  // END EXERCISE
}
//! [attach]

void nats_connection::detach() {
  socket_.reset();
  reading_ = writing_ = false;
}

//! [watch]
void nats_connection::watch_read() {
  if (!socket_ || !reading_ || read_waiting_) return;
  read_waiting_ = true;
  socket_->async_wait(descriptor::wait_read, [this, attached = generation_](auto error) {
    // EXERCISE ch11.2: when the socket is readable, let the client read, and hand out what came
    // HINT: watch_write() below is the same dance for the other direction:
    //       a wait on a socket replaced since is stale, and an error ends it.
    // HINT: The client reads and parses when told the socket is readable
    //       (natsConnection_ProcessReadEvent); the messages it queued wait
    //       in the subscriptions until hand_out_messages() takes them.
    // HINT: A read can find the connection broken. The client then
    //       reconnects on its own thread and attaches a new socket; this
    //       one (our duplicate) is dead meanwhile. Should it stay open, and
    //       watched, until then?
    // STUB: (void)error; (void)attached;
    if (attached != generation_) return;  // a wait on a socket replaced since
    read_waiting_ = false;
    if (error) return;
    natsConnection_ProcessReadEvent(connection_);  // reads and parses what came
    hand_out_messages();
    if (!connected()) {
      // The connection broke: the client reconnects on a thread of its own
      // and attaches the new socket. Close our duplicate of this one now
      // rather than at the next attach, which may be long in coming.
      socket_.reset();
      return;
    }
    watch_read();
    // END EXERCISE
  });
}

void nats_connection::watch_write() {
  if (!socket_ || !writing_ || write_waiting_) return;
  write_waiting_ = true;
  socket_->async_wait(descriptor::wait_write, [this, attached = generation_](auto error) {
    if (attached != generation_) return;
    write_waiting_ = false;
    if (error) return;
    natsConnection_ProcessWriteEvent(connection_);  // writes what it buffered
    watch_write();  // unless the client said, meanwhile, that all is written
  });
}
//! [watch]

//! [hand_out_messages]
void nats_connection::hand_out_messages() {
  // By index: a handler may subscribe, and the vector may grow.
  for (std::size_t i = 0; i < subscriptions_.size(); ++i) {
    for (;;) {
      natsMsg* next = nullptr;
      // A synchronous subscription, asked with a timeout of 0: the message
      // that ProcessReadEvent() queued, if any, at once, on this thread.
      if (natsSubscription_NextMsg(&next, subscriptions_[i].sub, 0) != NATS_OK) break;
      const std::unique_ptr<natsMsg, void (*)(natsMsg*)> message(next, natsMsg_Destroy);
      const char* reply = natsMsg_GetReply(next);
      subscriptions_[i].on_message(
          {natsMsg_GetSubject(next),
           reply ? reply : "",
           {natsMsg_GetData(next), static_cast<std::size_t>(natsMsg_GetDataLength(next))}});
    }
  }
}
//! [hand_out_messages]

void nats_connection::subscribe(const std::string& subject, handler on_message) {
  natsSubscription* sub = nullptr;
  check(natsConnection_SubscribeSync(&sub, connection_, subject.c_str()),
        "subscribing to " + subject);
  subscriptions_.push_back({sub, std::move(on_message)});
}

nats_connection::sent nats_connection::publish(const std::string& subject, const std::string& reply,
                                               std::string_view data) {
  if (!connected()) return sent::down;
  const auto size = static_cast<int>(data.size());
  const natsStatus status =
      reply.empty() ? natsConnection_Publish(connection_, subject.c_str(), data.data(), size)
                    : natsConnection_PublishRequest(connection_, subject.c_str(), reply.c_str(),
                                                    data.data(), size);
  return status == NATS_OK ? sent::yes : status == NATS_MAX_PAYLOAD ? sent::too_large : sent::down;
}

bool nats_connection::connected() const {
  return connection_ != nullptr && natsConnection_Status(connection_) == NATS_CONN_STATUS_CONNECTED;
}

}  // namespace rdv::hubs
