#pragma once
// Chapter 10's tests (and chapter 11's): a peer the test scripts on a thread
// of its own, with a listening socket and reads bounded in time.
#include "rdv/test/unsolved.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <array>
#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

namespace ch10 {

// How many whole requests (without bodies) `bytes` holds.
inline std::size_t requests_in(std::string_view bytes) {
  std::size_t n = 0;
  for (auto at = bytes.find("\r\n\r\n"); at != std::string_view::npos;
       at = bytes.find("\r\n\r\n", at + 4)) {
    ++n;
  }
  return n;
}

// A backend the test scripts: `script` runs on a thread of its own with a
// listening acceptor, and accepts and reads with a 10 s limit, so that a
// pool that never connects or never writes fails the test instead of
// hanging it. What went wrong on that thread is in failure(). A
// `receive_buffer` (bytes) fixes the size of its connections' receive
// buffers, which the kernel would otherwise grow as they fill.
class scripted_backend {
public:
  explicit scripted_backend(std::function<void(scripted_backend&)> script, int receive_buffer = 0)
      : acceptor_(listening(io_, receive_buffer)), thread_([this, script = std::move(script)] {
          try {
            script(*this);
          } catch (const std::exception& e) {
            failure_ = e.what();
          }
        }) {}
  ~scripted_backend() { join(); }
  scripted_backend(const scripted_backend&) = delete;
  scripted_backend& operator=(const scripted_backend&) = delete;

  boost::asio::ip::tcp::endpoint endpoint() const { return acceptor_.local_endpoint(); }
  // Waits for the script to end; then failure() says how it went.
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  const std::string& failure() const { return failure_; }

  // For the script: the next connection.
  boost::asio::ip::tcp::socket accept() {
    if (!rdv::test::wait_readable(acceptor_.native_handle(), std::chrono::seconds(10))) {
      throw std::runtime_error("no connection came in 10 s");
    }
    return acceptor_.accept();
  }
  // For the script: what one read brings.
  static std::string read_some(boost::asio::ip::tcp::socket& s) {
    if (!rdv::test::wait_readable(s.native_handle(), std::chrono::seconds(10))) {
      throw std::runtime_error("nothing came in 10 s");
    }
    std::array<char, 65536> bytes;
    boost::system::error_code ec;
    const std::size_t n = s.read_some(boost::asio::buffer(bytes), ec);
    if (ec) throw std::runtime_error("the connection ended: " + ec.message());
    return {bytes.data(), n};
  }
  // For the script: reads until `n` whole requests have come.
  static std::string read_requests(boost::asio::ip::tcp::socket& s, std::size_t n) {
    std::string all;
    while (requests_in(all) < n) all += read_some(s);
    return all;
  }

private:
  // An acceptor on a free port of 127.0.0.1; the connections it takes keep
  // the receive buffer size it has.
  static boost::asio::ip::tcp::acceptor listening(boost::asio::io_context& io, int receive_buffer) {
    boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    if (receive_buffer > 0) {
      acceptor.set_option(boost::asio::socket_base::receive_buffer_size(receive_buffer));
    }
    return acceptor;
  }

  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::string failure_;
  std::thread thread_;
};

}  // namespace ch10
