// Chapter 8's program, run as a child process: conventions, both ways of
// sending, clients that leave mid-file, and a root that is not there.
#include "static_fixture.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/loopback.hpp"
#include "rdv/test/proc_status.hpp"
#include "rdv/test/program.hpp"
#include "rdv/test/slow_reader.hpp"
#include "rdv/test/tcp_segments.hpp"

#include <filesystem>
#include <fstream>
#include <utility>

namespace {

using rdv::test::explained_in;

const std::string server = rdv::test::built_program("static-server");

TEST(Program, ServesADirectoryAndStopsCleanlyOnSigterm) {
  explained_in("ch08-main");
  const ch08::filled_root tree;
  rdv::test::program p(server, {"--root", tree.root().string(), "--listen", "127.0.0.1:0"});
  rdv::test::client c(p.port("http"));
  c.send("GET /docs/ HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(c.read_response().body, "<h1>docs</h1>\n") << c.transcript();
  EXPECT_EQ(p.stop(), 0) << p.output();
}

// Whether process `pid` holds `file` open.
bool holds_open(pid_t pid, const std::filesystem::path& file) {
  for (const auto& fd :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd")) {
    std::error_code ec;
    if (std::filesystem::read_symlink(fd.path(), ec) == file && !ec) return true;
  }
  return false;
}

TEST(Program, KeepsFilesOpenUnlessToldNotTo) {
  explained_in("ch08-open-files");
  const ch08::filled_root tree;
  const auto hello = std::filesystem::canonical(tree.root() / "hello.txt");
  for (const std::string open_files : {"256", "0"}) {
    rdv::test::program p(server, {"--root", tree.root().string(), "--listen", "127.0.0.1:0",
                                  "--open-files", open_files});
    rdv::test::client c(p.port("http"));
    tree.write("hello.txt", "before\n");
    c.send("GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(c.read_response().body, "before\n") << c.transcript();
    // The connection's process lets a response go before it reads the
    // next request: once another file has been served, only a cache still
    // holds the first.
    c.send("GET /empty.txt HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(c.read_response().status, 200) << c.transcript();
    EXPECT_EQ(holds_open(p.pid(), hello), open_files != "0") << p.command_line();
    tree.write("hello.txt", "after\n");
    c.send("GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(c.read_response().body, "after\n") << p.command_line() << "\n" << c.transcript();
    EXPECT_EQ(p.stop(), 0) << p.output();
  }
  const auto r = rdv::test::run_to_end(
      server, {"--root", tree.root().string(), "--open-files", "-1", "--listen", "127.0.0.1:0"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
}

TEST(Program, GivesUpTheFilesItKeepsWhenItRunsOutOfDescriptors) {
  explained_in("ch08-open-files");
  const ch08::filled_root tree;
  constexpr int files = 100;
  for (int i = 0; i < files; ++i) tree.write("many/" + std::to_string(i) + ".txt", "x\n");
  // 48 descriptors in all, and a cache that may keep 256 files: the cache
  // runs the server out of descriptors long before it is full.
  rdv::test::program p("/usr/bin/prlimit", {"--nofile=48", server, "--root", tree.root().string(),
                                            "--listen", "127.0.0.1:0", "--open-files", "256"});
  rdv::test::client c(p.port("http"));
  for (int i = 0; i < files; ++i) {
    c.send("GET /many/" + std::to_string(i) + ".txt HTTP/1.1\r\nHost: x\r\n\r\n");
    const auto r = c.read_response();
    ASSERT_EQ(r.status, 200)
        << "file " << i << " of " << files
        << ", with 48 descriptors: when opening a file fails for want of descriptors, the ones "
           "the cache keeps are worth less than the response; give them up and try again\n"
        << p.output();
  }
}

TEST(Program, CopiesAFileThroughABufferOfItsOwnSizeNotTheFiles) {
  explained_in("ch08-sendfile");
  const ch08::filled_root tree;
  constexpr std::uintmax_t huge = 256 * 1024 * 1024;
  tree.sparse("huge.bin", huge);
  rdv::test::program p(
      server, {"--root", tree.root().string(), "--listen", "127.0.0.1:0", "--no-sendfile"});
  const double before = rdv::test::status_bytes("VmHWM", p.pid());
  // A plain socket: a client that kept what it read would hold 256 MiB itself.
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_EQ(rdv::test::connect_to_loopback(fd, p.port("http")), 0);
  const timeval patience{.tv_sec = 30, .tv_usec = 0};  // a server that stalls fails the test
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
  const std::string request = "GET /huge.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  ASSERT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(request.size()));
  std::uintmax_t received = 0;
  static char buffer[1 << 16];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) {
    received += static_cast<std::uintmax_t>(n);
  }
  ::close(fd);
  ASSERT_GT(received, huge) << "the head and the whole file, then the server's close";
  const double grew = rdv::test::status_bytes("VmHWM", p.pid()) - before;
  EXPECT_LT(grew, 64.0 * 1024 * 1024)
      << "serving a file of 256 MiB without sendfile raised the server's peak resident memory by "
      << grew / (1024 * 1024)
      << " MiB: the copy goes through a buffer of a fixed size, not one the size of the file";
}

TEST(Program, ServesAFileOnAFilesystemMountedInsideTheRoot) {
  explained_in("ch08-confinement");
  const ch08::filled_root tree;
  std::filesystem::create_directory(tree.root() / "media");
  // The server runs in a mount namespace of its own (as root only), with a
  // tmpfs on root/media: a file there is inside the root, on another
  // filesystem.
  const std::string unshare = "/usr/bin/unshare";
  const std::string mount_then = R"(mount -t tmpfs rdv-test "$1/media" && printf clip > )"
                                 R"("$1/media/clip.txt" && shift && exec "$@")";
  const auto probe = rdv::test::run_to_end(
      unshare, {"--mount", "sh", "-c", mount_then, "sh", tree.root().string(), "true"});
  if (probe.status != 0) {
    GTEST_SKIP() << "no mount namespace to be had here (it takes root): " << probe.err;
  }
  rdv::test::program p(unshare,
                       {"--mount", "sh", "-c", mount_then, "sh", tree.root().string(), server,
                        "--root", tree.root().string(), "--listen", "127.0.0.1:0"});
  rdv::test::client c(p.port("http"));
  c.send("GET /media/clip.txt HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto answer = c.read_response();
  EXPECT_EQ(answer.status, 200)
      << "a file beneath the root on a filesystem mounted there is inside the root: keeping "
         "paths beneath the root is not keeping them on its filesystem\n"
      << c.transcript();
  EXPECT_EQ(answer.body, "clip");
  EXPECT_EQ(p.stop(), 0) << p.output();
}

TEST(Program, SendsTheSameBytesEveryWay) {
  explained_in("ch08-packets");
  const ch08::filled_root tree;
  const std::string big = ch08::pattern(ch08::temp_root::big_size);
  for (const char* packing : {"auto", "joined", "separate", "nagle", "cork"}) {
    for (const char* way : {"", "--no-sendfile", "--notsent-lowat=16384"}) {
      std::vector<std::string> args = {"--root",      tree.root().string(), "--listen",
                                       "127.0.0.1:0", "--packing",          packing};
      if (*way != '\0') args.emplace_back(way);  // "": sendfile, as it comes
      rdv::test::program p(server, args);
      const auto d = ch08::fetch_until_closed(
          p.port("http"), "GET /big.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      EXPECT_EQ(d.problem, "") << p.command_line();
      ch08::expect_body(big, d.body, p.command_line());
      rdv::test::client c(p.port("http"));  // and a HEAD, which sends no body, then a GET
      c.send(
          "HEAD /hello.txt HTTP/1.1\r\nHost: x\r\n\r\nGET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n");
      EXPECT_EQ(c.read_response(true).status, 200) << p.command_line() << "\n" << c.transcript();
      EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << p.command_line() << "\n"
                                                                << c.transcript();
    }
  }
}

TEST(Program, DropsClientsThatStopReadingAFile) {
  explained_in("ch08-slow-readers");
  const ch08::filled_root tree;
  for (const char* way : {"--packing=joined", "--no-sendfile", "--notsent-lowat=16384"}) {
    rdv::test::program p(server, {"--root", tree.root().string(), "--listen", "127.0.0.1:0",
                                  "--send-timeout-ms", "300", way});
    const std::string get = "GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n";
    // d asks for an empty file: its answers are heads alone, and the writes
    // of heads have their deadline too.
    const rdv::test::slow_reader a(p.port("http"), get), b(p.port("http"), get),
        c(p.port("http"), get), d(p.port("http"), "GET /empty.txt HTTP/1.1\r\nHost: x\r\n\r\n");
    for (const rdv::test::slow_reader* reader : {&a, &b, &c, &d}) {
      EXPECT_TRUE(reader->dropped_within(std::chrono::seconds(10)))
          << "a client that reads none of the file should be dropped once the server's sends "
             "have stalled for 300 ms\n"
          << p.command_line() << "\n"
          << p.output();
    }
  }
}

// Whether the kernel has the congestion control `name` loaded.
bool congestion_available(const std::string& name) {
  std::ifstream in("/proc/sys/net/ipv4/tcp_available_congestion_control");
  std::string word;
  while (in >> word) {
    if (word == name) return true;
  }
  return false;
}

TEST(Program, JoinsASmallFileToItsHeadUnderEitherCongestionControl) {
  explained_in("ch08-packets");
  if (!rdv::test::segment_counts_available()) {
    GTEST_SKIP() << "this system does not count TCP segments (TCP_INFO), as under qemu-user";
  }
  const ch08::filled_root tree;
  int measured = 0;
  for (const std::string congestion : {"cubic", "bbr"}) {
    if (!congestion_available(congestion)) continue;
    rdv::test::program p(server, {"--root", tree.root().string(), "--listen", "127.0.0.1:0",
                                  "--congestion", congestion});
    rdv::test::client c(p.port("http"));
    const std::uint32_t before = rdv::test::data_segments_received(c.native_handle());
    c.send("GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << c.transcript();
    EXPECT_EQ(rdv::test::data_segments_received(c.native_handle()) - before, 1u)
        << p.command_line() << ": under " << congestion << " the default, --packing auto, "
        << "should send the head with a file this short, in one segment";
    ++measured;
  }
  if (measured < 2)
    GTEST_SKIP() << "this kernel lacks CUBIC or BBR (tcp_available_congestion_control)";
}

TEST(Program, RejectsAnUnknownPacking) {
  explained_in("ch08-main");
  const auto r = rdv::test::run_to_end(server, {"--packing", "tight", "--listen", "127.0.0.1:0"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("joined"), std::string::npos) << "the error lists the choices: " << r.err;
}

TEST(Program, SurvivesClientsThatLeaveMidFile) {
  explained_in("ch08-shrink");
  const ch08::filled_root tree;
  tree.sparse("huge.bin", 64 * 1024 * 1024);
  rdv::test::program p(server, {"--root", tree.root().string(), "--listen", "127.0.0.1:0"});
  for (int i = 0; i < 3; ++i) {
    rdv::test::client leaving(p.port("http"));
    leaving.send("GET /huge.bin HTTP/1.1\r\nHost: x\r\n\r\n");
    leaving.read_exactly(100'000);
  }  // each closes with megabytes unread: the server's next sendfile fails (EPIPE, and SIGPIPE)
  rdv::test::client c(p.port("http"));
  c.send("GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(c.read_response().body, ch08::temp_root::hello) << c.transcript() << "\n" << p.output();
  EXPECT_TRUE(p.running()) << "a client leaving must not kill the server (SIGPIPE?)\n"
                           << p.output();
}

TEST(Program, RefusesARootThatIsNotADirectory) {
  explained_in("ch08-main");
  ch08::temp_root tree;
  const auto r = rdv::test::run_to_end(
      server, {"--root", (tree.root() / "missing").string(), "--listen", "127.0.0.1:0"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("missing"), std::string::npos) << "the error names the root: " << r.err;
}

}  // namespace
