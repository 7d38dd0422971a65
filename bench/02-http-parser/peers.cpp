#include "peers.hpp"

#include "request_parser.hpp"

namespace rdv::bench {

namespace {

class ours final : public parser_under_test {
public:
  bool parse(std::string_view corpus, tally& out) override {
    for (;;) {  // until the parser needs more: then every request is complete
      const http::step s = parser_.next(corpus);
      switch (s.what) {
      case http::event::head:
        out.fields += parser_.head().fields.size();
        out.target_bytes += parser_.head().target.size();
        break;
      case http::event::body: out.body_bytes += s.data.size(); break;
      case http::event::end: ++out.requests; break;
      case http::event::need_more: return corpus.empty();
      case http::event::error: return false;
      }
      corpus.remove_prefix(s.used);
    }
  }

private:
  http::request_parser parser_;  // warm after the first pass, as on a live connection
};

}  // namespace

std::vector<std::string> parser_names() {
  std::vector<std::string> names = {"rendezvous", "http-parser"};
#if RDV_HAVE_LLHTTP
  names.push_back("llhttp");
#endif
#if RDV_HAVE_PICOHTTPPARSER
  names.push_back("picohttpparser");
#endif
  return names;
}

std::unique_ptr<parser_under_test> make_parser(const std::string& name, std::string_view corpus,
                                               const std::vector<std::size_t>& ends) {
  (void)corpus, (void)ends;
  if (name == "rendezvous") return std::make_unique<ours>();
  if (name == "http-parser") return make_http_parser();
#if RDV_HAVE_LLHTTP
  if (name == "llhttp") return make_llhttp();
#endif
#if RDV_HAVE_PICOHTTPPARSER
  if (name == "picohttpparser") return make_picohttpparser(corpus, ends);
#endif
  return nullptr;
}

}  // namespace rdv::bench
