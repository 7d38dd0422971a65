#include "nats_fixture.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
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

// Runs the openssl program with `args`; throws, with what it said, if it fails.
void openssl(const std::vector<std::string>& args) {
  const auto run = rdv::test::run_to_end("/usr/bin/openssl", args);
  if (run.status != 0) {
    throw std::runtime_error("openssl failed (./course test installs it, Debian package "
                             "openssl):\n" +
                             run.err);
  }
}

// The last 32 bytes of the file `path`: an Ed25519 key in the DER forms
// openssl writes ends with its raw 32 bytes.
std::string raw_key(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  const std::string der((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (der.size() < 32) throw std::runtime_error("not an Ed25519 key: " + path);
  return der.substr(der.size() - 32);
}

// An nkey's text: `prefix` and `key`, their CRC-16 (XMODEM), little end
// first, all in base32 (RFC 4648) without padding.
std::string nkey_text(std::string prefix, std::string_view key) {
  std::string data = std::move(prefix).append(key);
  std::uint16_t crc = 0;
  for (const char byte : data) {
    crc ^= static_cast<std::uint16_t>(static_cast<unsigned char>(byte) << 8);
    for (int bit = 0; bit < 8; ++bit) {
      crc = static_cast<std::uint16_t>(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
    }
  }
  data += static_cast<char>(crc & 0xff);
  data += static_cast<char>(crc >> 8);
  static constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  std::string text;
  unsigned bits = 0;
  int count = 0;
  for (const char byte : data) {
    bits = (bits << 8) | static_cast<unsigned char>(byte);
    for (count += 8; count >= 5; count -= 5) text += alphabet[(bits >> (count - 5)) & 31];
  }
  if (count > 0) text += alphabet[(bits << (5 - count)) & 31];
  return text;
}

}  // namespace

user_nkey make_user_nkey(const scratch_dir& dir) {
  const std::string private_der = dir.path() + "/user.der";
  const std::string public_der = dir.path() + "/user.pub.der";
  openssl({"genpkey", "-algorithm", "ed25519", "-outform", "DER", "-out", private_der});
  openssl({"pkey", "-inform", "DER", "-in", private_der, "-pubout", "-outform", "DER", "-out",
           public_der});
  constexpr unsigned user = 20 << 3;  // the prefix byte of a user's key: 'U' in base32
  constexpr unsigned seed = 18 << 3;  // of a seed: 'S', then the user's 'U'
  const std::string seed_prefix{static_cast<char>(seed | (user >> 5)),
                                static_cast<char>((user & 31) << 3)};
  return {nkey_text(std::string(1, static_cast<char>(user)), raw_key(public_der)),
          dir.write("user.nk", nkey_text(seed_prefix, raw_key(private_der)) + "\n")};
}

std::string make_certificate(const scratch_dir& dir) {
  const std::string certificate = dir.path() + "/bus.pem";
  openssl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
           "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
           "-keyout", dir.path() + "/bus.key", "-out", certificate});
  return certificate;
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

nats_server::~nats_server() { stop(); }

void nats_server::stop() {
  thaw();  // a frozen process would take SIGTERM only once thawed
  if (server_) server_->stop();
  server_.reset();
}

void nats_server::freeze() {
  if (server_) server_->signal(SIGSTOP);
}

void nats_server::thaw() {
  if (server_) server_->signal(SIGCONT);
}

void nats_server::restart() {
  stop();
  start(std::to_string(port_));
}

ch10::hub bus_hub(const nats_server& bus, const std::string& name, std::vector<std::string> args) {
  args.insert(args.begin(), {"--bus", bus.url(), "--hub-id", name});
  return ch10::hub(std::move(args));
}

std::int64_t subscriptions(const nats_server& bus) {
  static const std::regex monitor(R"(Starting http monitor on [0-9.]+:(\d+))");
  std::smatch found;
  const std::string output = bus.output();
  if (!std::regex_search(output, found, monitor)) {
    throw std::runtime_error("nats-server has no monitoring port (start it with -m -1):\n" +
                             output);
  }
  rdv::test::client c(static_cast<std::uint16_t>(std::stoi(found[1])));
  c.send("GET /subsz HTTP/1.1\r\nHost: nats\r\n\r\n");
  const auto r = c.read_response();
  if (r.status != 200) throw std::runtime_error("GET /subsz answered " + std::to_string(r.status));
  return boost::json::parse(r.body).at("num_subscriptions").to_number<std::int64_t>();
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
