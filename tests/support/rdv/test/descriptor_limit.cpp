#include "rdv/test/descriptor_limit.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace rdv::test {

descriptor_limit::descriptor_limit(const std::string& path, std::vector<std::string> args,
                                   std::string request, int limit)
    : server("/usr/bin/prlimit", [&] {
        std::vector<std::string> all{
            "--nofile=" + std::to_string(limit) + ":" + std::to_string(limit), path};
        all.insert(all.end(), args.begin(), args.end());
        all.insert(all.end(), {"--listen", "127.0.0.1:0"});
        return all;
      }()) {
  for (int i = 0; i < limit; ++i) {
    clients.push_back(std::make_unique<client>(server.port("http")));
    clients.back()->send(request);
    if (i < limit / 2) clients.back()->read_response();  // surely accepted: served
  }
}

void descriptor_limit::expect_pause_then_recovery() {
  const auto before = cpu_time(server.pid());
  std::this_thread::sleep_for(std::chrono::seconds(1));  // the measurement's window
  const auto used = cpu_time(server.pid()) - before;
  EXPECT_LT(used.count(), 300) << "the server used " << used.count()
                               << " ms of CPU in one second while out of descriptors: it spins "
                                  "(accepting again at once) instead of pausing";
  clients.erase(clients.begin(), clients.begin() + static_cast<std::ptrdiff_t>(clients.size() / 2));
  for (auto& c : clients) EXPECT_EQ(c->read_response().status, 200) << c->transcript();
  EXPECT_TRUE(server.running()) << server.output();
}

}  // namespace rdv::test
