#pragma once
/// \file
/// Chapter 6's program: a TCP echo server (RFC 862) with one process per
/// connection, each reading its socket through use_process and hanging up on
/// a client that stays silent too long.

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <cstddef>

/// Chapter 6's echo server.
namespace rdv::echo {

/// The most bytes one read takes (the process's buffer, on its stack).
inline constexpr std::size_t buffer_size = 2048;

/// Serves one connection, in the calling process: sends back every byte it
/// reads, until the client closes or says nothing for `idle`; then closes.
void serve(boost::asio::ip::tcp::socket socket, std::chrono::milliseconds idle);

/// Accepts connections until the acceptor is closed, each served by a new
/// process; runs in the calling process.
void accept(boost::asio::ip::tcp::acceptor& acceptor, std::chrono::milliseconds idle);

}  // namespace rdv::echo
