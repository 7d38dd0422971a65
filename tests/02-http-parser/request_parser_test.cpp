#include "request_parser.hpp"
#include <gtest/gtest.h>
TEST(Smoke, Parses) {
  rdv::http::request_parser p;
  std::string_view in = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  auto s = p.next(in);
  EXPECT_EQ(s.what, rdv::http::event::head);
  EXPECT_EQ(p.head().method, "GET");
}
