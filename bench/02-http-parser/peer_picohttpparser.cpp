// picohttpparser (H2O's parser), as Debian's libh2o-evloop exports it.
#include "peers.hpp"

#include <charconv>
#include <cstring>
#include <strings.h>
#include <sys/types.h>

// picohttpparser's interface, as Debian's libh2o exports it (Debian ships the
// library, not this header).
extern "C" {
struct phr_header {
  const char* name;
  std::size_t name_len;
  const char* value;
  std::size_t value_len;
};
int phr_parse_request(const char* buf, std::size_t len, const char** method,
                      std::size_t* method_len, const char** path, std::size_t* path_len,
                      int* minor_version, phr_header* headers, std::size_t* num_headers,
                      std::size_t last_len);
struct phr_chunked_decoder {
  std::size_t bytes_left_in_chunk;
  char consume_trailer, hex_count, state;
  char reserved[64];  // later versions add fields; zeroed room for them
};
ssize_t phr_decode_chunked(phr_chunked_decoder* decoder, char* buf, std::size_t* bufsz);
}

namespace rdv::bench {

namespace {

// picohttpparser parses heads only; like a server using it, this finds the
// framing fields itself and decodes chunked bodies with phr_decode_chunked,
// which works in place: it gets a writable copy of the corpus, and the
// chunked bodies are restored before each pass, outside the timed region.
// It is given each chunked body up to the request's end, as a server would
// have it in its buffer, so that it never moves the requests behind it.
class pico final : public parser_under_test {
public:
  pico(std::string_view corpus, const std::vector<std::size_t>& ends)
      : pristine_(corpus), scratch_(corpus), ends_(ends) {}
  void prepare() override {
    for (const auto& [at, size] : decoded_) std::memcpy(&scratch_[at], pristine_.data() + at, size);
  }
  bool parse(std::string_view, tally& out) override;

private:
  std::string_view pristine_;
  std::string scratch_;
  std::vector<std::size_t> ends_;
  std::vector<std::pair<std::size_t, std::size_t>> decoded_;  // chunked bodies, to restore
};

bool pico::parse(std::string_view, tally& out) {
  std::size_t at = 0, request = 0;
  const bool first_pass = decoded_.empty();
  while (at < scratch_.size()) {
    const char *method, *path;
    std::size_t method_len, path_len, num_headers = 64;
    int minor;
    phr_header headers[64];
    const int head =
        phr_parse_request(scratch_.data() + at, scratch_.size() - at, &method, &method_len, &path,
                          &path_len, &minor, headers, &num_headers, 0);
    if (head <= 0) return false;
    out.fields += num_headers;
    out.target_bytes += path_len;
    at += static_cast<std::size_t>(head);
    std::size_t length = 0;
    bool chunked = false;
    for (std::size_t i = 0; i < num_headers; ++i) {
      const phr_header& h = headers[i];
      if (h.name_len == 14 && strncasecmp(h.name, "content-length", 14) == 0) {
        std::from_chars(h.value, h.value + h.value_len, length);
      } else if (h.name_len == 17 && strncasecmp(h.name, "transfer-encoding", 17) == 0) {
        chunked = h.value_len == 7 && strncasecmp(h.value, "chunked", 7) == 0;
      }
    }
    if (chunked) {
      phr_chunked_decoder decoder{};
      decoder.consume_trailer = 1;
      std::size_t size = ends_[request] - at;
      if (first_pass) decoded_.emplace_back(at, size);
      if (phr_decode_chunked(&decoder, &scratch_[at], &size) < 0) return false;
      out.body_bytes += size;
      at = ends_[request];
    } else {
      out.body_bytes += length;
      at += length;
    }
    ++out.requests;
    ++request;
  }
  return true;
}
}  // namespace

std::unique_ptr<parser_under_test> make_picohttpparser(std::string_view corpus,
                                                       const std::vector<std::size_t>& ends) {
  return std::make_unique<pico>(corpus, ends);
}

}  // namespace rdv::bench
