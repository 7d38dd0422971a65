// Chapter 11's hubs on a real bus: a reply may reach any hub, and the one
// that holds the client answers.
#include "nats_fixture.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"

#include <algorithm>
#include <future>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace std::chrono_literals;
using rdv::test::explained_in;

// A peer on the bus that is no hub: it speaks NATS's text protocol itself,
// through the tests' client (whose reads wait 10 s at most, and end at once
// when a hub reached an exercise stub).
class bus_peer {
public:
  // Connects, as `user` with `password` if a user is given.
  explicit bus_peer(std::uint16_t port, std::string_view user = {}, std::string_view password = {})
      : server_(port) {
    (void)line();  // the server's INFO
    std::string hello = "CONNECT {\"verbose\":false,\"pedantic\":false";
    if (!user.empty()) {
      hello += ",\"user\":\"" + std::string(user) + "\",\"pass\":\"" + std::string(password) + '"';
    }
    send(hello + "}\r\n");
  }
  void send(std::string_view bytes) { server_.send(bytes); }
  // Subscribes to `subject`; returns once the server has it (PING, PONG).
  void subscribe(std::string_view subject) {
    send("SUB " + std::string(subject) + " 1\r\nPING\r\n");
    while (line().value_or("PONG") != "PONG") {}
  }
  // What the server says up to its PONG to a PING sent now (by then it has
  // handled everything sent before), or up to the end if it hangs up.
  std::string until_pong() {
    try {
      send("PING\r\n");
    } catch (const rdv::test::network_error&) {  // a server that hung up already
    }
    std::string said;
    for (std::optional<std::string> l; (l = line()) && *l != "PONG";) said += *l + '\n';
    return said;
  }
  // The next line that starts with `word`, the others skipped.
  std::string next(std::string_view word) {
    for (std::optional<std::string> l; (l = line());) {
      if (l->starts_with(word)) return *l;
    }
    throw std::runtime_error("the server hung up, or said nothing for 10 s, before \"" +
                             std::string(word) + '"');
  }

private:
  // The next line, or nothing at the end of the stream or after 10 s of
  // silence.
  std::optional<std::string> line() {
    try {
      return server_.read_line();
    } catch (const rdv::test::network_error&) {
      return std::nullopt;
    }
  }
  rdv::test::client server_;
};

TEST(Bus, IdsNameTheirHub) {
  explained_in("ch11-ids");
  ch11::nats_server bus;
  ch10::test_backend backend;
  ch10::hub hub = ch11::bus_hub(bus, "east-1", {"--backend", backend.address()});
  rdv::test::client client(hub.front());
  client.send(ch10::get("/x"));
  const ch10::forwarded f = backend.next();
  EXPECT_TRUE(std::regex_match(f.id(), std::regex("east-1\\.[0-9a-f]{32}"))) << f.id();
  EXPECT_EQ(f.field("X-Hub-Reply-To"),
            "http://127.0.0.1:" + std::to_string(hub.replies()) + "/reply/" + f.id())
      << "the reply address is still the holding hub's own";
  EXPECT_EQ(ch10::post_reply(hub.replies(), f.id(), ch11::reply_saying("local")).status, 204);
  EXPECT_EQ(client.read_response().body, "local");
}

TEST(Bus, AReplyPostedToAnotherHubReachesTheClient) {
  explained_in("ch11-route");
  ch11::two_hubs hubs;
  rdv::test::client client(hubs.holder.front());
  client.send(ch10::get("/routed"));
  const std::string id = hubs.backend.next().id();
  const auto started = std::chrono::steady_clock::now();
  const rdv::test::response verdict =
      ch10::post_reply(hubs.other.replies(), id, ch11::reply_saying("via the bus"));
  EXPECT_EQ(verdict.status, 204) << "the holding hub's verdict: " << verdict.raw << '\n'
                                 << "holder:\n"
                                 << hubs.holder.output() << "other:\n"
                                 << hubs.other.output();
  EXPECT_LT(std::chrono::steady_clock::now() - started, 1s);
  const rdv::test::response answer = client.read_response();
  EXPECT_EQ(answer.status, 200);
  EXPECT_EQ(answer.body, "via the bus");
  EXPECT_EQ(ch11::bus_stats(hubs.other).at("routed_out").as_int64(), 1);
  EXPECT_EQ(ch11::bus_stats(hubs.other).at("awaiting").as_int64(), 0)
      << "the verdict came: nothing should wait for it any more";
  EXPECT_EQ(ch11::bus_stats(hubs.holder).at("routed_in").as_int64(), 1);
  EXPECT_EQ(hubs.holder.stat("replied"), 1);
}

TEST(Bus, OnlyTheFirstReplyIsDeliveredWhicheverHubItReached) {
  explained_in("ch11-route");
  ch11::two_hubs hubs;
  rdv::test::client client(hubs.holder.front());
  client.send(ch10::get("/twice"));
  const std::string id = hubs.backend.next().id();
  EXPECT_EQ(ch10::post_reply(hubs.other.replies(), id, ch11::reply_saying("first")).status, 204);
  EXPECT_EQ(ch10::post_reply(hubs.holder.replies(), id, ch11::reply_saying("second")).status, 404);
  EXPECT_EQ(ch10::post_reply(hubs.other.replies(), id, ch11::reply_saying("third")).status, 404)
      << "a routed reply for a client answered already gets the hubs.holder's 404";
  EXPECT_EQ(client.read_response().body, "first");
  EXPECT_EQ(hubs.holder.stat("late_replies"), 2);
  EXPECT_EQ(ch11::bus_stats(hubs.other).at("routed_out").as_int64(), 2)
      << "two replies routed, each answered with a verdict: a 204, then a 404";
}

TEST(Bus, ARoutedReplyForNobodyGets404) {
  explained_in("ch11-route");
  ch11::two_hubs hubs;
  const std::string unknown = "holder." + std::string(32, '0');
  EXPECT_EQ(ch10::post_reply(hubs.other.replies(), unknown, ch11::reply_saying("x")).status, 404);
  // A malformed reply is refused where it was posted, and never routed.
  EXPECT_EQ(ch10::post_reply(hubs.other.replies(), unknown,
                             ch10::http_message("HTTP/1.1 204 No Content", "body"))
                .status,
            400);
  EXPECT_EQ(ch10::post_reply(hubs.other.replies(), "Holder." + std::string(32, '0'),
                             ch11::reply_saying("x"))
                .status,
            400);
  EXPECT_EQ(ch11::bus_stats(hubs.holder).at("routed_in").as_int64(), 1);
}

TEST(Bus, AVerdictFromAPeerThatGuessesTicketsIsIgnored) {
  explained_in("ch11-hostile");
  ch11::two_hubs hubs;
  // A reply for a hub nobody runs: no verdict will come but a forged one.
  bus_peer forger(hubs.bus.port());
  forger.subscribe("rdv.hub.ghost");  // only to know when the reply is out
  auto posted = std::async(std::launch::async, [&] {
    return ch10::post_reply(hubs.other.replies(), "ghost." + std::string(32, '0'),
                            ch11::reply_saying("x"));
  });
  forger.next("MSG rdv.hub.ghost");
  std::string guesses;  // "204" for the first hundred tickets a counter would give
  for (int ticket = 0; ticket <= 100; ++ticket) {
    guesses += "PUB rdv.verdict.other." + std::to_string(ticket) + " 3\r\n204\r\n";
  }
  forger.send(guesses);
  const rdv::test::response r = posted.get();
  EXPECT_EQ(r.status, 503) << "a verdict for a ticket anyone could guess was believed:\n" << r.raw;
}

// A peer plays a hub called "ghost" and answers each route twice at once:
// 204, then a late 404. Each route must wait with a ticket of its own, as
// random as a request id, and take only the first verdict for it.
TEST(Bus, EachRouteWaitsWithATicketOfItsOwnThatNobodyCanGuess) {
  explained_in("ch11-hostile");
  ch11::two_hubs hubs;
  bus_peer ghost(hubs.bus.port());
  ghost.subscribe("rdv.hub.ghost");
  const std::string digits(32, 'a');
  rdv::test::client worker(hubs.other.replies());  // one kept-alive connection
  std::vector<std::string> tickets;
  for (int route = 1; route <= 2; ++route) {
    worker.send(ch10::reply_request("ghost." + digits, ch11::reply_saying("x")));
    std::istringstream routed(ghost.next("MSG rdv.hub.ghost"));  // MSG subject sid reply-to size
    std::string word, subject, sid, reply_to;
    routed >> word >> subject >> sid >> reply_to;
    tickets.push_back(reply_to.substr(reply_to.rfind('.') + 1));
    ghost.send("PUB " + reply_to + " 3\r\n204\r\nPUB " + reply_to + " 3\r\n404\r\n");
    const rdv::test::response r = worker.read_response();
    EXPECT_EQ(r.status, 204) << "route " << route << " should take the first verdict for its "
                             << "own ticket, not a late one for another route's\n"
                             << r.raw;
  }
  for (const std::string& ticket : tickets) {
    EXPECT_TRUE(
        ticket.size() == 32 &&
        std::all_of(ticket.begin(), ticket.end(),
                    [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }))
        << "a ticket should be as random as a request id (tickets_), not \"" << ticket << '"';
    EXPECT_NE(ticket, digits) << "the id is known to whoever saw the reply: no ticket";
  }
  EXPECT_NE(tickets[0], tickets[1]) << "two routes of one id need two tickets";
  // Random tickets share a first eight digits once in 2^32 pairs; a counter
  // written out in 32 digits shares nearly all of them.
  const auto shared = std::mismatch(tickets[0].begin(), tickets[0].end(), tickets[1].begin());
  EXPECT_LT(shared.first - tickets[0].begin(), 8)
      << "tickets " << tickets[0] << " and " << tickets[1]
      << " differ only at their end: the next one is easy to guess";
  EXPECT_EQ(ch11::bus_stats(hubs.other).at("awaiting").as_int64(), 0);
}

TEST(Bus, WhatIsNoRoutedReplyForTheHubIsIgnored) {
  explained_in("ch11-hostile");
  ch11::two_hubs hubs;
  rdv::test::client client(hubs.holder.front());
  client.send(ch10::get("/held"));
  const std::string id = hubs.backend.next().id();
  bus_peer peer(hubs.bus.port());
  peer.subscribe("peer.verdicts");  // where a verdict to the forgeries would come
  const auto publish = [&peer](std::string_view reply_to, const std::string& data) {
    peer.send("PUB rdv.hub.holder " + std::string(reply_to) + (reply_to.empty() ? "" : " ") +
              std::to_string(data.size()) + "\r\n" + data + "\r\n");
  };
  publish("peer.verdicts", "no id, no reply");
  publish("peer.verdicts", id + "\nnot a response");
  publish("", id + '\n' + ch11::reply_saying("forged"));  // no subject for the verdict
  const std::string digits = id.substr(id.find('.') + 1);
  publish("peer.verdicts", "other." + digits + '\n' + ch11::reply_saying("for another hub"));
  publish("peer.verdicts", "holder2." + digits + '\n' + ch11::reply_saying("a longer name"));
  publish("peer.verdicts", "holde." + digits + '\n' + ch11::reply_saying("a shorter name"));
  // Once the server has them all (its PONG), it delivers them to the holder
  // before anything published later: the forgeries, then this.
  std::string heard = peer.until_pong();
  const rdv::test::response verdict =
      ch10::post_reply(hubs.other.replies(), id, ch11::reply_saying("genuine"));
  EXPECT_EQ(verdict.status, 204) << verdict.raw << "\nholder:\n" << hubs.holder.output();
  EXPECT_EQ(client.read_response().body, "genuine") << client.transcript();
  EXPECT_EQ(ch11::bus_stats(hubs.holder).at("routed_in").as_int64(), 1);
  heard += peer.until_pong();
  EXPECT_EQ(heard.find("MSG peer.verdicts"), std::string::npos)
      << "a hub answers no message that is not a routed reply for one of its own ids:\n"
      << heard;
}

// A NATS server that lets in only its users: `hub`, which may use rdv.>,
// and `guest`, which may use chat.> only.
struct guarded_bus {
  ch11::scratch_dir dir;
  std::string config = dir.write("nats.conf", R"(authorization {
  users = [
    {user: hub, password: "hub-secret", permissions: {publish: "rdv.>", subscribe: "rdv.>"}},
    {user: guest, password: "guest", permissions: {publish: "chat.>", subscribe: "chat.>"}}
  ]
})");
  std::string credentials =
      dir.write("hub.credentials", "# the hubs' user\nuser hub\npassword hub-secret\n");
  ch11::nats_server bus{{"-c", config}};
};

TEST(Bus, WithCredentialsTheHubsRouteAndNobodyElseSpeaksForThem) {
  explained_in("ch11-hostile");
  guarded_bus guarded;
  ch10::test_backend backend;
  const std::vector<std::string> args{"--backend", backend.address(), "--bus-credentials",
                                      guarded.credentials};
  ch10::hub holder = ch11::bus_hub(guarded.bus, "holder", args);
  ch10::hub other = ch11::bus_hub(guarded.bus, "other", args);
  rdv::test::client client(holder.front());
  client.send(ch10::get("/held"));
  const std::string id = backend.next().id();
  EXPECT_EQ(ch10::post_reply(other.replies(), id, ch11::reply_saying("routed")).status, 204)
      << "hubs with the bus's credentials route as before";
  EXPECT_EQ(client.read_response().body, "routed");

  bus_peer stranger(guarded.bus.port());  // no credentials at all
  EXPECT_NE(stranger.until_pong().find("Authorization Violation"), std::string::npos)
      << "a client without credentials should not be let onto the bus";
  bus_peer guest(guarded.bus.port(), "guest", "guest");
  guest.send("PUB rdv.hub.holder 3\r\n204\r\n");
  EXPECT_NE(guest.until_pong().find("Permissions Violation"), std::string::npos)
      << "a user without rdv.> should not publish on the hubs' subjects";
}

TEST(Bus, AHubWithoutTheBusCredentialsExitsWithOneLine) {
  explained_in("ch11-hostile");
  guarded_bus guarded;
  const auto run =
      rdv::test::run_to_end(rdv::test::built_program("hub"),
                            {"--bus", guarded.bus.url(), "--hub-id", "intruder", "--listen",
                             "127.0.0.1:0", "--reply-listen", "127.0.0.1:0"});
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_EQ(run.out.find("listening"), std::string::npos) << "no listening line without a bus";
}

// Hubs on `bus` (at `url`) as `holder` and `other`, proving themselves with
// `credentials`; a client held at `holder` gets a reply posted at `other`.
void route_one(const ch11::nats_server& bus, const std::string& url,
               const std::string& credentials) {
  ch10::test_backend backend;
  const auto hub = [&](const std::string& name) {
    return ch10::hub({"--bus", url, "--hub-id", name, "--backend", backend.address(),
                      "--bus-credentials", credentials});
  };
  ch10::hub holder = hub("holder");
  ch10::hub other = hub("other");
  rdv::test::client client(holder.front());
  client.send(ch10::get("/held"));
  const std::string id = backend.next().id();
  EXPECT_EQ(ch10::post_reply(other.replies(), id, ch11::reply_saying("routed")).status, 204)
      << "the hubs should route as they do on an open bus; the bus said:\n"
      << bus.output();
  EXPECT_EQ(client.read_response().body, "routed");
}

// A hub started on `url` with `credentials`, which must not get onto the bus.
void refused(const std::string& url, const std::string& credentials, const char* why) {
  const auto run =
      rdv::test::run_to_end(rdv::test::built_program("hub"),
                            {"--bus", url, "--hub-id", "intruder", "--bus-credentials", credentials,
                             "--listen", "127.0.0.1:0", "--reply-listen", "127.0.0.1:0"});
  EXPECT_EQ(run.status, 1) << why << "\n" << run.err;
  EXPECT_EQ(run.out.find("listening"), std::string::npos) << why;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << "one line:\n" << run.err;
}

TEST(Bus, WithAnNkeyTheHubsRouteAndAnotherKeyIsRefused) {
  explained_in("ch11-credentials");
  ch11::scratch_dir dir;
  const ch11::user_nkey hubs = ch11::make_user_nkey(dir);
  ch11::nats_server bus{
      {"-c", dir.write("nats.conf", "authorization {\n  users = [\n    {nkey: " + hubs.public_key +
                                        ", permissions: {publish: \"rdv.>\", "
                                        "subscribe: \"rdv.>\"}}\n  ]\n}\n")}};
  route_one(bus, bus.url(),
            dir.write("hub.credentials", "nkey " + hubs.public_key + "\nseed user.nk\n"));

  ch11::scratch_dir elsewhere;
  const ch11::user_nkey stranger = ch11::make_user_nkey(elsewhere);
  refused(bus.url(),
          elsewhere.write("hub.credentials", "nkey " + stranger.public_key + "\nseed user.nk\n"),
          "a key the bus does not know should not get a hub onto it");
  // The bus's public key with a seed that is not its: the signature fails.
  refused(bus.url(),
          elsewhere.write("forged.credentials", "nkey " + hubs.public_key + "\nseed user.nk\n"),
          "the hubs' public key without their seed should not get a hub onto the bus");
}

TEST(Bus, OverTlsAHubTrustsTheCertificateAuthorityItIsGiven) {
  explained_in("ch11-credentials");
  ch11::scratch_dir dir;
  const std::string certificate = ch11::make_certificate(dir);
  ch11::nats_server bus{
      {"-c", dir.write("nats.conf", "tls {\n  cert_file: \"" + certificate + "\"\n  key_file: \"" +
                                        dir.path() + "/bus.key\"\n}\n")}};
  route_one(bus, bus.url("tls"), dir.write("hub.credentials", "ca bus.pem\n"));

  ch11::scratch_dir elsewhere;
  const std::string unknown = ch11::make_certificate(elsewhere);  // another authority
  refused(bus.url("tls"), elsewhere.write("hub.credentials", "ca " + unknown + "\n"),
          "a bus whose certificate no trusted authority signed should be refused");
}

TEST(Bus, AReplyTooLargeForTheBusGets413AndTheHolderStillTakesIt) {
  explained_in("ch11-route");
  ch11::two_hubs hubs;
  rdv::test::client client(hubs.holder.front());
  client.send(ch10::get("/large"));
  const std::string id = hubs.backend.next().id();
  // Within the reply port's 1 MiB, but with its id and head, over NATS's.
  const std::string body(1024 * 1024 - 100, 'x');
  const rdv::test::response routed = ch10::post_reply(hubs.other.replies(), id, body, "text/plain");
  EXPECT_EQ(routed.status, 413) << "trying again cannot help, so not 503:\n"
                                << routed.raw.substr(0, 300);
  const boost::json::object stats = ch11::bus_stats(hubs.other);
  EXPECT_TRUE(stats.at("connected").as_bool());
  EXPECT_EQ(stats.at("awaiting").as_int64(), 0)
      << "nothing waits for a verdict of a reply that was never sent";
  EXPECT_EQ(stats.at("routed_out").as_int64(), 0) << "the reply never went out on the bus";
  EXPECT_EQ(stats.at("route_failures").as_int64(), 0)
      << "route_failures counts the 503s (no bus, or no verdict in time), which a retry may "
         "mend; a 413 is the reply's own fault";
  EXPECT_EQ(ch10::post_reply(hubs.holder.replies(), id, body, "text/plain").status, 204);
  EXPECT_EQ(client.read_response().body.size(), body.size());
}

TEST(Bus, TheBussOwnLimitOnAMessageDecidesWhatIsTooLarge) {
  explained_in("ch11-route");
  ch11::scratch_dir dir;
  ch11::nats_server bus({"-c", dir.write("nats.conf", "max_payload: 65536\n")});
  ch10::test_backend backend;
  ch10::hub holder = ch11::bus_hub(bus, "holder", {"--backend", backend.address()});
  ch10::hub other = ch11::bus_hub(bus, "other", {"--backend", backend.address()});
  rdv::test::client client(holder.front());
  client.send(ch10::get("/large"));
  const std::string id = backend.next().id();
  const std::string body(100 * 1024, 'x');  // over this bus's 64 KiB, far within 1 MiB
  const rdv::test::response routed = ch10::post_reply(other.replies(), id, body, "text/plain");
  EXPECT_EQ(routed.status, 413) << "the limit is the one the server announced (INFO's "
                                   "max_payload), and trying again cannot help:\n"
                                << routed.raw.substr(0, 300);
  EXPECT_EQ(ch11::bus_stats(other).at("route_failures").as_int64(), 0);
  EXPECT_EQ(ch10::post_reply(holder.replies(), id, body, "text/plain").status, 204);
  EXPECT_EQ(client.read_response().body.size(), body.size());
}

TEST(Bus, RoutesWithoutASubscriptionForEachReply) {
  explained_in("ch11-route");
  ch11::nats_server bus({"-m", "-1"});  // its monitoring port counts subscriptions
  ch10::test_backend backend;
  ch10::hub holder = ch11::bus_hub(bus, "holder", {"--backend", backend.address()});
  ch10::hub other = ch11::bus_hub(bus, "other", {"--backend", backend.address()});
  const auto route_one = [&] {
    rdv::test::client client(holder.front());
    client.send(ch10::get("/counted"));
    const std::string id = backend.next().id();
    ASSERT_EQ(ch10::post_reply(other.replies(), id, ch11::reply_saying("routed")).status, 204);
    EXPECT_EQ(client.read_response().body, "routed");
  };
  route_one();  // every subscription a hub makes at its start is in place by now
  const std::int64_t before = ch11::subscriptions(bus);
  for (int i = 0; i < 5; ++i) route_one();
  EXPECT_EQ(ch11::subscriptions(bus), before)
      << "five replies routed left subscriptions behind on the bus: a hub takes its verdicts "
         "on the one subscription it made at its start";
}

TEST(Bus, StatsSayWhetherTheHubIsOnTheBus) {
  explained_in("ch11-failures");
  ch11::nats_server bus;
  ch10::hub hub = ch11::bus_hub(bus, "h");
  const boost::json::object stats = ch11::bus_stats(hub);
  EXPECT_EQ(stats.at("hub").as_string(), "h") << "behind --reuse-port, which hub answered";
  EXPECT_TRUE(stats.at("connected").as_bool());
  for (const char* counter : {"routed_out", "routed_in", "route_failures", "awaiting"}) {
    EXPECT_EQ(stats.at(counter).as_int64(), 0) << counter;
  }
  ch10::hub lone({});
  EXPECT_FALSE(lone.stats().contains("bus")) << "a hub without --bus has no bus counters";
}

}  // namespace
