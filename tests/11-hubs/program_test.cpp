// Chapter 11's hub as a program: chapter 10's flags and three more, and one
// hub per core sharing its ports.
#include "../10-hub/ids.hpp"
#include "nats_fixture.hpp"

#include "request_id.hpp"

#include "rdv/test/book.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <set>

namespace {

using namespace std::chrono_literals;
using rdv::test::explained_in;

TEST(Program, KeepsEveryFlagOfChapter10AndAddsTheBusFlags) {
  explained_in("ch11-main");
  const auto help = rdv::test::run_to_end(rdv::test::built_program("hub"), {"--help"});
  EXPECT_EQ(help.status, 0);
  for (const char* flag : {"--listen", "--reply-listen", "--backend", "--timeout-ms",
                           "--backend-timeout-ms", "--send-timeout-ms", "--max-pending",
                           "--reply-token", "--bus", "--hub-id", "--reuse-port"}) {
    EXPECT_NE(help.out.find(flag), std::string::npos) << flag << " is missing from:\n" << help.out;
  }
  for (const char* bad : {"Upper", "has.dot", "seventeen-letters", "a/b"}) {
    const auto run = rdv::test::run_to_end(
        rdv::test::built_program("hub"),
        {"--hub-id", bad, "--listen", "127.0.0.1:0", "--reply-listen", "127.0.0.1:0"});
    EXPECT_EQ(run.status, 2) << "--hub-id " << bad << '\n' << run.err;
  }
}

TEST(Program, WithoutABusItIsChapter10sHub) {
  explained_in("ch11-main");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address()});
  rdv::test::client client(hub.front());
  client.send(ch10::get("/alone"));
  const std::string id = backend.next().id();
  EXPECT_TRUE(ch10::is_lone_hub_id(id)) << id << ": a lone hub's ids are 32 hex digits";
  EXPECT_EQ(ch10::post_reply(hub.replies(), id, ch11::reply_saying("alone")).status, 204);
  EXPECT_EQ(client.read_response().body, "alone");
  EXPECT_EQ(hub.program().stop(), 0);
}

TEST(Program, HubsWithReusePortShareThePortsAndRouteWhatLandsOnTheWrongOne) {
  explained_in("ch11-reuse");
  ch11::nats_server bus;
  ch10::test_backend backend;
  ch10::hub first = ch11::bus_hub(bus, "core0", {"--backend", backend.address(), "--reuse-port"});
  const std::string front = "127.0.0.1:" + std::to_string(first.front());
  const std::string replies = "127.0.0.1:" + std::to_string(first.replies());
  // The second hub listens on the first one's ports (the fixture's
  // --listen 127.0.0.1:0 is overridden by the later flags).
  ch10::hub second = ch11::bus_hub(bus, "core1",
                                   {"--backend", backend.address(), "--reuse-port", "--listen",
                                    front, "--reply-listen", replies});
  ASSERT_EQ(second.front(), first.front());
  ASSERT_EQ(second.replies(), first.replies());
  // The kernel spreads connections over both hubs; every client gets its
  // answer, whichever hub holds it and whichever one its reply reaches.
  constexpr int clients = 40;
  std::vector<std::unique_ptr<rdv::test::client>> held;
  std::set<std::string> hubs;
  for (int i = 0; i < clients; ++i) {
    held.push_back(std::make_unique<rdv::test::client>(first.front()));
    held.back()->send(ch10::get("/c" + std::to_string(i)));
  }
  std::vector<std::string> ids;
  for (const ch10::forwarded& f : backend.next(clients))
    ids.push_back(f.id()), hubs.insert(f.id().substr(0, 5));
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const rdv::test::response r =
        ch10::post_reply(first.replies(), ids[i], ch11::reply_saying(ids[i]));
    EXPECT_EQ(r.status, 204) << ids[i] << ": " << r.raw;
  }
  std::set<std::string> answered;
  for (auto& c : held) answered.insert(c->read_response().body);
  EXPECT_EQ(answered, std::set<std::string>(ids.begin(), ids.end()));
  EXPECT_EQ(hubs.size(), 2U) << "40 connections all went to one hub: is SO_REUSEPORT set on both?";
  const auto routed = ch11::bus_stats(first).at("routed_out").as_int64() +
                      ch11::bus_stats(second).at("routed_out").as_int64();
  EXPECT_GT(routed, 0) << "some replies should have landed on the other sibling and been routed";
}

TEST(Program, RefusesOnePortForClientsAndReplies) {
  explained_in("ch11-reuse");
  // A port bound here with SO_REUSEPORT: the hub's front binds it beside
  // this socket, as beside another hub's, and nothing can take it between
  // this test choosing it and the hub binding it.
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor held(io, boost::asio::ip::tcp::v4());
  held.set_option(boost::asio::detail::socket_option::boolean<SOL_SOCKET, SO_REUSEPORT>(true));
  held.bind({boost::asio::ip::make_address("127.0.0.1"), 0});
  const std::string port = std::to_string(held.local_endpoint().port());
  for (const char* front : {"127.0.0.1:", "0.0.0.0:"}) {
    const auto run = rdv::test::run_to_end(
        rdv::test::built_program("hub"),
        {"--reuse-port", "--listen", front + port, "--reply-listen", "127.0.0.1:" + port}, {},
        std::chrono::seconds(10));
    EXPECT_EQ(run.status, 1) << front << port << '\n' << run.out << run.err;
    EXPECT_NE(run.err.find("same port"), std::string::npos) << run.err;
    EXPECT_EQ(run.out.find("listening"), std::string::npos)
        << "nothing may wait for a hub that is about to stop:\n"
        << run.out;
  }
}

}  // namespace
