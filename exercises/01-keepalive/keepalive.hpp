#pragma once
/// \file
/// Chapter 1: an HTTP server in about thirty lines that answers every request
/// with seven bytes and keeps connections alive, one coroutine per connection.

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/spawn.hpp>

#include <cstddef>
#include <string>
#include <string_view>

/// Chapter 1's keep-alive server.
namespace rdv::keepalive {

/// The longest request head (request line and header fields) a client may send;
/// a client that sends more without finishing its head is disconnected.
inline constexpr std::size_t max_head_size = 8192;

/// Whether the connection stays open after answering the request whose head
/// (request line and header fields, without the blank line) is `head`.
bool keeps_alive(std::string_view head);

/// Appends one reply to `replies` for every complete request head at the start
/// of `received`, in order; returns how many bytes those heads used. Stops after
/// a request that closes the connection, and sets `open` to false then.
std::size_t answer_heads(std::string_view received, std::string& replies, bool& open);

/// Serves one connection until the client leaves, asks to close, or sends a
/// head longer than max_head_size.
void serve(boost::asio::ip::tcp::socket socket, boost::asio::yield_context yield);

/// Accepts connections until the acceptor is closed, serving each one in a
/// coroutine of its own.
void accept(boost::asio::ip::tcp::acceptor& acceptor, boost::asio::yield_context yield);

}  // namespace rdv::keepalive
