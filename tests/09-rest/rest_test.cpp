// Chapter 9: the rest-server's resources over real connections — OPTIONS,
// 405, 406, Vary, and one resource in two representations.
#include "chapters_resource.hpp"
#include "event_loop.hpp"
#include "processes.hpp"
#include "router.hpp"

#include "acceptor.hpp"
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/program.hpp"
#include "rdv/test/server_thread.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using rdv::test::explained_in;

// The rest-server's routes, running in the test process: the chapters
// resource at /chapters, or `mounted` at `prefix`.
struct rest_server {
  explicit rest_server(std::string prefix = "/chapters",
                       std::shared_ptr<rdv::rest::resource> mounted =
                           std::make_shared<rdv::rest::chapters_resource>())
      : thread{rdv::test::server_thread::thread_starter(
                   [prefix, mounted](boost::asio::io_context& io,
                                     boost::asio::ip::tcp::acceptor& acceptor) {
                     auto node = std::make_shared<rdv::proc::scheduler>(
                         rdv::proc::scheduler_options{.crash_log = nullptr});
                     rdv::proc::run_in(io, *node);
                     auto routes = std::make_shared<rdv::rest::router>();
                     routes->mount(prefix, mounted);
                     node->spawn([&acceptor, routes] {
                       rdv::web::accept_connections(
                           acceptor, [routes](rdv::web::request& r) { return routes->handle(r); },
                           {});
                     });
                     return std::shared_ptr<void>(node);
                   }),
               {rdv::test::course_run("09"), 8089}} {}

  rdv::test::server_thread thread;

  // Sends one request and reads its response (to HEAD: without a body).
  rdv::test::response ask(std::string_view request, bool head = false) {
    rdv::test::client c(thread);
    c.send(request);
    auto r = c.read_response(head);
    r.raw = c.transcript();  // for failure messages
    return r;
  }
};

TEST(Resource, IsOneResourceInTwoRepresentations) {
  explained_in("ch09-representations");
  rest_server s;
  const auto as_json =
      s.ask("GET /chapters/03 HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n");
  ASSERT_EQ(as_json.status, 200) << as_json.raw;
  EXPECT_EQ(as_json.field("Content-Type"), "application/json") << as_json.raw;
  EXPECT_EQ(boost::json::parse(as_json.body).at("title").as_string(), "Processes") << as_json.raw;
  const auto as_xml =
      s.ask("GET /chapters/03 HTTP/1.1\r\nHost: x\r\nAccept: application/xml\r\n\r\n");
  ASSERT_EQ(as_xml.status, 200) << as_xml.raw;
  EXPECT_EQ(as_xml.field("Content-Type"), "application/xml") << as_xml.raw;
  pugi::xml_document xml;
  ASSERT_TRUE(xml.load_string(as_xml.body.c_str())) << as_xml.raw;
  EXPECT_STREQ(xml.child("chapter").child("title").text().get(), "Processes");
  EXPECT_EQ(as_json.field("Vary"), "Accept") << "a negotiated response must say it varies\n"
                                             << as_json.raw;
  EXPECT_EQ(as_xml.field("Vary"), "Accept") << as_xml.raw;
}

TEST(Resource, Answers406WithWhatItOffers) {
  explained_in("ch09-negotiation");
  rest_server s;
  const auto r = s.ask("GET /chapters HTTP/1.1\r\nHost: x\r\nAccept: text/html, image/*\r\n\r\n");
  EXPECT_EQ(r.status, 406) << r.raw;
  EXPECT_NE(r.body.find("application/json"), std::string::npos) << r.raw;
  EXPECT_NE(r.body.find("application/xml"), std::string::npos) << r.raw;
  EXPECT_EQ(r.field("Vary"), "Accept") << r.raw;
  EXPECT_EQ(r.field("Allow"), "GET, HEAD, OPTIONS")
      << "a 406 tells what OPTIONS tells, Allow included\n"
      << r.raw;
}

TEST(Resource, Answers405WithAllowForAWrongMethod) {
  explained_in("ch09-methods");
  rest_server s;
  const auto collection = s.ask("DELETE /chapters HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(collection.status, 405) << collection.raw;
  EXPECT_EQ(collection.field("Allow"), "GET, HEAD, OPTIONS") << collection.raw;
  // The collection's own methods, not every method of some path under it.
  const auto put = s.ask("PUT /chapters HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         "Content-Length: 17\r\n\r\n{\"status\":\"done\"}");
  EXPECT_EQ(put.status, 405) << "PUT is allowed on a chapter, not on the collection\n" << put.raw;
  EXPECT_EQ(put.field("Allow"), "GET, HEAD, OPTIONS") << put.raw;
  const auto item = s.ask("POST /chapters/03 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(item.status, 405) << item.raw;
  EXPECT_EQ(item.field("Allow"), "GET, HEAD, PUT, OPTIONS") << item.raw;
  const auto queried = s.ask("DELETE /chapters/03?x=1 HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(queried.status, 405) << queried.raw;
  EXPECT_EQ(queried.field("Allow"), "GET, HEAD, PUT, OPTIONS")
      << "the methods of the resource at the path, which the query is not part of\n"
      << queried.raw;
  // The method comes first: a client that also accepts nothing on offer
  // still learns which methods it may use.
  const auto refused = s.ask("DELETE /chapters HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\n\r\n");
  EXPECT_EQ(refused.status, 405) << refused.raw;
  EXPECT_EQ(refused.field("Allow"), "GET, HEAD, OPTIONS") << refused.raw;
  // Methods are case-sensitive (RFC 9110, section 9.1): "put" is not PUT.
  const auto before = s.ask("GET /chapters/03 HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto lowercase =
      s.ask("put /chapters/03 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 17\r\n\r\n{\"status\":\"done\"}");
  EXPECT_EQ(lowercase.status, 405) << lowercase.raw;
  EXPECT_EQ(lowercase.field("Allow"), "GET, HEAD, PUT, OPTIONS") << lowercase.raw;
  const auto after = s.ask("GET /chapters/03 HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(after.body, before.body) << "a method that is not PUT changes nothing\n" << after.raw;
}

TEST(Resource, Answers404ForWhatIsNotThere) {
  explained_in("ch09-methods");
  rest_server s;
  EXPECT_EQ(s.ask("GET /chapters/42 HTTP/1.1\r\nHost: x\r\n\r\n").status, 404);
  EXPECT_EQ(s.ask("GET /chaptersX HTTP/1.1\r\nHost: x\r\n\r\n").status, 404);
  EXPECT_EQ(s.ask("GET / HTTP/1.1\r\nHost: x\r\n\r\n").status, 404);
  EXPECT_EQ(s.ask("GET /chapters/03/ HTTP/1.1\r\nHost: x\r\n\r\n").status, 404)
      << "/chapters/03/ is not /chapters/03: one resource has one URI";
  EXPECT_EQ(s.ask("GET /Chapters/03 HTTP/1.1\r\nHost: x\r\n\r\n").status, 404)
      << "a path is case-sensitive: /Chapters/03 is not /chapters/03";
  EXPECT_EQ(s.ask("GET /CHAPTERS HTTP/1.1\r\nHost: x\r\n\r\n").status, 404)
      << "a path is case-sensitive: /CHAPTERS is not /chapters";
  const auto options = s.ask("OPTIONS /chapters/42 HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(options.status, 404) << "no resource, so nothing to tell about it\n" << options.raw;
}

TEST(Resource, IsFoundByThePathWithoutTheQuery) {
  explained_in("ch09-methods");
  rest_server s;
  const auto r = s.ask("GET /chapters/03?fields=title HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(r.status, 200) << r.raw;
  EXPECT_EQ(s.ask("GET /chapters/42?fields=title HTTP/1.1\r\nHost: x\r\n\r\n").status, 404);
  const auto collection = s.ask("GET /chapters?fields=title HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(collection.status, 200) << "the mount point itself, with a query\n" << collection.raw;
}

TEST(Resource, ReadsAcceptInAnyCaseAndFromEveryLine) {
  explained_in("ch09-accept");
  rest_server s;
  const struct {
    const char* accept_lines;  // whole field lines, each with its CRLF
    int status;
    const char* type;  // of a 200
    const char* why;
  } cases[] = {
      {"accept: application/xml\r\n", 200, "application/xml", "field names are case-insensitive"},
      {"aCcEpT: application/xml\r\n", 200, "application/xml", "in any case"},
      {"Accept: text/html\r\nAccept: application/xml\r\n", 200, "application/xml",
       "two Accept lines are one list"},
      {"Accept: */*\r\nAccept: application/json;q=0\r\n", 200, "application/xml",
       "a refusal on the second line counts"},
      {"Accept: application/json;q=0.5\r\nAccept: application/json;q=0\r\n", 200,
       "application/json", "the lines are one list in their order: of two equal ranges, the first"},
      {"Accept: application/xml, garbage\r\n", 200, "application/xml",
       "an element that does not parse costs only itself"},
      {"Accept: text/html, garbage\r\n", 406, "", "and the rest still refuses both"},
      {"Accept: text/html\r\nAccept: garbage\r\n", 406, "",
       "a line with nothing usable on it leaves the other lines' refusal standing"},
      {"Accept:\r\nAccept: application/xml\r\n", 200, "application/xml",
       "an empty line adds nothing to the list"},
  };
  for (const auto& c : cases) {
    const auto r =
        s.ask(std::string("GET /chapters/03 HTTP/1.1\r\nHost: x\r\n") + c.accept_lines + "\r\n");
    EXPECT_EQ(r.status, c.status) << c.why << '\n' << r.raw;
    if (c.status == 200) {
      EXPECT_EQ(r.field("Content-Type"), c.type) << c.why << '\n' << r.raw;
    }
  }
}

// A resource at /stub, in JSON only, that answers GET with the fields it
// was given: to see what the router adds to them.
class stub_resource : public rdv::rest::resource {
public:
  explicit stub_resource(rdv::test::field_lines fields) : fields_(std::move(fields)) {}
  std::vector<std::string_view> allowed(std::string_view path) const override {
    if (path != "/stub") return {};
    return {"GET", "HEAD", "OPTIONS"};
  }
  std::vector<std::string_view> representations(std::string_view) const override {
    return {"application/json"};
  }
  rdv::web::response respond(rdv::web::request&, std::string_view, std::string_view) override {
    rdv::web::response r;
    r.fields = fields_;
    r.body = "{}";
    return r;
  }

private:
  rdv::test::field_lines fields_;
};

TEST(Resource, GetsTheChosenContentTypeUnlessItsAnswerHasOne) {
  explained_in("ch09-negotiation");
  const struct {
    rdv::test::field_lines fields;  // of the resource's answer
    const char* type;               // the one Content-Type the client gets
    const char* why;
  } cases[] = {
      {{{"Cache-Control", "no-cache"}},
       "application/json",
       "an answer with fields, none of them Content-Type, gets the negotiated type"},
      {{{"content-type", "text/plain"}},
       "text/plain",
       "a field name in any case is the same field: the answer has its Content-Type"},
  };
  for (const auto& c : cases) {
    rest_server s("/stub", std::make_shared<stub_resource>(c.fields));
    const auto r = s.ask("GET /stub HTTP/1.1\r\nHost: x\r\n\r\n");
    ASSERT_EQ(r.status, 200) << r.raw;
    EXPECT_EQ(rdv::test::field_count(r.fields, "Content-Type"), 1u) << c.why << '\n' << r.raw;
    EXPECT_EQ(r.field("Content-Type"), c.type) << c.why << '\n' << r.raw;
    EXPECT_EQ(r.field("Vary"), "Accept") << r.raw;
  }
}

TEST(Options, OnAResourceTellsItsMethodsAndRepresentations) {
  explained_in("ch09-options");
  rest_server s;
  const auto r = s.ask("OPTIONS /chapters/05 HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(r.status, 200) << r.raw;
  EXPECT_EQ(r.field("Allow"), "GET, HEAD, PUT, OPTIONS") << r.raw;
  EXPECT_EQ(r.body, "application/json\napplication/xml\n") << r.raw;
  // OPTIONS is not negotiated: its answer is this plain text whatever Accept says.
  const auto picky = s.ask("OPTIONS /chapters/05 HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\n\r\n");
  EXPECT_EQ(picky.status, 200) << picky.raw;
  EXPECT_EQ(picky.field("Allow"), "GET, HEAD, PUT, OPTIONS") << picky.raw;
  EXPECT_EQ(rdv::test::field_count(picky.fields, "Vary"), 0u)
      << "nothing was negotiated, so the answer does not vary by Accept\n"
      << picky.raw;
  const auto collection = s.ask("OPTIONS /chapters HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(collection.field("Allow"), "GET, HEAD, OPTIONS")
      << "the methods of the resource at this path: the collection takes no PUT\n"
      << collection.raw;
}

TEST(Options, StarAsksAboutTheWholeServer) {
  explained_in("ch09-options");
  rest_server s;
  const auto r = s.ask("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(r.status, 204) << r.raw;
  const std::string allow = r.field("Allow");
  for (const char* method : {"OPTIONS", "GET", "HEAD", "PUT"}) {
    EXPECT_NE(allow.find(method), std::string::npos)
        << "Allow: " << allow << " (PUT: on a chapter)\n"
        << r.raw;
  }
  EXPECT_EQ(s.ask("GET * HTTP/1.1\r\nHost: x\r\n\r\n").status, 400) << "only OPTIONS may name *";
}

TEST(Put, ChangesTheResourceInEitherRepresentation) {
  explained_in("ch09-put");
  rest_server s;
  const auto by_json =
      s.ask("PUT /chapters/03 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 17\r\n\r\n{\"status\":\"done\"}");
  ASSERT_EQ(by_json.status, 200) << by_json.raw;
  EXPECT_EQ(boost::json::parse(by_json.body).at("status").as_string(), "done") << by_json.raw;
  const std::string xml = "<chapter><status>doing</status></chapter>";
  const auto by_xml =
      s.ask("PUT /chapters/04 HTTP/1.1\r\nHost: x\r\nContent-Type: application/xml\r\n"
            "Accept: application/xml\r\nContent-Length: " +
            std::to_string(xml.size()) + "\r\n\r\n" + xml);
  ASSERT_EQ(by_xml.status, 200) << by_xml.raw;
  EXPECT_NE(by_xml.body.find("<status>doing</status>"), std::string::npos) << by_xml.raw;
  const auto read_back = s.ask("GET /chapters/03 HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(boost::json::parse(read_back.body).at("status").as_string(), "done") << read_back.raw;
  // The resource types its own refusal: the router adds no second Content-Type.
  const auto plain = s.ask("PUT /chapters/03 HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                           "Content-Length: 4\r\n\r\ndone");
  EXPECT_EQ(plain.status, 415) << plain.raw;
  EXPECT_EQ(rdv::test::field_count(plain.fields, "Content-Type"), 1u) << plain.raw;
  EXPECT_EQ(plain.field("Content-Type"), "text/plain; charset=utf-8") << plain.raw;
  EXPECT_EQ(plain.field("Vary"), "Accept")
      << "the router adds Vary to every answer of the resource's: had Accept refused both "
         "types, this would have been a 406\n"
      << plain.raw;
  EXPECT_EQ(s.ask("PUT /chapters/03 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  "Content-Length: 18\r\n\r\n{\"status\":\"later\"}")
                .status,
            400);
}

TEST(Put, IsNegotiatedAsGetIs) {
  explained_in("ch09-put");
  rest_server s;
  const std::string json = R"({"status":"done"})";
  const auto put = [&](std::string_view accept) {
    return s.ask("PUT /chapters/05 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 "Accept: " +
                 std::string(accept) + "\r\nContent-Length: " + std::to_string(json.size()) +
                 "\r\n\r\n" + json);
  };
  const auto as_xml = put("application/xml");
  ASSERT_EQ(as_xml.status, 200) << as_xml.raw;
  EXPECT_EQ(as_xml.field("Content-Type"), "application/xml")
      << "the answer is in the representation Accept chose, not in the body's\n"
      << as_xml.raw;
  EXPECT_NE(as_xml.body.find("<status>done</status>"), std::string::npos) << as_xml.raw;
  const auto before = s.ask("GET /chapters/06 HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto refused =
      s.ask("PUT /chapters/06 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Accept: text/html\r\nContent-Length: " +
            std::to_string(json.size()) + "\r\n\r\n" + json);
  EXPECT_EQ(refused.status, 406) << refused.raw;
  const auto after = s.ask("GET /chapters/06 HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(after.body, before.body)
      << "a PUT whose answer nothing offered could represent is refused before it is applied\n"
      << after.raw;
}

TEST(Put, RefusesHostileBodiesWith400) {
  explained_in("ch09-hostile");
  rest_server s;
  const auto before = s.ask("GET /chapters/03 HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto put = [&](std::string_view type, const std::string& body) {
    return s.ask("PUT /chapters/03 HTTP/1.1\r\nHost: x\r\nContent-Type: " + std::string(type) +
                 "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  };
  // An external entity (XXE): the file must not be read into the status.
  const auto xxe =
      put("application/xml", "<?xml version=\"1.0\"?><!DOCTYPE chapter [<!ENTITY x SYSTEM "
                             "\"file:///etc/passwd\">]><chapter><status>&x;</status></chapter>");
  EXPECT_EQ(xxe.status, 400) << xxe.raw;
  EXPECT_EQ(xxe.body.find("root:"), std::string::npos) << xxe.raw;
  // Entities that expand to billions of bytes ("billion laughs").
  std::string laughs = "<?xml version=\"1.0\"?><!DOCTYPE chapter [<!ENTITY a \"lol\">";
  for (char c = 'b'; c <= 'j'; ++c) {
    std::string ten;  // ten of the entity before
    for (int i = 0; i < 10; ++i) ten += std::string("&") + static_cast<char>(c - 1) + ";";
    laughs += std::string("<!ENTITY ") + c + " \"" + ten + "\">";
  }
  laughs += "]><chapter><status>&j;</status></chapter>";
  const auto bomb = put("application/xml", laughs);
  EXPECT_EQ(bomb.status, 400) << bomb.raw.substr(0, 300);
  // JSON nested far deeper than any chapter.
  const auto deep = put("application/json", std::string(100000, '[') + std::string(100000, ']'));
  EXPECT_EQ(deep.status, 400) << deep.raw.substr(0, 300);
  // And the resource is as it was.
  const auto after = s.ask("GET /chapters/03 HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(after.body, before.body) << "a refused PUT changes nothing\n" << after.raw;
}

TEST(Head, HasTheHeadOfGetWithoutTheBody) {
  explained_in("ch09-methods");
  rest_server s;
  const auto get = s.ask("GET /chapters HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto head = s.ask("HEAD /chapters HTTP/1.1\r\nHost: x\r\n\r\n", true);
  EXPECT_EQ(head.status, 200) << head.raw;
  EXPECT_EQ(head.field("Content-Length"), std::to_string(get.body.size())) << head.raw;
  EXPECT_TRUE(head.body.empty()) << head.raw;
  // Negotiated as GET is: the same type, length and Vary, and the same 406.
  const auto xml = "/chapters/03 HTTP/1.1\r\nHost: x\r\nAccept: application/xml\r\n\r\n";
  const auto get_xml = s.ask(std::string("GET ") + xml);
  const auto head_xml = s.ask(std::string("HEAD ") + xml, true);
  EXPECT_EQ(head_xml.status, 200) << head_xml.raw;
  EXPECT_EQ(head_xml.field("Content-Type"), "application/xml") << head_xml.raw;
  EXPECT_EQ(head_xml.field("Content-Length"), std::to_string(get_xml.body.size())) << head_xml.raw;
  EXPECT_EQ(head_xml.field("Vary"), "Accept") << head_xml.raw;
  const auto refused =
      s.ask("HEAD /chapters/03 HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\n\r\n", true);
  EXPECT_EQ(refused.status, 406) << refused.raw;
}

}  // namespace
