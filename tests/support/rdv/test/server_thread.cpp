#include "rdv/test/server_thread.hpp"

#include <future>

namespace rdv::test {

namespace asio = boost::asio;
using asio::ip::tcp;

server_thread::server_thread(const starter& start, by_hand manual)
    : server_thread(thread_starter([&start](asio::io_context& context, tcp::acceptor& acceptor) {
                      start(context, acceptor);
                      return std::shared_ptr<void>();
                    }),
                    std::move(manual)) {}

server_thread::server_thread(thread_starter start, by_hand manual)
    : context_(1), acceptor_(context_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
      port_(acceptor_.local_endpoint().port()), manual_(std::move(manual)) {
  // The starter runs on the server's thread; wait for it, so that whatever it
  // sets up exists before the test talks to the server.
  std::promise<void> started;
  auto ready = started.get_future();
  thread_ = std::thread([this, start = std::move(start), &started] {
    std::shared_ptr<void> state;
    try {
      state = start(context_, acceptor_);
      started.set_value();
    } catch (...) {
      started.set_exception(std::current_exception());
      return;
    }
    run_and_record();
    state.reset();  // before the io_context goes, on the thread that made it
  });
  try {
    ready.get();
  } catch (...) {
    thread_.join();
    throw;
  }
}

void server_thread::run_and_record() {
  try {
    context_.run();
  } catch (const std::exception& e) {
    const std::lock_guard lock(mutex_);
    failure_ = e.what();
  } catch (...) {
    const std::lock_guard lock(mutex_);
    failure_ = "an exception that is not a std::exception";
  }
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
