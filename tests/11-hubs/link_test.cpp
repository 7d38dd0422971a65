// Chapter 11's ids that name their hub, and the routed reply's wire form:
// unit tests of the link, no bus needed.
#include "bus_link.hpp"
#include "nats_connection.hpp"
#include "nats_fixture.hpp"

#include "rdv/test/book.hpp"

#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

namespace {

using rdv::test::explained_in;

TEST(HubIds, AreOneToSixteenOfLowercaseLettersDigitsAndDashes) {
  explained_in("ch11-ids");
  for (const char* good : {"a", "hub-1", "0123456789abcdef", "eu-west"}) {
    EXPECT_TRUE(rdv::hub::is_hub_name(good)) << good;
  }
  for (const char* bad : {"", "0123456789abcdefg", "Hub", "a.b", "a b", "a_b", "é", "a/b"}) {
    EXPECT_FALSE(rdv::hub::is_hub_name(bad)) << '"' << bad << '"';
  }
  std::set<std::string> names;
  for (int i = 0; i < 100; ++i) {
    const std::string name = rdv::hubs::random_hub_id();
    EXPECT_EQ(name.size(), 8U);
    EXPECT_TRUE(rdv::hub::is_hub_name(name)) << name;
    names.insert(name);
  }
  EXPECT_GT(names.size(), 95U) << "random names should rarely meet";
}

TEST(RoutedReply, ComesOutAsItWentIn) {
  explained_in("ch11-route");
  rdv::hubs::routed_reply sent{*rdv::hub::request_id::parse("a." + std::string(32, 'f')), {}};
  sent.response.status = 201;
  sent.response.reason = "Made";
  sent.response.fields = {{"Content-Type", "text/plain"}, {"X-Job", "7"}};
  sent.response.body = std::string("line one\r\nline two\n\0binary", 26);
  const std::string wire = rdv::hubs::encode(sent);
  const auto got = rdv::hubs::decode(wire);
  ASSERT_TRUE(got.has_value()) << "decode() refused what encode() wrote:\n" << wire;
  EXPECT_EQ(got->id, sent.id);
  EXPECT_EQ(got->response.status, 201);
  EXPECT_EQ(got->response.reason, "Made");
  EXPECT_EQ(got->response.body, sent.response.body);
  ASSERT_EQ(got->response.fields.size(), 2U) << wire;
  EXPECT_EQ(got->response.fields[1], (std::pair<std::string, std::string>{"X-Job", "7"}));
}

TEST(RoutedReply, WhatIsNotOneIsRefused) {
  explained_in("ch11-route");
  const std::string id = "a." + std::string(32, 'f');
  for (const std::string& bad :
       {std::string(), id, id + "\n", id + "\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhi",
        id + "\nHTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nhello",
        id + "\nHTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\nhello",
        id + "\nHTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n",
        id + "\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
        id + "\nnot http", std::string(32, 'f') + "\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
        "A." + std::string(32, 'f') + "\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"}) {
    EXPECT_FALSE(rdv::hubs::decode(bad).has_value())
        << "a message anyone could publish on the bus was taken for a reply:\n"
        << bad;
  }
}

TEST(Credentials, AreAUserOrAnNkeyWithItsSeedAndACertificateAuthority) {
  explained_in("ch11-credentials");
  ch11::scratch_dir dir;
  const std::string seed = dir.write("hub.nk", "SUAFAKE\n");
  const rdv::hubs::bus_credentials nkey = rdv::hubs::read_credentials(
      dir.write("a", "# the hubs' key\nnkey UABC\nseed hub.nk\nca /etc/bus-ca.pem\n"));
  EXPECT_EQ(nkey.nkey, "UABC");
  EXPECT_EQ(nkey.seed_file, seed) << "a relative seed file is beside the credentials file";
  EXPECT_EQ(nkey.ca_file, "/etc/bus-ca.pem");
  EXPECT_TRUE(nkey.user.empty());
  const rdv::hubs::bus_credentials user =
      rdv::hubs::read_credentials(dir.write("b", "user hub\npassword two words\n"));
  EXPECT_EQ(user.user, "hub");
  EXPECT_EQ(user.password, "two words");
  for (const char* wrong : {"", "# only a comment\n", "user hub\nnkey UABC\nseed hub.nk\n",
                            "nkey UABC\n", "nkey UABC\nseed missing.nk\n", "token x\n"}) {
    EXPECT_THROW(rdv::hubs::read_credentials(dir.write("wrong", wrong)), std::runtime_error)
        << "should be refused:\n"
        << wrong;
  }
  EXPECT_THROW(rdv::hubs::read_credentials(dir.path() + "/none"), std::runtime_error);
}

}  // namespace
