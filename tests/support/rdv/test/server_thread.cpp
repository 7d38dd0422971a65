#include "rdv/test/server_thread.hpp"

namespace rdv::test {

namespace asio = boost::asio;
using asio::ip::tcp;

server_thread::server_thread(const starter& start, by_hand manual)
    : context_(1), acceptor_(context_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
      port_(acceptor_.local_endpoint().port()), manual_(std::move(manual)) {
  start(context_, acceptor_);
  thread_ = std::thread([this] {
    try {
      context_.run();
    } catch (const std::exception& e) {
      const std::lock_guard lock(mutex_);
      failure_ = e.what();
    } catch (...) {
      const std::lock_guard lock(mutex_);
      failure_ = "an exception that is not a std::exception";
    }
  });
}

server_thread::~server_thread() {
  context_.stop();
  thread_.join();
}

std::string server_thread::failure() const {
  const std::lock_guard lock(mutex_);
  return failure_;
}

}  // namespace rdv::test
