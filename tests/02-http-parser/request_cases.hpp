#pragma once
// The table of requests that chapter 2's tests (and its differential test
// against http-parser) run, grouped by the exercise that makes them pass.
// `expected` is what parse_driver's summary() prints for the whole input:
// the requests it holds, then the error (or "incomplete").

#include "parse_driver.hpp"

#include <gtest/gtest.h>

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
std::vector<request_case> chunked_cases();       // ch02.4, ch02.5 and ch02.6
std::vector<request_case> pipelined_cases();     // all of them together

// Every case above, in order.
std::vector<request_case> all_request_cases();

// Whether `c` gives its expected summary when parsed whole, and when split
// in two at every byte boundary; the failure names the case and the split.
::testing::AssertionResult parses_as_expected(const request_case& c,
                                              const http::limits& limits = {});

// Runs parses_as_expected() on every case of `cases`.
void expect_cases(const std::vector<request_case>& cases, const http::limits& limits = {});

}  // namespace rdv::test
