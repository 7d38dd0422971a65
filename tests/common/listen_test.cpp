// Tests of the course's shared library (solutions/common): opening a listener.
#include "rdv/server.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

TEST(Listen, SaysPlainlyThatThePortIsTakenAndWhatToDo) {
  asio::io_context context;
  tcp::acceptor holder(context, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const unsigned short port = holder.local_endpoint().port();
  try {
    rdv::listen(context, {"127.0.0.1", port}, "http");
    FAIL() << "listening on 127.0.0.1:" << port
           << ", which another socket listens on, should throw";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cannot listen for http on 127.0.0.1:" + std::to_string(port)),
              std::string::npos)
        << "the message names the role and the address; it was: " << what;
    EXPECT_NE(what.find("another program listens there"), std::string::npos)
        << "the message says what to do; it was: " << what;
    EXPECT_EQ(what.find(".hpp"), std::string::npos)
        << "the message speaks to a person, not of the library's source; it was: " << what;
  }
}

TEST(Listen, PortZeroPicksAFreePort) {
  asio::io_context context;
  tcp::acceptor acceptor = rdv::listen(context, {"127.0.0.1", 0}, "http");
  EXPECT_NE(acceptor.local_endpoint().port(), 0);
}

}  // namespace
