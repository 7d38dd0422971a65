#pragma once
// Chapter 11's tests: machines of the test's own, as Linux network
// namespaces joined by a bridge, each with an address 10.77.0.N/24. Nothing
// of them is visible outside the namespaces, which the test makes and
// removes; making them needs root (CAP_SYS_ADMIN).
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ch11 {

class machines {
public:
  // Makes `count` machines, or says in why_not() why it could not.
  explicit machines(int count);
  // Removes the namespaces (and with them the links and addresses).
  ~machines();
  machines(const machines&) = delete;
  machines& operator=(const machines&) = delete;

  // Why the machines could not be made; empty if they were.
  const std::string& why_not() const { return why_not_; }
  // The address of machine `n` (1, 2, ...): "10.77.0.n".
  static std::string address(int n) { return "10.77.0." + std::to_string(n); }

  // Runs `body` on this thread as if on machine `n`: a socket it opens, or
  // a program it starts (a child inherits the namespace), lives there, and
  // 127.0.0.1 is that machine's own loopback.
  void on(int n, const std::function<void()>& body) const;

private:
  std::string name(int n) const;  // of machine n's namespace; 0 is the network's
  bool ip(const std::vector<std::string>& args);

  std::string prefix_;
  int count_ = 0;
  std::vector<std::string> made_;  // namespaces to remove
  std::string why_not_;
};

}  // namespace ch11
