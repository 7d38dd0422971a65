// Chapter 8: async_sendfile, the sendfile(2) loop as an Asio operation —
// every byte in order through a socket that keeps filling up, with a
// callback, with asio::spawn's yield, and in a process.
#include "async_sendfile.hpp"
#include "event_loop.hpp"
#include "processes.hpp"
#include "root_directory.hpp"
#include "sendfile_faults.hpp"
#include "temp_root.hpp"
#include "use_process.hpp"

#include "rdv/server.hpp"
#include "rdv/test/book.hpp"
#include "rdv/test/escape.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/spawn.hpp>

#include <fcntl.h>

#include <csignal>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using rdv::test::explained_in;

// Two connected sockets on loopback with tiny buffers, so that the sender's
// buffer fills after a few kilobytes and sendfile has to wait for the reader.
struct socket_pair {
  asio::io_context io;
  tcp::socket sender{io}, receiver{io};

  socket_pair() {
    tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
    acceptor.set_option(asio::socket_base::receive_buffer_size(4096));
    sender.open(tcp::v4());
    sender.set_option(asio::socket_base::send_buffer_size(4096));
    sender.connect(acceptor.local_endpoint());
    acceptor.accept(receiver);
  }
};

// A file of `content` in a temporary directory, open for reading.
struct temp_file {
  ch08::temp_root tree;
  rdv::files::file_handle file;
  explicit temp_file(std::string_view content) {
    tree.write("f", content);
    file = rdv::files::file_handle(::open((tree.root() / "f").c_str(), O_RDONLY | O_CLOEXEC));
  }
};

// What a finished async_sendfile reported.
struct outcome {
  bool done = false;
  boost::system::error_code ec;
  std::uint64_t sent = 0;
};

// Runs `io` until `done()` holds, or 30 s pass.
template <class Done>
void run_until(asio::io_context& io, Done done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!done() && std::chrono::steady_clock::now() < deadline)
    io.run_one_for(std::chrono::milliseconds(100));
}

// One async_sendfile through a socket pair, with a reader that reads
// `expected` bytes on the other side.
struct transfer {
  socket_pair s;
  std::string received;
  bool reader_done = false;
  outcome o;

  explicit transfer(std::size_t expected) {
    asio::async_read(s.receiver, asio::dynamic_buffer(received), asio::transfer_exactly(expected),
                     [this](boost::system::error_code, std::size_t) { reader_done = true; });
  }
  // A callback that records the outcome.
  auto record() {
    return [this](boost::system::error_code ec, std::uint64_t sent) { o = {true, ec, sent}; };
  }
  // Runs until the sender has finished, then (the sender's side shut, so
  // that a reader still waiting sees the end) until the reader has.
  void run() {
    run_until(s.io, [&] { return o.done; });
    boost::system::error_code ignored;
    s.sender.shutdown(tcp::socket::shutdown_send, ignored);
    run_until(s.io, [&] { return reader_done; });
  }
  void expect_sent(std::string_view expected) const {
    ASSERT_TRUE(o.done)
        << "the operation never completed (waiting for a writability that never came?)";
    EXPECT_FALSE(o.ec) << o.ec.message();
    EXPECT_EQ(o.sent, expected.size());
    EXPECT_EQ(received.size(), expected.size()) << "bytes received";
    if (received != expected) ADD_FAILURE() << rdv::test::first_difference(expected, received);
  }
};

const std::string content = ch08::pattern(1024 * 1024 + 17);

TEST(AsyncSendfile, WithACallbackSendsEveryByteInOrder) {
  explained_in("ch08-sendfile");
  temp_file f(content);
  transfer t(content.size());
  rdv::files::async_sendfile(t.s.sender, f.file.get(), 0, content.size(), t.record());
  t.run();
  t.expect_sent(content);
}

TEST(AsyncSendfile, CompletesThroughTheEventLoopEvenWhenDoneAtOnce) {
  explained_in("ch08-async-sendfile");
  temp_file f("1234567");
  transfer t(7);
  rdv::files::async_sendfile(t.s.sender, f.file.get(), 0, 7, t.record());
  EXPECT_FALSE(t.o.done)
      << "an Asio operation never calls its handler from the function that starts it";
  t.run();
  t.expect_sent("1234567");
}

TEST(AsyncSendfile, SendsTheRangeAskedFor) {
  explained_in("ch08-sendfile");
  temp_file f(content);
  transfer t(300'000);
  rdv::files::async_sendfile(t.s.sender, f.file.get(), 123'456, 300'000, t.record());
  t.run();
  t.expect_sent(std::string_view(content).substr(123'456, 300'000));
}

TEST(AsyncSendfile, ReportsEofWhenTheFileIsShorterThanTheCount) {
  explained_in("ch08-sendfile");
  temp_file f(content);
  transfer t(content.size());
  rdv::files::async_sendfile(t.s.sender, f.file.get(), 0, content.size() + 1000, t.record());
  t.run();
  ASSERT_TRUE(t.o.done) << "the operation never completed";
  EXPECT_EQ(t.o.ec, asio::error::eof) << "got " << t.o.ec.message();
  EXPECT_EQ(t.o.sent, content.size());
  EXPECT_TRUE(t.received == content) << rdv::test::first_difference(content, t.received);
}

// Sends the whole content with async_sendfile, its first sendfile_some()
// call going as `fault` says; expects every byte once.
void expect_every_byte_despite(ch08::sendfile_fault fault) {
  temp_file f(content);
  transfer t(content.size());
  ch08::fail_next_sendfile(fault);
  rdv::files::async_sendfile(t.s.sender, f.file.get(), 0, content.size(), t.record());
  t.run();
  t.expect_sent(content);
}

TEST(AsyncSendfile, TriesAgainWhenASignalInterruptsACall) {
  explained_in("ch08-sendfile");
  expect_every_byte_despite(ch08::sendfile_fault::interrupted);
}

TEST(AsyncSendfile, CountsTheBytesOfACallThatASignalInterrupted) {
  explained_in("ch08-sendfile");
  // As FreeBSD's and macOS's sendfile may: some bytes sent, and EINTR.
  expect_every_byte_despite(ch08::sendfile_fault::sent_then_interrupted);
}

TEST(AsyncSendfile, SendsNothingForACountOfZero) {
  explained_in("ch08-sendfile");
  temp_file f(content);
  transfer t(0);
  rdv::files::async_sendfile(t.s.sender, f.file.get(), 0, 0, t.record());
  t.run();
  t.expect_sent("");  // done, no error (not eof: nothing was short), 0 bytes
}

TEST(AsyncSendfile, CountsTheBytesOfACallThatAlsoReportsAFullBuffer) {
  explained_in("ch08-sendfile");
  // As FreeBSD's and macOS's sendfile do: some bytes sent, and EAGAIN.
  expect_every_byte_despite(ch08::sendfile_fault::sent_then_full);
}

TEST(AsyncSendfile, AsksForWhatIsLeftEvenPastFourGibibytes) {
  explained_in("ch08-sendfile");
  temp_file f("x");
  socket_pair s;
  outcome o;
  // 4 GiB and 100 bytes: its first call (which the client's leaving ends)
  // asks for more than the 100 bytes a count cut to 32 bits keeps.
  const std::uint64_t count = (std::uint64_t{1} << 32) + 100;
  ch08::fail_next_sendfile(ch08::sendfile_fault::reset);
  rdv::files::async_sendfile(
      s.sender, f.file.get(), 0, count,
      [&](boost::system::error_code ec, std::uint64_t sent) { o = {true, ec, sent}; });
  run_until(s.io, [&] { return o.done; });
  ASSERT_TRUE(o.done) << "the operation never completed";
  EXPECT_EQ(o.ec, boost::system::error_code(ECONNRESET, boost::system::system_category()))
      << o.ec.message();
  EXPECT_GT(ch08::last_count_asked(), 100u)
      << "of 4 GiB and 100 bytes, sendfile was asked for " << ch08::last_count_asked()
      << ": was the count cut to 32 bits?";
}

TEST(AsyncSendfile, LeavesTheSocketBlockingForItsOwnersCalls) {
  explained_in("ch08-async-sendfile");
  temp_file f("1234567");
  transfer t(7);
  ASSERT_FALSE(t.s.sender.non_blocking());
  rdv::files::async_sendfile(t.s.sender, f.file.get(), 0, 7, t.record());
  t.run();
  t.expect_sent("1234567");
  EXPECT_FALSE(t.s.sender.non_blocking())
      << "the operation makes the descriptor non-blocking for itself (native_non_blocking); the "
         "socket's owner still gets blocking synchronous calls (non_blocking() stays false)";
}

TEST(AsyncSendfile, ReportsAClientThatHasGoneWithAsiosOwnError) {
  explained_in("ch08-sendfile");
  temp_file f(content);
  socket_pair s;
  s.receiver.close();  // the client leaves: what reaches its port is answered with a reset
  const auto before = std::signal(SIGPIPE, SIG_IGN);  // as every server of the course does
  outcome o;
  rdv::files::async_sendfile(
      s.sender, f.file.get(), 0, content.size(),
      [&](boost::system::error_code ec, std::uint64_t sent) { o = {true, ec, sent}; });
  run_until(s.io, [&] { return o.done; });
  std::signal(SIGPIPE, before);
  ASSERT_TRUE(o.done) << "the operation never completed";
  EXPECT_TRUE(o.ec == asio::error::broken_pipe || o.ec == asio::error::connection_reset)
      << "got " << o.ec.message() << " (" << o.ec.category().name()
      << "): a system call's errno is an error of the system category, which is how Asio's "
         "callers compare it with broken_pipe or connection_reset";
}

TEST(AsyncSendfile, StopsWhenItsWaitIsCancelled) {
  explained_in("ch08-async-sendfile");
  temp_file f(content);
  socket_pair s;  // nobody reads: the sender fills up and waits
  outcome o;
  rdv::files::async_sendfile(
      s.sender, f.file.get(), 0, content.size(),
      [&](boost::system::error_code ec, std::uint64_t sent) { o = {true, ec, sent}; });
  asio::post(s.io, [&] { s.sender.cancel(); });
  run_until(s.io, [&] { return o.done; });
  ASSERT_TRUE(o.done) << "the operation never completed";
  EXPECT_EQ(o.ec, asio::error::operation_aborted) << "got " << o.ec.message();
  EXPECT_GT(o.sent, 0u);
  EXPECT_LT(o.sent, content.size());
}

TEST(AsyncSendfile, WorksWithSpawnsYield) {
  explained_in("ch08-async-sendfile");
  temp_file f(content);
  transfer t(content.size());
  asio::spawn(
      t.s.io,
      [&](asio::yield_context yield) {
        boost::system::error_code ec;
        const std::uint64_t sent =
            rdv::files::async_sendfile(t.s.sender, f.file.get(), 0, content.size(), yield[ec]);
        t.o = {true, ec, sent};
      },
      rdv::rethrow);
  t.run();
  t.expect_sent(content);
}

TEST(AsyncSendfile, WorksInAProcessWithUseProcess) {
  explained_in("ch08-async-sendfile");
  temp_file f(content);
  transfer t(content.size());
  std::string crashed;
  {
    rdv::proc::scheduler node({.crash_log = nullptr});
    rdv::proc::run_in(t.s.io, node);
    node.spawn([&] {
      try {
        boost::system::error_code ec;
        const std::uint64_t sent = rdv::files::async_sendfile(
            t.s.sender, f.file.get(), 0, content.size(), rdv::proc::use_process[ec]);
        t.o = {true, ec, sent};
      } catch (const std::exception& e) {
        crashed = e.what();
        t.o.done = true;
      }
    });
    t.run();
  }
  EXPECT_EQ(crashed, "") << "the process crashed";
  t.expect_sent(content);
}

}  // namespace
