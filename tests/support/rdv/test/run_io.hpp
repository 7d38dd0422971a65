#pragma once
/// \file
/// Runs an io_context in the test's own thread, as io_context::run_for does,
/// but gives up at once when the code under test reaches an exercise stub.

#include "rdv/test/unsolved.hpp"

#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <chrono>

namespace rdv::test {

/// Runs `io` until it has no work left or `limit` has passed; throws
/// unsolved_exercise as soon as an exercise stub is reached.
inline void run_io(boost::asio::io_context& io, std::chrono::steady_clock::duration limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!io.stopped()) {
    throw_if_todo();
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= left.zero()) return;
    io.run_for(std::min<std::chrono::steady_clock::duration>(left, std::chrono::milliseconds(50)));
  }
  throw_if_todo();
}

}  // namespace rdv::test
