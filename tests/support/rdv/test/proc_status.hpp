#pragma once
/// \file
/// What the kernel says of a process in /proc/PID/status: the test's own,
/// or a program it runs.

#include <sys/types.h>

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <string_view>

namespace rdv::test {

/// A size field of /proc/PID/status (VmSize, VmRSS, VmHWM, ...), in bytes;
/// of the test's own process when `pid` is 0.
inline double status_bytes(std::string_view field, pid_t pid = 0) {
  const std::string path =
      "/proc/" + (pid == 0 ? std::string("self") : std::to_string(pid)) + "/status";
  std::ifstream status(path);
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with(field) && line.size() > field.size() && line[field.size()] == ':') {
      return std::stod(line.substr(field.size() + 1)) * 1024;  // in kB
    }
  }
  ADD_FAILURE() << path << " has no " << field << " line";
  return 0;
}

}  // namespace rdv::test
