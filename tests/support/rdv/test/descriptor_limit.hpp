#pragma once
/// \file
/// A server program run out of file descriptors, for the tests that it
/// pauses accepting then (instead of spinning) and recovers afterwards.

#include "rdv/test/client.hpp"
#include "rdv/test/program.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace rdv::test {

/// Starts `path args...` (which must take `--listen 127.0.0.1:0`) allowed
/// only `limit` file descriptors (prlimit, from util-linux), and connects
/// `limit` clients that each send `request`. A few descriptors are the
/// program's own, so it runs out: accept() fails with EMFILE, and the last
/// clients wait in the listen queue.
class descriptor_limit {
public:
  /// The program, run out of descriptors.
  descriptor_limit(const std::string& path, std::vector<std::string> args, std::string request,
                   int limit = 40);

  /// Expects (GoogleTest) that the program uses little CPU for a second (a
  /// server that accepts again at once when out of descriptors spins on most
  /// of a core), and that once the first half of the clients leave, freeing
  /// their descriptors, every client that waited gets a 200.
  void expect_pause_then_recovery();

  program server;                                ///< the program under test
  std::vector<std::unique_ptr<client>> clients;  ///< every client, in the order they connected
};

}  // namespace rdv::test
