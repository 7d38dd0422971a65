#include "hub_fixture.hpp"

#include "connection.hpp"
#include "rdv/test/unsolved.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/serialize.hpp>

#include <memory>

#include <unistd.h>

namespace ch10 {

std::string forwarded::field(std::string_view name) const {
  return rdv::test::field_value(fields, name);
}

std::size_t forwarded::count(std::string_view name) const {
  return rdv::test::field_count(fields, name);
}

std::string forwarded::head() const {
  std::string out = method + " " + target + "\n";
  for (const auto& [n, v] : fields) out += "  " + n + ": " + v + "\n";
  return out;
}

test_backend::test_backend(int status, hook before_answer)
    : status_(status), before_answer_(std::move(before_answer)),
      thread_(rdv::test::server_thread::thread_starter(
          [this](boost::asio::io_context& io, boost::asio::ip::tcp::acceptor& acceptor) {
            auto node = std::make_shared<rdv::proc::scheduler>(
                rdv::proc::scheduler_options{.crash_log = nullptr});
            rdv::proc::run_in(io, *node);
            node->spawn([this, &acceptor] {
              rdv::web::accept_connections(acceptor,
                                           [this](rdv::web::request& r) { return handle(r); }, {});
            });
            return std::shared_ptr<void>(node);
          })) {}

rdv::web::response test_backend::handle(rdv::web::request& r) {
  forwarded f{std::string(r.head.method),
              std::string(r.head.target),
              std::string(r.body),
              {},
              r.peer.port()};
  for (const rdv::http::field field : r.head.fields) f.fields.emplace_back(field.name, field.value);
  if (before_answer_) before_answer_(f);
  {
    const std::lock_guard lock(mutex_);
    ++received_;
  }
  // The test hears of the request once the answer is on its way, so that
  // the hub has it too (or will, before anything the test sends next): the
  // server writes the head, then calls write_body.
  rdv::web::response answer = rdv::web::text_response(status_);
  if (status_ == 204) answer.body.clear();    // a 204 has no body
  const bool head_only = f.method == "HEAD";  // no body, so no write_body call
  auto publish = [this, f = std::move(f)]() mutable {
    {
      const std::lock_guard lock(mutex_);
      waiting_.push_back(std::move(f));
    }
    arrived_.notify_all();
  };
  if (head_only) {
    publish();
    return answer;
  }
  // The forward is published once its answer is on the wire, so that a test
  // that has it knows the hub has the answer too.
  answer.writer = rdv::web::body_writer{
      answer.body.size(), [body = answer.body, publish = std::move(publish)](
                              boost::asio::ip::tcp::socket& socket, std::string_view head,
                              std::chrono::milliseconds patience) mutable {
        const bool sent = rdv::web::send_all(socket, {head, body}, patience);
        publish();
        return sent;
      }};
  return answer;
}

namespace {
const rdv::test::program* watched = nullptr;  // the program whose log next() watches
}  // namespace

watching::watching(const rdv::test::program& p) : previous_(watched) { watched = &p; }
watching::~watching() { watched = previous_; }

forwarded test_backend::next() {
  std::unique_lock lock(mutex_);
  for (auto waited = 0ms; waiting_.empty(); waited += 50ms) {
    // Waiting in slices, so that a hub whose connections crash (an unsolved
    // exercise) ends the wait at once, with the reason, not after 10 s.
    if (arrived_.wait_for(lock, 50ms, [&] { return !waiting_.empty(); })) break;
    rdv::test::throw_if_todo();
    const std::string log = watched ? watched->output() : "";
    if (log.find(" crashed: ") != std::string::npos || log.find(" exited: ") != std::string::npos) {
      throw std::runtime_error("the backend waits for a request, but a process of `" +
                               watched->command_line() + "` crashed:\n" + log);
    }
    if (waited >= 10s) {
      throw std::runtime_error(
          "the backend waited 10 s for a request from the hub, and none came (" +
          std::to_string(received_) + " came before); the hub's log:\n" + log);
    }
  }
  forwarded f = std::move(waiting_.front());
  waiting_.pop_front();
  return f;
}

std::optional<forwarded> test_backend::next_within(std::chrono::milliseconds limit) {
  std::unique_lock lock(mutex_);
  if (!rdv::test::wait_until_done(arrived_, lock, limit, [&] { return !waiting_.empty(); })) {
    return std::nullopt;
  }
  forwarded f = std::move(waiting_.front());
  waiting_.pop_front();
  return f;
}

std::vector<forwarded> test_backend::next(std::size_t n) {
  std::vector<forwarded> all;
  while (all.size() < n) all.push_back(next());
  return all;
}

std::size_t test_backend::received() const {
  const std::lock_guard lock(mutex_);
  return received_;
}

std::uint16_t refused_port() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor a(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();  // closed when `a` goes: nothing listens there
}

silent_backend::silent_backend() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor a(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  a.listen(1024);
  port_ = a.local_endpoint().port();
  fd_ = a.release();  // it stays open, listening; nobody accepts
}

silent_backend::~silent_backend() { ::close(fd_); }

hub::hub(std::vector<std::string> args)
    : program_([&] {
        args.insert(args.begin(), {"--listen", "127.0.0.1:0", "--reply-listen", "127.0.0.1:0"});
        return rdv::test::program(rdv::test::built_program("hub"), args, 2);
      }()),
      front_(program_.port("front")), replies_(program_.port("reply")), watch_(program_) {}

boost::json::object hub::stats() {
  rdv::test::client c(replies_);
  c.send("GET /stats HTTP/1.1\r\nHost: hub\r\n\r\n");
  const auto r = c.read_response();
  if (r.status != 200) throw std::runtime_error("GET /stats answered " + std::to_string(r.status));
  return boost::json::parse(r.body).as_object();
}

bool hub::wait_for_stat(std::string_view name, std::int64_t value) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    if (stat(name) == value) return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

std::string reply_request(std::string_view id, std::string_view body, std::string_view content_type,
                          std::string_view extra) {
  std::string out = "POST /reply/" + std::string(id) + " HTTP/1.1\r\nHost: hub\r\n";
  if (!content_type.empty()) out += "Content-Type: " + std::string(content_type) + "\r\n";
  out += std::string(extra) + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  return out + std::string(body);
}

std::string http_message(std::string_view status_line, std::string_view body,
                         std::string_view extra_fields) {
  return std::string(status_line) + "\r\n" + std::string(extra_fields) +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

rdv::test::response post_reply(std::uint16_t reply_port, std::string_view id, std::string_view body,
                               std::string_view content_type, std::string_view extra) {
  rdv::test::client c(reply_port);
  c.send(reply_request(id, body, content_type, extra));
  return c.read_response();
}

std::string get(std::string_view target, std::string_view extra) {
  return "GET " + std::string(target) + " HTTP/1.1\r\nHost: hub\r\n" + std::string(extra) + "\r\n";
}

}  // namespace ch10
