// Chapter 8: the static-file server, over a temporary root — files, HEAD,
// directories, refusals, validators, ranges, sendfile and its read/write
// twin, keep-alive and pipelining, and files that shrink while being sent.
#include "static_fixture.hpp"

#include "http_date.hpp"
#include "rdv/test/tcp_segments.hpp"

#include "rdv/test/book.hpp"

#include <boost/asio/write.hpp>

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using rdv::test::explained_in;
using rdv::test::in_quotes;

std::string get(std::string_view target, std::string_view more_fields = "") {
  return "GET " + std::string(target) + " HTTP/1.1\r\nHost: x\r\n" + std::string(more_fields) +
         "\r\n";
}

// The usual tree, served, and a client connected to it.
class StaticServer : public ::testing::Test {
protected:
  ch08::filled_root tree;
  ch08::server s{tree};
  rdv::test::client c{s.thread};
};

TEST_F(StaticServer, ServesAFileWithItsTypeAndLength) {
  explained_in("ch08-handler");
  c.send(get("/hello.txt"));
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 200) << c.transcript();
  EXPECT_EQ(r.body, ch08::temp_root::hello) << c.transcript();
  EXPECT_EQ(r.field("Content-Type"), "text/plain; charset=utf-8") << c.transcript();
  EXPECT_EQ(r.field("Content-Length"), std::to_string(ch08::temp_root::hello.size()))
      << c.transcript();
  EXPECT_EQ(r.field("Accept-Ranges"), "bytes") << c.transcript();
  EXPECT_TRUE(rdv::http::parse_http_date(r.field("Date"))) << "a Date field in IMF-fixdate\n"
                                                           << c.transcript();
  c.send(get("/docs/style.css"));
  EXPECT_EQ(c.read_response().field("Content-Type"), "text/css; charset=utf-8") << c.transcript();
  c.send(get("/empty.txt"));
  const auto empty = c.read_response();
  EXPECT_EQ(empty.status, 200) << c.transcript();
  EXPECT_EQ(empty.field("Content-Length"), "0") << c.transcript();
}

TEST_F(StaticServer, AnswersHeadWithTheHeadOnly) {
  explained_in("ch08-handler");
  c.send("HEAD /big.bin HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto r = c.read_response(true);
  EXPECT_EQ(r.status, 200) << c.transcript();
  EXPECT_EQ(r.field("Content-Length"), std::to_string(ch08::temp_root::big_size)) << c.transcript();
  c.send(get("/hello.txt"));  // no stray body bytes in between
  EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << c.transcript();
  c.send("HEAD /big.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1\r\n\r\n");
  const auto ranged = c.read_response(true);
  EXPECT_EQ(ranged.status, 200) << "a Range is for GET alone: HEAD ignores it\n" << c.transcript();
  EXPECT_EQ(ranged.field("Content-Length"), std::to_string(ch08::temp_root::big_size))
      << c.transcript();
  EXPECT_FALSE(ranged.has_field("Content-Range")) << c.transcript();
}

TEST_F(StaticServer, ServesIndexHtmlForADirectory) {
  explained_in("ch08-handler");
  c.send(get("/"));
  EXPECT_EQ(c.read_response().body, "<h1>the root</h1>\n") << c.transcript();
  c.send(get("/docs/"));
  const auto docs = c.read_response();
  EXPECT_EQ(docs.body, "<h1>docs</h1>\n") << c.transcript();
  EXPECT_EQ(docs.field("Content-Type"), "text/html; charset=utf-8") << c.transcript();
  c.send(get("/docs?lang=en"));
  const auto moved = c.read_response();
  EXPECT_EQ(moved.status, 301) << "a directory without its final '/' is redirected\n"
                               << c.transcript();
  EXPECT_EQ(moved.field("Location"), "/docs/?lang=en") << c.transcript();
  c.send(get("/docs/."));
  EXPECT_EQ(c.read_response().body, "<h1>docs</h1>\n") << c.transcript();
}

TEST_F(StaticServer, RedirectsToALocalPathWhateverTheTargetNames) {
  explained_in("ch08-paths");
  for (const char* target : {"http://evil.example/docs", "//docs", "HTTP://evil.example//docs"}) {
    c.send(get(target));
    const auto moved = c.read_response();
    EXPECT_EQ(moved.status, 301) << target << "\n" << c.transcript();
    EXPECT_EQ(moved.field("Location"), "/docs/")
        << "a redirect names a path of this server, never another host (an open redirect)\n"
        << c.transcript();
  }
}

TEST_F(StaticServer, Answers404ForWhatIsNotThere) {
  explained_in("ch08-handler");
  tree.link("loop-a", "loop-b");  // links that lead to each other, and never to a file
  tree.link("loop-b", "loop-a");
  const std::string too_long = "/" + std::string(300, 'a');  // a name over the system's 255
  for (const std::string& target :
       {std::string("/missing.txt"), std::string("/no-index/"), std::string("/hello.txt/"),
        std::string("/hello.txt/."), std::string("/hello.txt/%2e"),
        std::string("/docs/missing/x.html"), std::string("/loop-a"), too_long}) {
    c.send(get(target));
    const auto r = c.read_response();
    EXPECT_EQ(r.status, 404) << target << "\n" << c.transcript();
    EXPECT_LT(r.body.size(), 100u) << "a short body";
  }
}

TEST_F(StaticServer, Answers405WithAllowToOtherMethods) {
  explained_in("ch08-handler");
  c.send("POST /hello.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
  auto r = c.read_response();
  EXPECT_EQ(r.status, 405) << c.transcript();
  EXPECT_EQ(r.field("Allow"), "GET, HEAD") << c.transcript();
  c.send("DELETE /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(c.read_response().status, 405) << c.transcript();
  c.send(get("/hello.txt"));  // the connection goes on
  EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << c.transcript();
  c.send("get /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(c.read_response().status, 405) << "a method's name is case-sensitive: get is not GET\n"
                                           << c.transcript();
}

TEST_F(StaticServer, DatesEveryAnswer) {
  explained_in("ch08-handler");
  for (const std::string& request :
       {get("/hello.txt"), get("/missing.txt"), get("/docs"),
        get("/hello.txt", "Range: bytes=1000-2000\r\n"),
        std::string("DELETE /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n")}) {
    c.send(request);
    const auto r = c.read_response();
    EXPECT_TRUE(rdv::http::parse_http_date(r.field("Date")).has_value())
        << "every answer carries the Date it was made (RFC 9110 section 6.6.1), the " << r.status
        << " too\n"
        << c.transcript();
  }
}

TEST_F(StaticServer, RefusesWhatIsNotARegularFile) {
  explained_in("ch08-handler");
  c.send(get("/fifo"));
  EXPECT_EQ(c.read_response().status, 403) << "a FIFO is not served (nor waited on)\n"
                                           << c.transcript();
}

TEST_F(StaticServer, RefusesEveryPathOutOfTheRoot) {
  explained_in("ch08-confinement");
  const std::string absolute = (tree.outside() / "secret.txt").string();
  const std::vector<std::string> targets = {
      "/../outside/secret.txt",
      "/docs/../../outside/secret.txt",
      "/%2e%2e/outside/secret.txt",
      "/docs/%2E%2E/%2e%2e/outside/secret.txt",
      "/docs/..%2f..%2foutside%2fsecret.txt",
      "/%2F" + absolute.substr(1),
      "/" + absolute,  // "//tmp/...": inside the root, where it is not
      "/link-out",
      "/link-abs",
      "/docs/link-up",
      "/link-dir-out/secret.txt",
      "/link-out%00.txt",
      "http://x/../outside/secret.txt",
  };
  for (const auto& target : targets) {
    c.send(get(target));
    const auto r = c.read_response();
    EXPECT_TRUE(r.status == 400 || r.status == 403 || r.status == 404)
        << in_quotes(target) << " got " << r.status << "\n"
        << c.transcript();
    EXPECT_EQ(r.body.find("SECRET"), std::string::npos)
        << in_quotes(target) << " leaked the secret";
  }
  c.send(get("/link-out"));
  EXPECT_EQ(c.read_response().status, 403) << "a link out of the root: 403\n" << c.transcript();
  c.send(get("/%2e%2e/outside/secret.txt"));
  EXPECT_EQ(c.read_response().status, 403) << "an encoded '..': 403\n" << c.transcript();
}

TEST_F(StaticServer, FollowsLinksThatStayInside) {
  explained_in("ch08-confinement");
  for (const char* target : {"/link-in", "/docs/link-in"}) {
    c.send(get(target));
    EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << target << "\n" << c.transcript();
  }
}

TEST_F(StaticServer, SendsLastModifiedAndAStrongEtag) {
  explained_in("ch08-conditional");
  c.send(get("/hello.txt"));
  const auto r = c.read_response();
  struct stat st{};
  ASSERT_EQ(::stat((tree.root() / "hello.txt").c_str(), &st), 0);
  EXPECT_EQ(rdv::http::parse_http_date(r.field("Last-Modified")),
            std::chrono::sys_seconds(std::chrono::seconds(st.st_mtim.tv_sec)))
      << c.transcript();
  const std::string etag = r.field("ETag");
  EXPECT_TRUE(etag.size() > 2 && etag.front() == '"' && etag.back() == '"')
      << "a strong entity tag is quoted and has no W/\n"
      << c.transcript();
  tree.write("hello.txt", "Changed!\n");
  c.send(get("/hello.txt"));
  EXPECT_NE(c.read_response().field("ETag"), etag) << "a new content, a new tag\n"
                                                   << c.transcript();
}

TEST_F(StaticServer, TellsApartFilesOfOneSizeAndOneSecond) {
  explained_in("ch08-conditional");
  const auto path = tree.root() / "same.txt";
  // Writes `bytes` to `file` and gives it a modification time of a fixed
  // second and `nanoseconds`; then the tag the server gives same.txt.
  const auto tag_after = [&](const std::filesystem::path& file, const std::string& bytes,
                             long nanoseconds) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
    const timespec times[2] = {{1'700'000'000, nanoseconds}, {1'700'000'000, nanoseconds}};
    EXPECT_EQ(::utimensat(AT_FDCWD, file.c_str(), times, 0), 0);
    if (file != path) std::filesystem::rename(file, path);  // as cp -p, rsync -t or mv make
    c.send(get("/same.txt"));
    return c.read_response().field("ETag");
  };
  const std::string first = tag_after(path, "first\n", 100);
  const std::string second = tag_after(path, "other\n", 200'000'000);
  EXPECT_NE(second, first) << "the same file, rewritten to the same size within the same "
                              "second: a strong tag must tell the two contents apart\n"
                           << c.transcript();
  const std::string third = tag_after(tree.root() / "same.txt.new", "third\n", 200'000'000);
  EXPECT_NE(third, second) << "the same size and modification time, but another file in its "
                              "place\n"
                           << c.transcript();
}

TEST_F(StaticServer, AnswersWithWhatIsThereNowThoughItKeepsFilesOpen) {
  explained_in("ch08-open-files");
  c.send(get("/docs/style.css"));
  EXPECT_EQ(c.read_response().body, "h1 { color: teal }\n") << c.transcript();
  tree.write("docs.new/style.css", "h1 { color: plum }\n");
  std::filesystem::rename(tree.root() / "docs", tree.root() / "docs.old");
  std::filesystem::rename(tree.root() / "docs.new", tree.root() / "docs");
  c.send(get("/docs/style.css"));
  EXPECT_EQ(c.read_response().body, "h1 { color: plum }\n") << c.transcript();
  std::filesystem::remove_all(tree.root() / "docs");
  c.send(get("/docs/style.css"));
  EXPECT_EQ(c.read_response().status, 404) << c.transcript();
}

TEST_F(StaticServer, Answers304ToACurrentCopyAnd412ToAFailedIfMatch) {
  explained_in("ch08-conditional");
  c.send(get("/hello.txt"));
  const auto first = c.read_response();
  const std::string etag = first.field("ETag"), date = first.field("Last-Modified");
  c.send(get("/hello.txt", "If-None-Match: \"other\", " + etag + "\r\n"));
  const auto not_modified = c.read_response();
  EXPECT_EQ(not_modified.status, 304) << c.transcript();
  EXPECT_EQ(not_modified.field("ETag"), etag) << "a 304 carries the validators\n" << c.transcript();
  EXPECT_EQ(not_modified.field("Last-Modified"), date) << c.transcript();
  const std::string length = not_modified.field("Content-Length");
  EXPECT_TRUE(length.empty() || length == std::to_string(ch08::temp_root::hello.size()))
      << "a 304's Content-Length, if any, is the 200's\n"
      << c.transcript();
  c.send(get("/hello.txt", "If-Modified-Since: " + date + "\r\n"));
  EXPECT_EQ(c.read_response().status, 304) << c.transcript();
  c.send(get("/hello.txt", "If-None-Match: \"other\"\r\nIf-Modified-Since: " + date + "\r\n"));
  EXPECT_EQ(c.read_response().status, 200) << "If-None-Match beats If-Modified-Since\n"
                                           << c.transcript();
  c.send(get("/hello.txt", "If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT\r\n"));
  EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << c.transcript();
  c.send(get("/hello.txt", "If-Match: \"other\"\r\n"));
  EXPECT_EQ(c.read_response().status, 412) << c.transcript();
  c.send("HEAD /hello.txt HTTP/1.1\r\nHost: x\r\nIf-None-Match: " + etag + "\r\n\r\n");
  EXPECT_EQ(c.read_response(true).status, 304) << c.transcript();
  // The preconditions come before the range: a range no byte of the file
  // satisfies changes neither answer into a 416.
  c.send(get("/hello.txt", "If-None-Match: " + etag + "\r\nRange: bytes=1000-2000\r\n"));
  EXPECT_EQ(c.read_response().status, 304) << "the client's copy is current, whatever it asks of "
                                              "the range\n"
                                           << c.transcript();
  c.send(get("/hello.txt", "If-Match: \"other\"\r\nRange: bytes=1000-2000\r\n"));
  EXPECT_EQ(c.read_response().status, 412) << "a failed If-Match is 412, whatever the range\n"
                                           << c.transcript();
  c.send(get("/hello.txt"));  // and the connection goes on
  EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << c.transcript();
}

TEST_F(StaticServer, AnswersRangesWith206And416) {
  explained_in("ch08-ranges");
  const std::string big = ch08::pattern(ch08::temp_root::big_size);
  const std::string size = std::to_string(big.size());
  struct ranged {
    std::string range;
    std::size_t first, count;
  };
  for (const auto& [range, first, count] :
       std::vector<ranged>{{"bytes=10-19", 10, 10},
                           {"bytes=-100", big.size() - 100, 100},
                           {"bytes=1048570-", 1048570, big.size() - 1048570}}) {
    c.send(get("/big.bin", "Range: " + range + "\r\n"));
    const auto r = c.read_response();
    EXPECT_EQ(r.status, 206) << range;
    EXPECT_EQ(r.field("Content-Range"), "bytes " + std::to_string(first) + "-" +
                                            std::to_string(first + count - 1) + "/" + size)
        << range;
    ch08::expect_body(std::string_view(big).substr(first, count), r.body, range);
  }
  c.send(get("/big.bin", "Range: bytes=" + size + "-\r\n"));
  const auto wrong = c.read_response();
  EXPECT_EQ(wrong.status, 416) << in_quotes(wrong.raw);
  EXPECT_EQ(wrong.field("Content-Range"), "bytes */" + size) << in_quotes(wrong.raw);
  c.send(get("/hello.txt", "Range: bytes=0-1,4-5\r\n"));
  EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << "several ranges: the whole file\n"
                                                            << c.transcript();
  c.send(get("/hello.txt", "Range: bytes=0-4\r\nIf-Range: \"stale\"\r\n"));
  EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << "a stale If-Range: the whole file\n"
                                                            << c.transcript();
  c.send(get("/hello.txt", "Range: bytes=0-4\r\n"));
  EXPECT_EQ(c.read_response().body, "Hello") << c.transcript();
}

// Sets the TCP congestion control of `socket`; false where the kernel has
// no such algorithm (or may not load it).
bool set_congestion(int socket, std::string_view name) {
  return ::setsockopt(socket, IPPROTO_TCP, TCP_CONGESTION, name.data(),
                      static_cast<socklen_t>(name.size())) == 0;
}

// Serves tree's files with `pack`, and two more targets: /segments, how many
// data segments this connection has sent so far (read from the server's
// socket), and /congestion/NAME, which switches the connection's congestion
// control to NAME (404 where the kernel has none of that name).
ch08::server counting_server(const ch08::filled_root& tree, rdv::files::packing pack) {
  const auto files = rdv::files::static_files({.root = tree.root().string(), .pack = pack});
  return ch08::server([files](rdv::web::request& r) {
    const int fd = r.socket.native_handle();
    if (r.head.target == "/segments") {
      return rdv::web::text_response(200, std::to_string(rdv::test::data_segments_sent(fd)));
    }
    if (r.head.target.starts_with("/congestion/")) {
      const bool set = set_congestion(fd, r.head.target.substr(std::strlen("/congestion/")));
      return rdv::web::text_response(set ? 200 : 404);
    }
    return files(r);
  });
}

// What a client of `s` counts: the data segments the server sent for one
// small file, after switching the connection to `congestion` ("" for the
// system's); "" if the kernel has no such congestion control.
std::string segments_for_hello(const ch08::server& s, const std::string& congestion) {
  rdv::test::client c(s.thread);
  if (!congestion.empty()) {
    c.send(get("/congestion/" + congestion));
    if (c.read_response().status != 200) return "";
  }
  c.send(get("/segments"));
  const std::string before = c.read_response().body;
  c.send(get("/hello.txt"));
  EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << c.transcript();
  c.send(get("/segments"));
  const std::string after = c.read_response().body;
  // The /segments answer itself is one segment.
  return std::to_string(std::stoi(after) - std::stoi(before) - 1);
}

TEST(Packets, JoinedSendsTheHeadInOnePacketWithTheFile) {
  explained_in("ch08-packets");
  if (!rdv::test::segment_counts_available()) {
    GTEST_SKIP() << "this system does not count TCP segments (TCP_INFO), as under qemu-user";
  }
  const ch08::filled_root tree;
  const auto s = counting_server(tree, rdv::files::packing::joined);
  EXPECT_EQ(segments_for_hello(s, ""), "1")
      << "the head and the 21 bytes of the file should leave in one TCP segment, not two";
}

TEST(Packets, TheDefaultJoinsASmallFileWhateverTheCongestionControl) {
  explained_in("ch08-packets");
  if (!rdv::test::segment_counts_available()) {
    GTEST_SKIP() << "this system does not count TCP segments (TCP_INFO), as under qemu-user";
  }
  const ch08::filled_root tree;
  const auto s = counting_server(tree, rdv::files::static_options{}.pack);
  const std::string under_cubic = segments_for_hello(s, "cubic");
  const std::string under_bbr = segments_for_hello(s, "bbr");
  if (!under_cubic.empty()) {
    EXPECT_EQ(under_cubic, "1") << "under CUBIC, the head goes with the file";
  }
  if (!under_bbr.empty()) {
    EXPECT_EQ(under_bbr, "1") << "under BBR, a file too short to be paced goes with its head too";
  }
  if (under_cubic.empty() || under_bbr.empty()) {
    GTEST_SKIP() << "this kernel lacks CUBIC or BBR (see tcp_available_congestion_control)";
  }
}

TEST(Packets, TheDefaultSendsTheHeadAloneBeforeALongFileWhenPacedOrWhileTheClientsWindowIsSmall) {
  explained_in("ch08-packets");
  using rdv::files::packing, rdv::files::packing_for, rdv::files::unpaced_file_bytes;
  const std::uint64_t longer = unpaced_file_bytes + 1;
  EXPECT_EQ(packing_for(packing::automatic, "bbr", longer), packing::separate);
  EXPECT_EQ(packing_for(packing::automatic, "bbr2", longer), packing::separate) << "bbr2 paces too";
  EXPECT_EQ(packing_for(packing::automatic, "bbr", unpaced_file_bytes), packing::joined)
      << "a file this short goes out before pacing would hold any of it";
  EXPECT_EQ(packing_for(packing::automatic, "cubic", 1 << 30), packing::joined)
      << "the client's window not known";
  EXPECT_EQ(packing_for(packing::automatic, "reno", longer), packing::joined);
  EXPECT_EQ(packing_for(packing::nagle, "bbr", 7), packing::nagle) << "a packing asked for stays";
  EXPECT_EQ(packing_for(packing::joined, "bbr", longer), packing::joined);

  const rdv::files::segment_sizes held{47'616, 65'483}, full{65'483, 65'483};
  EXPECT_EQ(packing_for(packing::automatic, "cubic", longer, held), packing::separate)
      << "segments held to half a small window: the client's buffer has not grown, and "
         "the head should go alone";
  EXPECT_EQ(packing_for(packing::automatic, "cubic", longer, full), packing::joined)
      << "full segments: the client has offered a window of two, and the head goes with the file";
  EXPECT_EQ(packing_for(packing::automatic, "cubic", unpaced_file_bytes, held), packing::joined)
      << "a short file goes in the fewest packets whatever the window";
  EXPECT_EQ(packing_for(packing::automatic, "bbr", longer, full), packing::separate)
      << "a grown window does not stop the pacing";
  EXPECT_EQ(packing_for(packing::joined, "cubic", longer, held), packing::joined);
}

// The segment sizes of the server's end of a connection from a client whose
// receive buffer is `rcvbuf` bytes, after the server has sent it `bytes`
// and the client has read them all.
rdv::files::segment_sizes sizes_after(boost::asio::ip::tcp::acceptor& acceptor, int rcvbuf,
                                      std::size_t bytes) {
  namespace asio = boost::asio;
  asio::ip::tcp::socket client(acceptor.get_executor());
  client.open(asio::ip::tcp::v4());
  client.set_option(asio::socket_base::receive_buffer_size(rcvbuf));
  client.connect(acceptor.local_endpoint());
  auto accepted = acceptor.accept();
  std::thread reader([&client, bytes] {
    std::vector<char> buffer(64 * 1024);
    boost::system::error_code ec;
    for (std::size_t got = 0; got < bytes && !ec;)
      got += client.read_some(asio::buffer(buffer), ec);
  });
  const std::string sent(bytes, 'x');
  asio::write(accepted, asio::buffer(sent));
  reader.join();
  const auto sizes = rdv::files::segment_sizes_of(accepted);
  EXPECT_TRUE(sizes) << "TCP_INFO";
  return sizes.value_or(rdv::files::segment_sizes{});
}

TEST(Packets, SegmentsStayBelowThePathsSizeUntilTheClientOffersAWindowOfTwo) {
  explained_in("ch08-windows");
  if (!rdv::test::segment_counts_available()) {
    GTEST_SKIP() << "this system does not answer TCP_INFO, as under qemu-user";
  }
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  const auto small = sizes_after(acceptor, 8 * 1024, 1 << 20);
  if (small.path <= 32 * 1024) {
    GTEST_SKIP() << "this loopback's segments (" << small.path
                 << " bytes) fit in half of any window, so none is held";
  }
  EXPECT_LT(small.sending, small.path)
      << "a client whose buffer cannot grow past 16 KiB offers a window under two segments";
  const auto large = sizes_after(acceptor, 2 << 20, 8 << 20);
  EXPECT_EQ(large.sending, large.path)
      << "a client with a buffer of megabytes, having read 8 MiB, offers a window of many segments";
}

// TCP_NOTSENT_LOWAT of the connection `acceptor` accepts from a client.
int unsent_limit_of_accepted(boost::asio::ip::tcp::acceptor& acceptor) {
  boost::asio::ip::tcp::socket client(acceptor.get_executor());
  client.connect(acceptor.local_endpoint());
  auto accepted = acceptor.accept();
  boost::asio::detail::socket_option::integer<IPPROTO_TCP, TCP_NOTSENT_LOWAT> limit;
  accepted.get_option(limit);  // throws if the system has no such option
  return limit.value();
}

TEST(Packets, ConnectionsInheritTheListenersLimitOnUnsentBytes) {
  explained_in("ch08-unsent");
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  rdv::files::limit_unsent(acceptor, 0);
  EXPECT_EQ(unsent_limit_of_accepted(acceptor), 0) << "0 leaves the system's setting";
  rdv::files::limit_unsent(acceptor, 16 * 1024);
  EXPECT_EQ(unsent_limit_of_accepted(acceptor), 16 * 1024)
      << "a connection accepted after limit_unsent() should keep the listener's limit";
}

// The same tree, served with sendfile (true) or the read/write loop (false).
class Body : public ::testing::TestWithParam<bool> {
protected:
  ch08::filled_root tree;
  ch08::server s{tree, GetParam()};
};

TEST_P(Body, SendsLargeFilesWhole) {
  explained_in("ch08-sendfile");
  const auto d =
      ch08::fetch_until_closed(s.thread.port(), get("/big.bin", "Connection: close\r\n"));
  EXPECT_EQ(d.problem, "");
  EXPECT_TRUE(d.head.starts_with("HTTP/1.1 200 ")) << in_quotes(d.head);
  ch08::expect_body(ch08::pattern(ch08::temp_root::big_size), d.body, "GET /big.bin");
  EXPECT_TRUE(d.closed);
}

TEST_P(Body, KeepsTheConnectionAcrossManyFiles) {
  explained_in("ch08-handler");
  const std::string big = ch08::pattern(ch08::temp_root::big_size);
  rdv::test::client c(s.thread);
  for (int i = 0; i < 10 && !::testing::Test::HasFailure(); ++i) {
    c.send(get("/big.bin"));
    ch08::expect_body(big, c.read_response().body,
                      "GET /big.bin, request " + std::to_string(2 * i));
    c.send(get("/hello.txt"));
    EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << "request " << 2 * i + 1;
  }
}

TEST_P(Body, AnswersPipelinedRequestsInOrder) {
  explained_in("ch08-handler");
  rdv::test::client c(s.thread);
  c.send(get("/big.bin") + get("/hello.txt") + "HEAD /big.bin HTTP/1.1\r\nHost: x\r\n\r\n" +
         get("/docs/style.css", "Range: bytes=0-1\r\n") + get("/", "Connection: close\r\n"));
  ch08::expect_body(ch08::pattern(ch08::temp_root::big_size), c.read_response().body, "1st answer");
  EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << "2nd answer";
  EXPECT_EQ(c.read_response(true).field("Content-Length"),
            std::to_string(ch08::temp_root::big_size));
  EXPECT_EQ(c.read_response().body, "h1") << "4th answer";
  EXPECT_EQ(c.read_response().body, "<h1>the root</h1>\n") << "5th answer";
  EXPECT_TRUE(c.wait_closed());
}

TEST_P(Body, ClosesTheConnectionWhenTheFileShrinksWhileBeingSent) {
  explained_in("ch08-shrink");
  // Far more than the socket buffers hold, so the server is still sending
  // when the test cuts the file.
  constexpr std::uintmax_t huge = 64 * 1024 * 1024;
  // Zeros (a sparse file), with a request pipelined behind: no answer's
  // head can hide in them.
  tree.sparse("huge.bin", huge);
  const auto d =
      ch08::fetch_until_closed(s.thread.port(), get("/huge.bin") + get("/hello.txt"), [&] {
        std::filesystem::resize_file(tree.root() / "huge.bin", 1000);
      });
  EXPECT_EQ(d.problem, "") << "the client must see the connection close, not wait forever";
  EXPECT_TRUE(d.head.find("Content-Length: 67108864") != std::string::npos) << in_quotes(d.head);
  EXPECT_TRUE(d.closed);
  EXPECT_LT(d.body.size(), huge) << "fewer bytes than promised, then the end of the connection";
  EXPECT_EQ(d.body.find("HTTP/1.1"), std::string::npos)
      << "the body came short of its Content-Length, so the client would read the next answer "
         "as the rest of it: the connection must end there, with the pipelined request "
         "unanswered";
  rdv::test::client c(s.thread);  // and the server goes on
  c.send(get("/hello.txt"));
  EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << c.transcript();
}

TEST_P(Body, ServesOthersWhileOneClientReadsNothing) {
  explained_in("ch08-sendfile");
  tree.sparse("huge.bin", 64 * 1024 * 1024);
  rdv::test::client stuck(s.thread);
  stuck.send(get("/huge.bin"));  // and never reads: the server's sends wait
  for (int i = 0; i < 3; ++i) {
    rdv::test::client c(s.thread);
    c.send(get("/hello.txt"));
    EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << c.transcript();
  }
  stuck.close();  // mid-body: the server's next send fails, quietly
  rdv::test::client after(s.thread);
  after.send(get("/hello.txt"));
  EXPECT_EQ(after.read_response().body, ch08::temp_root::hello) << after.transcript();
  EXPECT_EQ(s.log.text(), "") << "nothing crashed";
}

INSTANTIATE_TEST_SUITE_P(SendfileAndCopy, Body, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "sendfile" : "read_write";
                         });

}  // namespace
