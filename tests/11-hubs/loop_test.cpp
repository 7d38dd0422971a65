// Chapter 11's first step: the NATS client's socket watched by Asio, on
// the io_context's one thread.
#include "nats_fixture.hpp"

#include "../10-hub/scripted_backend.hpp"
#include "nats_connection.hpp"

#include "rdv/test/book.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

namespace {

using namespace std::chrono_literals;
using rdv::test::explained_in;
namespace asio = boost::asio;
using sent = rdv::hubs::nats_connection::sent;

// Runs `io` until `done()` holds or `limit` passes; returns whether it held.
template <class Done>
bool run_until(asio::io_context& io, Done done, std::chrono::milliseconds limit = 10s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    io.run_for(10ms);
    if (io.stopped()) io.restart();
  }
  return done();
}

TEST(Loop, MessagesArriveOnTheIoContextsThread) {
  explained_in("ch11-loop");
  ch11::nats_server server;
  asio::io_context io(1);
  rdv::hubs::nats_connection bus(io);
  bus.connect(server.url(), 5s);
  std::vector<std::string> got;
  bool on_io_thread = true;
  const auto test_thread = std::this_thread::get_id();
  bus.subscribe("greetings.>", [&](const rdv::hubs::bus_message& m) {
    on_io_thread = on_io_thread && std::this_thread::get_id() == test_thread;
    got.push_back(std::string(m.subject) + ' ' + std::string(m.data) + ' ' + std::string(m.reply));
  });
  ASSERT_EQ(bus.publish("greetings.one", "", "hello"), sent::yes);
  ASSERT_EQ(bus.publish("greetings.two", "back.here", "world"), sent::yes);
  EXPECT_TRUE(run_until(io, [&] { return got.size() == 2; }))
      << "messages published on the connection's own subscription did not come back; only "
      << got.size() << " did";
  EXPECT_TRUE(on_io_thread) << "subscription handlers must run on the io_context's thread";
  ASSERT_EQ(got.size(), 2U);
  EXPECT_EQ(got[0], "greetings.one hello ");
  EXPECT_EQ(got[1], "greetings.two world back.here");
}

// A connection to a server of its own, subscribed to "ping".
struct ping_loop {
  ch11::nats_server server;
  asio::io_context io{1};
  rdv::hubs::nats_connection bus{io};
  int got = 0;  // pings that came back

  ping_loop() {
    bus.connect(server.url(), 5s);
    bus.subscribe("ping", [this](const rdv::hubs::bus_message&) { ++got; });
  }
  // Publishes a ping and waits for it to come back; whether it did.
  bool round_trip() {
    const int before = got;
    return bus.publish("ping", "", "?") == sent::yes &&
           run_until(io, [&] { return got == before + 1; });
  }
  // Runs the loop until the connection is `up` (or down), for `limit` at most.
  bool until_connected(bool up, std::chrono::milliseconds limit = 10s) {
    return run_until(io, [&] { return bus.connected() == up; }, limit);
  }
};

TEST(Loop, AConnectionBackAfterTheServerRestartsCarriesMessagesAgain) {
  explained_in("ch11-loop");
  ping_loop loop;
  ASSERT_TRUE(loop.round_trip());
  ASSERT_TRUE(loop.bus.watching()) << "the io_context should watch the connection's socket";
  loop.server.stop();
  EXPECT_TRUE(loop.until_connected(false)) << "the broken connection went unnoticed";
  EXPECT_TRUE(run_until(loop.io, [&] { return !loop.bus.watching(); }))
      << "the copy of the broken connection's socket should close now, not when the client "
         "reconnects, which may be long in coming";
  EXPECT_EQ(loop.bus.publish("ping", "", "lost"), sent::down)
      << "publish should say the bus is down";
  loop.server.restart();
  EXPECT_TRUE(loop.until_connected(true, 5s)) << "the client should reconnect by itself within 5 s";
  EXPECT_TRUE(loop.round_trip())
      << "after reconnecting, the subscription should carry messages again (the new socket "
         "must be watched)";
}

TEST(Loop, AConnectionBackAfterTheServerFellSilentCarriesMessagesAgain) {
  explained_in("ch11-loop");
  ping_loop loop;
  ASSERT_TRUE(loop.round_trip());
  loop.server.freeze();  // no end of stream this time: the connection just goes quiet
  EXPECT_TRUE(loop.until_connected(false))
      << "a bus that answers no ping should be given up after two, a second apart";
  EXPECT_TRUE(run_until(loop.io, [&] { return !loop.bus.watching(); }))
      << "the copy of the given-up connection's socket should close now";
  loop.server.thaw();
  EXPECT_TRUE(loop.until_connected(true))
      << "the client should reconnect by itself once the server answers again";
  EXPECT_TRUE(loop.round_trip())
      << "after reconnecting, the subscription should carry messages again (the new socket "
         "must be watched)";
}

TEST(Loop, AConnectionThatBrokeAndCameBackWhileTheLoopStoodStillCarriesMessagesAgain) {
  explained_in("ch11-loop");
  ping_loop loop;
  ASSERT_TRUE(loop.round_trip());  // a read is being waited for on the socket
  // The loop stands still (a handler taking its time) while the bus goes
  // down and comes back: the client finds the break by its pings, on its
  // own thread, and reconnects there. When the loop runs again, its queue
  // holds the old socket's news and the new socket's attach together.
  loop.server.stop();
  const auto patience = std::chrono::steady_clock::now() + 10s;
  while (loop.bus.connected() && std::chrono::steady_clock::now() < patience) {
    std::this_thread::sleep_for(10ms);  // only the client's own threads run meanwhile
  }
  ASSERT_FALSE(loop.bus.connected()) << "two unanswered pings should have broken the connection";
  loop.server.restart();
  while (!loop.bus.connected() && std::chrono::steady_clock::now() < patience + 10s) {
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_TRUE(loop.bus.connected()) << "the client should reconnect by itself";
  EXPECT_TRUE(loop.round_trip())
      << "the new socket was attached before the old socket's wait had ended: that wait's end "
         "must not keep the new socket from being watched";
}

// This process's descriptors of sockets connected to `port` on 127.0.0.1.
std::vector<int> descriptors_connected_to(std::uint16_t port) {
  std::vector<int> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    const int fd = std::stoi(entry.path().filename().string());
    sockaddr_in peer{};
    socklen_t size = sizeof peer;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &size) == 0 &&
        peer.sin_family == AF_INET && ntohs(peer.sin_port) == port) {
      found.push_back(fd);
    }
  }
  return found;
}

TEST(Loop, TheCopyOfTheSocketIsNotInheritedByProgramsTheHubStarts) {
  explained_in("ch11-attach");
  ping_loop loop;
  ASSERT_TRUE(run_until(loop.io, [&] { return loop.bus.watching(); }));
  const std::vector<int> found = descriptors_connected_to(loop.server.port());
  ASSERT_EQ(found.size(), 2U) << "the client's descriptor of its socket, and the io_context's copy";
  int closed_on_exec = 0;
  for (const int fd : found) closed_on_exec += (::fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0 ? 1 : 0;
  EXPECT_GE(closed_on_exec, 1)
      << "the io_context's copy of the bus's socket should close on exec (FD_CLOEXEC), so that a "
         "program the hub starts does not inherit the connection";
}

// Every descriptor this process may open, taken (by opening /dev/null)
// but `left`; given back when it goes.
class descriptors_used_up {
public:
  explicit descriptors_used_up(std::size_t left) {
    for (int fd; (fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0;) taken_.push_back(fd);
    for (; left > 0 && !taken_.empty(); --left) give_back_one();
  }
  ~descriptors_used_up() {
    while (!taken_.empty()) give_back_one();
  }
  descriptors_used_up(const descriptors_used_up&) = delete;
  descriptors_used_up& operator=(const descriptors_used_up&) = delete;

private:
  void give_back_one() {
    ::close(taken_.back());
    taken_.pop_back();
  }
  std::vector<int> taken_;
};

TEST(Loop, AConnectionThatFindsNoDescriptorForItsCopyIsTriedAgain) {
  explained_in("ch11-attach");
  ch11::nats_server server;
  asio::io_context io(1);
  rdv::hubs::nats_connection bus(io);
  // One descriptor left for a second: each attempt's socket takes it, and
  // its copy for the io_context finds none.
  std::optional<descriptors_used_up> all_but_one(std::in_place, 1);
  std::thread give_back([&] {
    std::this_thread::sleep_for(1s);
    all_but_one.reset();
  });
  ASSERT_NO_THROW(bus.connect(server.url(), 15s))
      << "out of descriptors is a failed attempt, for the client to try again, not the end of "
         "the hub";
  give_back.join();
  std::vector<std::string> got;
  bus.subscribe("ping", [&](const rdv::hubs::bus_message& m) { got.emplace_back(m.data); });
  ASSERT_EQ(bus.publish("ping", "", "?"), sent::yes);
  EXPECT_TRUE(run_until(io, [&] { return !got.empty(); }));
}

// A NATS server of the test's own, for what a real one does not do on cue:
// it greets one client and answers its pings, and once the client has
// subscribed, it sends a message on that subscription and, in the same
// write, the error that ends a connection (the server's "Stale Connection"),
// then closes it and greets nobody after.
void last_words(ch10::scripted_backend& b) {
  asio::ip::tcp::socket s = b.accept();
  const auto say = [&s](const std::string& what) { asio::write(s, asio::buffer(what)); };
  say(R"(INFO {"server_id":"last-words","version":"2.9.0","proto":1,"host":"127.0.0.1",)"
      R"("port":)" +
      std::to_string(b.endpoint().port()) + R"(,"max_payload":1048576,"headers":true})" + "\r\n");
  for (std::string heard;;) {
    const auto end = heard.find("\r\n");
    if (end == std::string::npos) {
      heard += b.read_some(s);
      continue;
    }
    std::istringstream words(heard.substr(0, end));
    heard.erase(0, end + 2);
    std::string verb, subject, sid;
    words >> verb >> subject >> sid;
    if (verb == "PING") say("PONG\r\n");
    if (verb == "SUB") {
      return say("MSG " + subject + " " + sid + " 4\r\nlast\r\n-ERR 'Stale Connection'\r\n");
    }
  }
}

TEST(Loop, AMessageThatCameWithTheConnectionsEndIsHandedOut) {
  explained_in("ch11-loop");
  ch10::scripted_backend server(last_words);
  asio::io_context io(1);
  rdv::hubs::nats_connection bus(io);
  bus.connect("nats://127.0.0.1:" + std::to_string(server.endpoint().port()), 5s);
  std::vector<std::string> got;
  bus.subscribe("replies", [&](const rdv::hubs::bus_message& m) { got.emplace_back(m.data); });
  EXPECT_TRUE(run_until(io, [&] { return !got.empty(); }))
      << "the message came in the same read as the error that ended the connection, and it was "
         "never handed out (this server does not come back, so no later read hands it out)";
  EXPECT_EQ(got, std::vector<std::string>{"last"});
  EXPECT_FALSE(bus.connected());
  server.join();
  EXPECT_EQ(server.failure(), "");
}

TEST(Loop, ConnectGivesUpWithOneLineWhenNoServerListens) {
  explained_in("ch11-loop");
  asio::io_context io(1);
  rdv::hubs::nats_connection bus(io);
  const auto started = std::chrono::steady_clock::now();
  try {
    bus.connect("nats://127.0.0.1:" + std::to_string(ch10::refused_port()), 500ms);
    ADD_FAILURE() << "connect() to a port nobody listens on should throw";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, 4s)
      << "it should give up after its patience";
}

}  // namespace
