#include "nats_fixture.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>
#include <thread>

namespace ch11 {

namespace {

// Debian installs it in /usr/sbin, which a learner's PATH may not have.
std::string nats_server_path() {
  for (const char* path : {"/usr/sbin/nats-server", "/usr/bin/nats-server"}) {
    if (std::filesystem::exists(path)) return path;
  }
  throw std::runtime_error("nats-server is not installed: ./course test installs it "
                           "(Debian package nats-server)");
}

}  // namespace

scratch_dir::scratch_dir() {
  std::string name = (std::filesystem::temp_directory_path() / "rdv-ch11-XXXXXX").string();
  if (::mkdtemp(name.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = name;
}

scratch_dir::~scratch_dir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string scratch_dir::write(const std::string& name, std::string_view text) const {
  const std::string file = path_ + "/" + name;
  std::ofstream(file) << text;
  return file;
}

nats_server::nats_server(std::vector<std::string> extra) : extra_(std::move(extra)) {
  start("-1");  // -1: a random free port
}

void nats_server::start(const std::string& port) {
  std::vector<std::string> args{"-a", "127.0.0.1", "-p", port};
  args.insert(args.end(), extra_.begin(), extra_.end());
  server_ = std::make_unique<rdv::test::program>(nats_server_path(), std::move(args), 0);
  if (!server_->wait_for_output("Server is ready", 10s)) {
    throw std::runtime_error("nats-server did not start; it printed:\n" + server_->output());
  }
  static const std::regex listening(R"(Listening for client connections on [0-9.]+:(\d+))");
  std::smatch found;
  const std::string output = server_->output();
  if (!std::regex_search(output, found, listening)) {
    throw std::runtime_error("nats-server did not say its port:\n" + output);
  }
  port_ = static_cast<std::uint16_t>(std::stoi(found[1]));
}

void nats_server::stop() {
  if (server_) server_->stop();
  server_.reset();
}

void nats_server::restart() {
  stop();
  start(std::to_string(port_));
}

ch10::hub bus_hub(const nats_server& bus, const std::string& name, std::vector<std::string> args) {
  args.insert(args.begin(), {"--bus", bus.url(), "--hub-id", name});
  return ch10::hub(std::move(args));
}

boost::json::object bus_stats(ch10::hub& hub) { return hub.stats().at("bus").as_object(); }

bool wait_connected(ch10::hub& hub, bool connected, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (bus_stats(hub).at("connected").as_bool() == connected) return true;
    std::this_thread::sleep_for(10ms);  // polling a state, not synchronising
  }
  return false;
}

std::string reply_saying(std::string_view text) {
  return ch10::http_message("HTTP/1.1 200 OK", text, "Content-Type: text/plain\r\n");
}

}  // namespace ch11
