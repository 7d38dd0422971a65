#include "machines.hpp"

#include "rdv/test/program.hpp"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <stdexcept>

namespace ch11 {

machines::machines(int count) : prefix_("rdv" + std::to_string(::getpid()) + "-"), count_(count) {
  if (::geteuid() != 0) {
    why_not_ = "making network namespaces (ip netns add) needs root";
    return;
  }
  // Machine 0 is the network: a bridge that every machine's link plugs into.
  bool made = ip({"netns", "add", name(0)}) &&
              ip({"-n", name(0), "link", "add", "lan", "type", "bridge"}) &&
              ip({"-n", name(0), "link", "set", "lan", "up"});
  for (int n = 1; made && n <= count; ++n) {
    const std::string link = "m" + std::to_string(n);
    made = ip({"netns", "add", name(n)}) &&
           ip({"link", "add", "eth0", "netns", name(n), "type", "veth", "peer", "name", link,
               "netns", name(0)}) &&
           ip({"-n", name(0), "link", "set", link, "master", "lan", "up"}) &&
           ip({"-n", name(n), "addr", "add", address(n) + "/24", "dev", "eth0"}) &&
           ip({"-n", name(n), "link", "set", "eth0", "up"}) &&
           ip({"-n", name(n), "link", "set", "lo", "up"});
  }
  if (!made && why_not_.empty()) why_not_ = "ip could not make the network namespaces";
}

machines::~machines() {
  for (auto it = made_.rbegin(); it != made_.rend(); ++it) ip({"netns", "del", *it});
}

std::string machines::name(int n) const { return prefix_ + std::to_string(n); }

bool machines::ip(const std::vector<std::string>& args) {
  const auto run = rdv::test::run_to_end("/usr/sbin/ip", args, {}, std::chrono::seconds(10));
  if (run.status != 0) {
    why_not_ = "ip " + args[0] + " " + args[1] + ": " + run.err;
    return false;
  }
  if (args[0] == "netns" && args[1] == "add") made_.push_back(args[2]);
  return true;
}

void machines::on(int n, const std::function<void()>& body) const {
  const int home = ::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  const int there = ::open(("/run/netns/" + name(n)).c_str(), O_RDONLY | O_CLOEXEC);
  if (home < 0 || there < 0 || ::setns(there, CLONE_NEWNET) != 0) {
    if (home >= 0) ::close(home);
    if (there >= 0) ::close(there);
    throw std::runtime_error("cannot enter the namespace of machine " + std::to_string(n));
  }
  ::close(there);
  struct back_home {  // whatever body does, this thread comes back
    int fd;
    ~back_home() {
      (void)::setns(fd, CLONE_NEWNET);
      ::close(fd);
    }
  } guard{home};
  body();
}

}  // namespace ch11
