// llhttp (Node.js's parser since 2019), compiled here from the C sources
// that Debian's node-llhttp ships.
#include "peers.hpp"

#include <llhttp.h>

namespace rdv::bench {

namespace {

// What the callbacks see: the tally, and whether a field is in the head (or a trailer).
struct context {
  tally* out;
  bool in_head;
};
context& seen(llhttp_t* p) { return *static_cast<context*>(p->data); }
tally& of(llhttp_t* p) { return *seen(p).out; }

class node final : public parser_under_test {
public:
  node() {
    llhttp_settings_init(&settings_);
    settings_.on_message_begin = [](llhttp_t* p) { return seen(p).in_head = true, 0; };
    settings_.on_headers_complete = [](llhttp_t* p) { return seen(p).in_head = false, 0; };
    settings_.on_url = [](llhttp_t* p, const char*, std::size_t n) {
      return of(p).target_bytes += n, 0;
    };
    settings_.on_header_field = [](llhttp_t* p, const char*, std::size_t) {
      return of(p).fields += seen(p).in_head, 0;  // head fields, not trailers
    };
    settings_.on_body = [](llhttp_t* p, const char*, std::size_t n) {
      return of(p).body_bytes += n, 0;
    };
    settings_.on_message_complete = [](llhttp_t* p) { return ++of(p).requests, 0; };
  }
  bool parse(std::string_view corpus, tally& out) override {
    llhttp_t parser;
    llhttp_init(&parser, HTTP_REQUEST, &settings_);
    context context{&out, false};
    parser.data = &context;
    return llhttp_execute(&parser, corpus.data(), corpus.size()) == HPE_OK;
  }

private:
  llhttp_settings_t settings_;
};
}  // namespace

std::unique_ptr<parser_under_test> make_llhttp() { return std::make_unique<node>(); }

}  // namespace rdv::bench
