// Chapter 9, going further: entity tags. Each representation of a resource
// gets its own strong ETag, and a GET whose If-None-Match holds it gets 304
// Not Modified: the client's copy is current, and no body is sent.
// RFC 9110 §8.8.3, §13.1.2. Run: ./course check 09 --further
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/program.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace {

using rdv::test::explained_in;

const std::string server = rdv::test::built_program("rest-server");

class Etags : public ::testing::Test {
protected:
  rdv::test::program p{server, {"--listen", "127.0.0.1:0"}};

  // Sends one request on a connection of its own, and reads the response
  // (to HEAD: without a body); its transcript goes into `raw`.
  rdv::test::response ask(std::string_view request, bool head = false) {
    rdv::test::client c(p.port("http"));
    c.send(request);
    auto r = c.read_response(head);
    r.raw = c.transcript();
    return r;
  }
  rdv::test::response get(std::string_view target, std::string_view accept,
                          std::string_view more = "") {
    return ask("GET " + std::string(target) + " HTTP/1.1\r\nHost: x\r\nAccept: " +
               std::string(accept) + "\r\n" + std::string(more) + "\r\n");
  }
};

constexpr std::string_view json = "application/json";
constexpr std::string_view xml = "application/xml";

TEST_F(Etags, EachRepresentationHasItsOwnStrongEtag) {
  explained_in("ch09-further");
  const auto as_json = get("/chapters/03", json);
  const auto as_xml = get("/chapters/03", xml);
  const std::string tag = as_json.field("ETag");
  ASSERT_FALSE(tag.empty()) << "a GET of /chapters/03 should carry an ETag\n" << as_json.raw;
  EXPECT_TRUE(tag.size() >= 2 && tag.front() == '"' && tag.back() == '"')
      << "a strong entity tag is a quoted string, without W/; got " << tag;
  EXPECT_EQ(get("/chapters/03", json).field("ETag"), tag)
      << "the same representation, unchanged, should keep its ETag";
  EXPECT_FALSE(as_xml.field("ETag").empty()) << as_xml.raw;
  EXPECT_NE(as_xml.field("ETag"), tag)
      << "the JSON and the XML of /chapters/03 are different bytes: a strong ETag names one "
         "representation, so they need different tags";
  EXPECT_FALSE(get("/chapters", json).field("ETag").empty()) << "the collection has one too";
}

TEST_F(Etags, AMatchingIfNoneMatchGets304WithoutABody) {
  explained_in("ch09-further");
  const auto first = get("/chapters/03", json);
  const std::string tag = first.field("ETag");
  ASSERT_FALSE(tag.empty()) << first.raw;
  const auto again = get("/chapters/03", json, "If-None-Match: " + tag + "\r\n");
  EXPECT_EQ(again.status, 304) << "sent If-None-Match with the ETag just received: the client's "
                                  "copy is current, so expected 304 Not Modified\n"
                               << again.raw;
  EXPECT_EQ(again.field("ETag"), tag) << "a 304 carries the ETag the 200 would have\n" << again.raw;
  EXPECT_EQ(again.field("Vary"), "Accept") << "and its Vary\n" << again.raw;
  EXPECT_TRUE(again.body.empty()) << again.raw;
  const auto length = again.field("Content-Length");
  EXPECT_TRUE(length.empty() || length == std::to_string(first.body.size()))
      << "a 304's Content-Length, if any, must be the 200's (RFC 9110 §8.6), not the 304's own "
         "empty body\n"
      << again.raw;
  const auto head = ask("HEAD /chapters/03 HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n"
                        "If-None-Match: " +
                            tag + "\r\n\r\n",
                        true);
  EXPECT_EQ(head.status, 304) << "HEAD with a matching If-None-Match\n" << head.raw;
}

TEST_F(Etags, IfNoneMatchTakesAListWeakTagsAndStar) {
  explained_in("ch09-further");
  const std::string tag = get("/chapters/03", json).field("ETag");
  ASSERT_FALSE(tag.empty());
  for (const std::string& list : {"\"other\", " + tag, "W/" + tag, std::string("*")}) {
    EXPECT_EQ(get("/chapters/03", json, "If-None-Match: " + list + "\r\n").status, 304)
        << "If-None-Match: " << list << " matches " << tag
        << " (by the weak comparison that If-None-Match uses)";
  }
  EXPECT_EQ(get("/chapters/03", json, "If-None-Match: \"other\"\r\n").status, 200);
}

TEST_F(Etags, TheXmlEtagDoesNotMatchTheJson) {
  explained_in("ch09-further");
  const std::string json_tag = get("/chapters/03", json).field("ETag");
  ASSERT_FALSE(json_tag.empty());
  const auto r = get("/chapters/03", xml, "If-None-Match: " + json_tag + "\r\n");
  EXPECT_EQ(r.status, 200) << "asked for the XML with the JSON's ETag in If-None-Match: the "
                              "client has not got the XML, so expected 200 with it\n"
                           << r.raw;
  EXPECT_NE(r.body.find("<title>"), std::string::npos) << "expected the XML\n" << r.raw;
}

TEST_F(Etags, APutThatChangesTheResourceChangesItsEtags) {
  explained_in("ch09-further");
  const std::string json_before = get("/chapters/05", json).field("ETag");
  const std::string xml_before = get("/chapters/05", xml).field("ETag");
  ASSERT_FALSE(json_before.empty());
  const auto put = ask("PUT /chapters/05 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                       "Content-Length: 17\r\n\r\n{\"status\":\"done\"}");
  ASSERT_EQ(put.status, 200) << put.raw;
  const auto json_after = get("/chapters/05", json, "If-None-Match: " + json_before + "\r\n");
  EXPECT_EQ(json_after.status, 200) << "after a PUT changed /chapters/05, the old ETag is stale: "
                                       "If-None-Match with it should get the new JSON\n"
                                    << json_after.raw;
  EXPECT_NE(json_after.field("ETag"), json_before) << json_after.raw;
  EXPECT_NE(get("/chapters/05", xml).field("ETag"), xml_before)
      << "the XML changed too, and so should its ETag";
}

}  // namespace
