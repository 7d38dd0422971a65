#pragma once
/// \file
/// What the kernel says of the test's own process in /proc/self/status.

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <string_view>

namespace rdv::test {

/// A size field of /proc/self/status (VmSize, VmRSS, ...), in bytes.
inline double status_bytes(std::string_view field) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with(field) && line.size() > field.size() && line[field.size()] == ':') {
      return std::stod(line.substr(field.size() + 1)) * 1024;  // in kB
    }
  }
  ADD_FAILURE() << "/proc/self/status has no " << field << " line";
  return 0;
}

}  // namespace rdv::test
