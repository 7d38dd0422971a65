#include "static_files.hpp"

#include "async_sendfile.hpp"
#include "byte_range.hpp"
#include "connection.hpp"
#include "content_type.hpp"
#include "http_date.hpp"
#include "open_file_cache.hpp"
#include "preconditions.hpp"
#include "sendfile_call.hpp"
#include "target_path.hpp"
#include "use_process.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstddef>
#include <cstring>
#include <memory>

namespace rdv::files {

namespace asio = boost::asio;
using asio::ip::tcp;
using web::response;
using web::text_response;

namespace {

// What a file's body needs until it has been sent: the opened file (closed
// when no response and no open_file_cache entry holds it) and which bytes.
struct file_body {
  std::shared_ptr<const opened_file> file;
  std::uint64_t offset = 0;
  std::uint64_t count = 0;
  bool use_sendfile = true;
  std::size_t copy_buffer = 0;
};

//! [cork]
// With the cork in, TCP sends only full segments: the head waits for the
// file's first bytes. Pulling it out sends what is left. (TCP_NOPUSH on BSD.)
void cork(tcp::socket& socket, bool in) {
  const int value = in ? 1 : 0;
#if defined(TCP_CORK)
  ::setsockopt(socket.native_handle(), IPPROTO_TCP, TCP_CORK, &value, sizeof value);
#elif defined(TCP_NOPUSH)
  ::setsockopt(socket.native_handle(), IPPROTO_TCP, TCP_NOPUSH, &value, sizeof value);
#endif
}
//! [cork]

//! [send_body]
// How much of a file goes with one call, given `patience` to be taken: a
// client taking less than this per send timeout has stalled.
constexpr std::uint64_t file_step = 256 * 1024;

// `automatic` made definite for a response of `file_bytes` on `socket`.
// BBR (and any congestion control whose name starts so, such as bbr2) paces
// a connection at the bandwidth it has measured, and a head held back with
// MSG_MORE, even for the microseconds until the file's first bytes join it,
// makes it measure less, which costs a response long enough to be paced; and
// a head joined to a long file keeps a busy client's receive buffer from
// growing (see packing_for() and the book's packets experiment). So for
// each response long enough, the socket is asked for its congestion control
// (unless `congestion` names the connections': a connection takes the
// system's default of the moment it is accepted, which may change while the
// server runs) and, unless that paces, for its segments' sizes. Each call
// costs less than a packet. A shorter response goes `joined` whatever the
// answers, so it does not ask.
packing definite(packing pack, std::uint64_t file_bytes, std::string_view congestion,
                 tcp::socket& socket) {
  if (pack != packing::automatic || file_bytes <= unpaced_file_bytes) {
    return packing_for(pack, congestion, file_bytes);
  }
#if defined(TCP_CONGESTION)
  char name[16] = {};
  if (socklen_t size = sizeof name;
      congestion.empty() &&
      ::getsockopt(socket.native_handle(), IPPROTO_TCP, TCP_CONGESTION, name, &size) == 0) {
    congestion = std::string_view(name, ::strnlen(name, sizeof name));
  }
#endif
  if (packing_for(pack, congestion, file_bytes) == packing::separate) return packing::separate;
  return packing_for(pack, congestion, file_bytes, segment_sizes_of(socket));
}

// Sends a response's head as `pack` says (the first half of send_body()).
bool send_head(tcp::socket& socket, std::string_view head, packing pack,
               std::chrono::milliseconds patience) {
  if (pack == packing::nagle || pack == packing::cork) {
    boost::system::error_code ignored;  // chapter 7 turns Nagle off; these two want it on
    socket.set_option(tcp::no_delay(false), ignored);
  }
  if (pack == packing::cork) cork(socket, true);
  // joined: with MSG_MORE, the kernel holds the head until the file's first
  // bytes can join it in one packet.
  return web::send_all(socket, {head}, patience, pack == packing::joined ? MSG_MORE : 0);
}

// Sends `count` bytes of the body's file from `offset` (the second half).
// What the socket takes goes at once, as in send_all(): often the whole
// file, and the process goes on without a wait. (Through async_sendfile()
// it would wait for the completion, posted, with a timer set and
// cancelled: the wait costs more than the call.)
bool send_bytes(tcp::socket& socket, const file_body& body, std::uint64_t offset,
                std::uint64_t count, std::chrono::milliseconds patience) {
  if (!body.use_sendfile)
    return copy_file(socket, body.file->file.get(), offset, count, body.copy_buffer, patience);
  // All of it, in one call that does not wait (send_head() left the socket
  // non-blocking). Whatever stopped it short (a full socket, the end of the
  // file, an error), async_sendfile() below meets again and handles.
  std::uint64_t done = 0;
  if (count > 0 && socket.non_blocking()) {
    done = sendfile_some(socket.native_handle(), body.file->file.get(), offset,
                         static_cast<std::size_t>(std::min<std::uint64_t>(count, SIZE_MAX)))
               .sent;
  }
  boost::system::error_code ec;
  while (!ec && done < count) {  // what is left, waiting for room each time
    const std::uint64_t step = std::min(file_step, count - done);
    async_sendfile(socket, body.file->file.get(), offset + done, step,
                   proc::use_process.within(patience)[ec]);
    done += step;
  }
  return !ec;
}

// Sends the head and then the file's bytes, packed as `pack` says, in the
// connection's process; false if the client stalled or left. On an error the
// Content-Length sent cannot be kept (the file shrank, or the client left or
// stalled), and chapter 7 drops the connection.
bool send_body(tcp::socket& socket, std::string_view head, const file_body& body, packing pack,
               std::chrono::milliseconds patience) {
  const bool sent = send_head(socket, head, pack, patience) &&
                    send_bytes(socket, body, body.offset, body.count, patience);
  if (pack == packing::cork) cork(socket, false);
  return sent;
}
//! [send_body]

// A strong entity tag from the file's identity, size and modification time
// (to the nanosecond), in hex: any write changes it, and so does replacing
// the file.
http::validators validators_of(const struct stat& st) {
  const auto mtime =
      std::chrono::seconds(st.st_mtim.tv_sec) + std::chrono::nanoseconds(st.st_mtim.tv_nsec);
  char tag[3 * 16 + 4];  // "<inode>-<size>-<mtime>", each at most 16 hex digits
  char* at = tag;
  *at++ = '"';
  for (const std::uint64_t part :
       {static_cast<std::uint64_t>(st.st_ino), static_cast<std::uint64_t>(st.st_size),
        static_cast<std::uint64_t>(mtime.count())}) {
    if (at != tag + 1) *at++ = '-';
    at = std::to_chars(at, tag + sizeof tag, part, 16).ptr;
  }
  *at++ = '"';
  return {std::string(tag, at), std::chrono::sys_seconds(std::chrono::seconds(st.st_mtim.tv_sec))};
}

response refused(int status, std::string_view why) {
  return text_response(status, std::string(why) + "\n");
}

// The answer for what root_directory::open() said.
response open_failed(const boost::system::error_code& ec) {
  namespace errc = boost::system::errc;
  if (ec == errc::cross_device_link) return refused(403, "the path leads outside the root");
  if (ec == errc::permission_denied || ec == errc::operation_not_permitted)
    return text_response(403);
  if (ec == errc::no_such_file_or_directory || ec == errc::not_a_directory ||
      ec == errc::too_many_symbolic_link_levels || ec == errc::filename_too_long) {
    return text_response(404);
  }
  return text_response(500);
}

// A directory asked for without the final '/': relative links in its
// index.html would resolve against the parent, so send the client there.
// The redirect to the directory `path` names, with the target's query: to
// a path of this server's only, whatever the target looked like.
response moved_to_directory(const local_path& path, std::string_view target) {
  std::string location = directory_target(path);
  if (const auto query = target.find('?'); query != std::string_view::npos) {
    location += target.substr(query);
  }
  response r = text_response(301);
  r.fields.emplace_back("Location", std::move(location));
  return r;
}

class file_server {
public:
  explicit file_server(const static_options& options)
      : root_(options.root, options.how), files_(root_, options.open_files), options_(options) {}

  response operator()(web::request& request) const {
    response r = answer(request);
    r.fields.emplace_back("Date", http::http_date_now());
    return r;
  }

private:
  response answer(web::request& request) const;
  response answer_with_file(web::request& request, std::shared_ptr<const opened_file> file,
                            std::string_view name) const;

  root_directory root_;
  mutable open_file_cache files_;  // for one thread, as root_ is
  static_options options_;
};

//! [answer]
response file_server::answer(web::request& request) const {
  const http::request_head& head = request.head;
  if (head.method != "GET" && head.method != "HEAD") {
    response r = text_response(405);
    r.fields.emplace_back("Allow", "GET, HEAD");
    return r;
  }
  const local_path path = local_path_for(head.target);
  if (path.status != 0) return refused(path.status, path.why);
  boost::system::error_code ec;
  auto file = files_.open(path.relative, ec);
  if (ec) return open_failed(ec);
  std::string name = path.relative;  // its extension gives the Content-Type
  if (S_ISDIR(file->st.st_mode)) {
    if (!path.trailing_slash) return moved_to_directory(path, head.target);
    name = path.relative.empty() ? "index.html" : path.relative + "/index.html";
    file = files_.open(name, ec);
    if (ec == boost::system::errc::no_such_file_or_directory)
      return refused(404, "no index.html here");
    if (ec) return open_failed(ec);
  } else if (path.trailing_slash) {
    return text_response(404);  // a file is not a directory
  }
  if (!S_ISREG(file->st.st_mode)) return refused(403, "not a regular file");
  return answer_with_file(request, std::move(file), name);
}
//! [answer]

//! [answer_with_file]
response file_server::answer_with_file(web::request& request,
                                       std::shared_ptr<const opened_file> file,
                                       std::string_view name) const {
  const http::request_head& head = request.head;
  const struct stat& st = file->st;
  const bool get = head.method == "GET";
  const auto size = static_cast<std::uint64_t>(st.st_size);
  const http::validators v = validators_of(st);
  const http::conditions conditions = http::conditions::of(head.fields);
  response r;
  r.fields.reserve(6);  // with Content-Type, Accept-Ranges, Content-Range, Date
  r.fields.emplace_back("Last-Modified", http::format_http_date(v.last_modified));
  r.fields.emplace_back("ETag", v.etag);
  switch (http::evaluate(conditions, true, v)) {
  case http::precondition::proceed: break;
  case http::precondition::failed: return text_response(412);
  case http::precondition::not_modified:
    // No content, but a Content-Length, if any, must be the 200's.
    r.status = 304;
    r.writer = web::announced_length(size);
    return r;
  }
  r.fields.emplace_back("Content-Type", content_type_for(name));
  r.fields.emplace_back("Accept-Ranges", "bytes");
  http::range_decision range;
  if (get && http::range_still_applies(conditions, v))
    range = http::decide_range(head.fields.find("Range"), size);
  if (range.what == http::range_decision::unsatisfiable) {
    response wrong = text_response(416);
    wrong.fields.emplace_back("Content-Range", http::content_range(range, size));
    return wrong;
  }
  auto body = std::make_shared<file_body>(
      file_body{std::move(file), 0, size, options_.use_sendfile, options_.copy_buffer});
  if (range.what == http::range_decision::partial) {
    r.status = 206;
    r.fields.emplace_back("Content-Range", http::content_range(range, size));
    body->offset = range.first;
    body->count = range.last - range.first + 1;
  }
  const packing pack = body->count > 0 ? options_.pack : packing::separate;
  auto send = [body, pack, congestion = options_.congestion](
                  tcp::socket& socket, std::string_view out, std::chrono::milliseconds patience) {
    return send_body(socket, out, *body, definite(pack, body->count, congestion, socket), patience);
  };
  r.writer = web::body_writer{body->count, std::move(send)};
  return r;
}
//! [answer_with_file]

}  // namespace

//! [limit_unsent]
void limit_unsent(tcp::acceptor& acceptor, std::uint32_t bytes) {
  if (bytes == 0) return;
#if defined(TCP_NOTSENT_LOWAT)
  using unsent_limit = asio::detail::socket_option::integer<IPPROTO_TCP, TCP_NOTSENT_LOWAT>;
  acceptor.set_option(unsent_limit(static_cast<int>(std::min<std::uint32_t>(bytes, INT_MAX))));
#else
  throw boost::system::system_error(asio::error::no_protocol_option, "TCP_NOTSENT_LOWAT");
#endif
}
//! [limit_unsent]

std::optional<segment_sizes> segment_sizes_of(tcp::socket& socket) {
#if defined(TCP_INFO)
  tcp_info info{};
  socklen_t size = sizeof info;
  if (::getsockopt(socket.native_handle(), IPPROTO_TCP, TCP_INFO, &info, &size) == 0 &&
      size >= offsetof(tcp_info, tcpi_advmss) + sizeof info.tcpi_advmss) {
    return segment_sizes{info.tcpi_snd_mss, info.tcpi_advmss};
  }
#endif
  return std::nullopt;
}

//! [packing_for]
packing packing_for(packing pack, std::string_view congestion, std::uint64_t file_bytes,
                    std::optional<segment_sizes> segments) {
  if (pack != packing::automatic) return pack;
  if (file_bytes <= unpaced_file_bytes) return packing::joined;
  const bool paced = congestion.starts_with("bbr");
  // Held below the path's size: the client's window has never reached two
  // segments, and its buffer needs the moment a head sent alone gives it.
  const bool held = segments && segments->sending < segments->path;
  return paced || held ? packing::separate : packing::joined;
}
//! [packing_for]

web::handler static_files(const static_options& options) {
  auto server = std::make_shared<const file_server>(options);
  return [server](web::request& request) { return (*server)(request); };
}

//! [copy_file]
bool copy_file(tcp::socket& socket, int file, std::uint64_t offset, std::uint64_t count,
               std::size_t buffer_size, std::chrono::milliseconds patience) {
  const std::size_t size = static_cast<std::size_t>(std::min<std::uint64_t>(count, buffer_size));
  const auto buffer = std::make_unique_for_overwrite<char[]>(std::max<std::size_t>(size, 1));
  for (std::uint64_t done = 0; done < count;) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(count - done, size));
    const ssize_t n = ::pread(file, buffer.get(), want, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // the file shrank, or cannot be read
    const std::string_view piece(buffer.get(), static_cast<std::size_t>(n));
    if (!web::send_all(socket, {piece}, patience)) return false;
    done += piece.size();
  }
  return true;
}
//! [copy_file]

}  // namespace rdv::files
