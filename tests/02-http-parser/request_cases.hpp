#pragma once
// The table of requests that chapter 2's tests (and its differential test
// against http-parser) run, grouped by the exercise that makes them pass.
// `expected` is what parse_driver's summary() prints for the whole input:
// the requests it holds, then the error (or "incomplete").

#include <string>
#include <vector>

namespace rdv::test {

struct request_case {
  const char* what;      // one sentence: what the case shows
  std::string input;     // the bytes a client sends
  std::string expected;  // summary(outcome)
  // How http-parser 2.9 decides differently, and why; nullptr when it agrees.
  const char* http_parser = nullptr;
};

std::vector<request_case> request_line_cases();  // ch02.1
std::vector<request_case> field_cases();         // ch02.2
std::vector<request_case> framing_cases();       // ch02.3
std::vector<request_case> chunked_cases();       // ch02.4 and ch02.5
std::vector<request_case> pipelined_cases();     // all of them together

// Every case above, in order.
std::vector<request_case> all_request_cases();

}  // namespace rdv::test
