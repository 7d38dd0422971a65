#pragma once
/// \file
/// Chapter 8: the static-file handler — chapter 7's server answering GET and
/// HEAD from a directory, with validators, ranges and sendfile(2).

#include "root_directory.hpp"
#include "web.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rdv::files {

// [packing]
/// How a response's head and its file are handed to TCP. The default,
/// `automatic`, is `joined` (the fewest packets), except for a file long
/// enough to be paced when the connection's congestion control paces its
/// packets, as BBR does, or while its client's receive buffer has not
/// grown: `separate` then. The others are there for the experiment in the
/// book.
enum class packing {
  automatic,  ///< `separate` for a long file if paced or the window small, else `joined`
  joined,     ///< the head written with MSG_MORE: it waits to leave with the file's first bytes
  separate,   ///< the head written on its own, a small packet of its own (nginx's default)
  nagle,      ///< the head on its own, Nagle's algorithm on (what a naive server does)
  cork,       ///< Nagle on, and TCP_CORK from the head to the file's last byte
};
// [packing]

/// The most bytes of file that `automatic` joins its head to under a
/// congestion control that paces: up to this, the book's packets experiment
/// saw no pacing timer set under BBR whichever the packing, and `joined`'s
/// packet fewer wins; from twice this, the head held back cost BBR most of
/// its bandwidth estimate, and its pacing timers then cost more.
inline constexpr std::uint64_t unpaced_file_bytes = 64 * 1024;

/// How long the segments of a connection are, as its TCP_INFO says: Linux
/// sends none longer than half the largest receive window the client has
/// offered, so `sending` below `path` means that window is less than two
/// full segments. Over the loopback, whose segments carry 65,483 bytes,
/// that is a client whose receive buffer has not grown past where it
/// started (net.ipv4.tcp_rmem's middle value, 131,072 bytes unless
/// changed); over a network, where a window of two segments is a few KB,
/// it does not happen.
struct segment_sizes {
  std::uint32_t sending = 0;  ///< the longest the connection sends now (tcpi_snd_mss)
  std::uint32_t path = 0;     ///< the longest its path takes (tcpi_advmss)
};

/// The segment sizes of the connection `socket`, or nothing where the
/// system does not say.
std::optional<segment_sizes> segment_sizes_of(boost::asio::ip::tcp::socket& socket);

/// `pack` made definite for a response with `file_bytes` bytes of file, on a
/// connection whose congestion control is named `congestion` (as
/// `/proc/sys/net/ipv4/tcp_congestion_control` names them) and whose
/// segments are `segments` long (nothing: not known). `automatic` becomes
/// `joined` for a file of at most unpaced_file_bytes; for a longer one,
/// `separate` under a congestion control that paces (any whose name starts
/// with `bbr`) or while the segments are held below the path's size, and
/// `joined` otherwise. Since Linux 6.16 a receiver grows its buffer only
/// after a round trip in which the application took out more than in the
/// one before, counting off what the queue still holds, and a client whose
/// core is busy (ab) has its queue nearly empty only in the moment between
/// a head that arrived alone and the file behind it: a head joined to a
/// long file keeps the buffer, the window and the segments small (the
/// book's packets experiment, "A megabyte, and the client's window"). The
/// rest stay as they are.
packing packing_for(packing pack, std::string_view congestion, std::uint64_t file_bytes,
                    std::optional<segment_sizes> segments = std::nullopt);

/// Has every connection `acceptor` accepts from now on keep at most about
/// `bytes` of what it is given queued and not yet sent (Linux's
/// TCP_NOTSENT_LOWAT, set on the listener, which the connections inherit):
/// a response's sendfile() then waits for the bytes before it to leave, so
/// the server's own core sends most of the file instead of the core whose
/// ACKs open the window (the book's packets experiment). 0 leaves the
/// system's setting (net.ipv4.tcp_notsent_lowat, no limit unless changed).
/// Throws boost::system::system_error if the system refuses it.
void limit_unsent(boost::asio::ip::tcp::acceptor& acceptor, std::uint32_t bytes);

/// How static_files() serves.
struct static_options {
  std::string root;                       ///< the directory to serve
  bool use_sendfile = true;               ///< false: a read/write loop through a buffer
  confinement how = confinement::kernel;  ///< how paths are kept beneath the root
  std::size_t copy_buffer = 64 * 1024;    ///< the read/write loop's buffer
  packing pack = packing::automatic;      ///< how the head and the file meet TCP
  /// How many files an open_file_cache keeps open between responses (0:
  /// none, every response opens its file).
  std::size_t open_files = 256;
  /// The congestion control every connection has (static-server
  /// --congestion sets the listener's, which they inherit), for `automatic`;
  /// empty: each connection is asked.
  std::string congestion = {};
};

/// A chapter 7 handler serving the files beneath `options.root` (opened now:
/// throws std::system_error if it is not a directory). GET and HEAD only
/// (405 otherwise); a directory is served by its index.html (a target
/// without the final '/' is redirected, 301, to the directory's path on
/// this server: directory_target()). Sends Content-Type by extension,
/// Last-Modified and a strong ETag, answers
/// conditional requests (304, 412) and single ranges (206, 416), and sends
/// the bytes with async_sendfile() or the read/write loop. Refuses what would
/// leave the root: 400 or 403 for the target's form (local_path_for()), 403
/// for a symbolic link leading out; 404 for what is not there. Keeps up to
/// `options.open_files` files open between responses (open_file_cache), so
/// the handler is for one thread, as chapter 7's server runs it.
web::handler static_files(const static_options& options);

/// Sends `count` bytes of `file` from `offset` to `socket` by reading them
/// into a buffer of `buffer_size` bytes and writing that, the way servers
/// did before sendfile(2); in the calling process, with web::send_all() and
/// its `patience`. Returns false if the file ended before `count` bytes (it
/// shrank), or the client left or stalled.
bool copy_file(boost::asio::ip::tcp::socket& socket, int file, std::uint64_t offset,
               std::uint64_t count, std::size_t buffer_size, std::chrono::milliseconds patience);

}  // namespace rdv::files
