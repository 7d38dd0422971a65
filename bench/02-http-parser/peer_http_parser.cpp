// http-parser (Node.js's parser until 2019), from Debian's libhttp-parser-dev.
#include "peers.hpp"

#include <http_parser.h>

namespace rdv::bench {

namespace {

// What the callbacks see: the tally, and whether a field is in the head (or a trailer).
struct context {
  tally* out;
  bool in_head;
};
context& seen(http_parser* p) { return *static_cast<context*>(p->data); }
tally& of(http_parser* p) { return *seen(p).out; }

class joyent final : public parser_under_test {
public:
  joyent() {
    http_parser_settings_init(&settings_);
    settings_.on_message_begin = [](http_parser* p) { return seen(p).in_head = true, 0; };
    settings_.on_headers_complete = [](http_parser* p) { return seen(p).in_head = false, 0; };
    settings_.on_url = [](http_parser* p, const char*, std::size_t n) {
      return of(p).target_bytes += n, 0;
    };
    settings_.on_header_field = [](http_parser* p, const char*, std::size_t) {
      return of(p).fields += seen(p).in_head, 0;  // whole input: one call per field
    };
    settings_.on_body = [](http_parser* p, const char*, std::size_t n) {
      return of(p).body_bytes += n, 0;
    };
    settings_.on_message_complete = [](http_parser* p) { return ++of(p).requests, 0; };
  }
  bool parse(std::string_view corpus, tally& out) override {
    http_parser parser;
    http_parser_init(&parser, HTTP_REQUEST);
    context context{&out, false};
    parser.data = &context;
    const auto used = http_parser_execute(&parser, &settings_, corpus.data(), corpus.size());
    return used == corpus.size() && HTTP_PARSER_ERRNO(&parser) == HPE_OK;
  }

private:
  http_parser_settings settings_;
};

}  // namespace

std::unique_ptr<parser_under_test> make_http_parser() { return std::make_unique<joyent>(); }

}  // namespace rdv::bench
