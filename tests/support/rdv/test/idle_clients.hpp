#pragma once
/// \file
/// Checks that a server hangs up on clients that complete no request in
/// time, whether they say nothing or trickle a request in byte by byte, and
/// that every whole request gives the next one its own time.

#include "rdv/test/client.hpp"

#include <chrono>
#include <cstdint>
#include <string_view>

namespace rdv::test {

/// Sends `bytes` to the server one at a time, after each waiting the
/// client's timeout for the server to hang up; returns whether it did
/// before the bytes ran out.
bool trickle_until_closed(client& c, std::string_view bytes);

/// Expects (GoogleTest) that the server on `port`, told to allow `idle`,
/// hangs up on a silent client and on one that sends a byte every idle/3
/// without ever finishing its request, and not before `idle` has passed.
void expect_idle_clients_cut_off(std::uint16_t port, std::chrono::milliseconds idle);

/// Expects (GoogleTest) that a client sending a request every 2/3 of `idle`,
/// six times, gets six answers on one connection.
void expect_requests_restart_the_clock(std::uint16_t port, std::chrono::milliseconds idle);

}  // namespace rdv::test
