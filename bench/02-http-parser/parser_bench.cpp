// bench_ch02: how many requests per second one parser reads from the
// corpus, on one thread. bench/02-http-parser/run starts it once per parser
// and repetition; run it by hand with --help.
#include "peers.hpp"
#include "request_parser.hpp"

#include "rdv/cli.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

// Every allocation of the process goes through these (glibc's own malloc
// underneath), so that the benchmark can count allocations per request.
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void __libc_free(void* p);
}

namespace {
std::uint64_t allocations = 0;  // one thread: no atomics needed
}  // namespace

extern "C" {
void* malloc(std::size_t size) { return ++allocations, __libc_malloc(size); }
void* calloc(std::size_t count, std::size_t size) {
  return ++allocations, __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) { return ++allocations, __libc_realloc(p, size); }
void free(void* p) { __libc_free(p); }
}

namespace {

using clock_type = std::chrono::steady_clock;

// Where each request of `corpus` ends, found by our parser before timing starts.
std::vector<std::size_t> request_ends(std::string_view corpus) {
  std::vector<std::size_t> ends;
  rdv::http::request_parser parser;
  for (std::size_t at = 0; at < corpus.size();) {
    const auto s = parser.next(corpus.substr(at));
    if (s.what == rdv::http::event::error || s.what == rdv::http::event::need_more) {
      throw std::runtime_error("the corpus is not a stream of valid requests");
    }
    at += s.used;
    if (s.what == rdv::http::event::end) ends.push_back(at);
  }
  return ends;
}

}  // namespace

int main(int argc, char* argv[]) {
  rdv::cli::flags flags("bench_ch02", "Parses the benchmark corpus over and over with one "
                                      "parser and prints requests/s, bytes/s and allocations "
                                      "per request as one line of JSON (chapter 2).");
  std::string parser_name = "rendezvous", corpus_file = "bench/02-http-parser/corpus.http";
  std::chrono::milliseconds budget{1000};
  bool list = false;
  flags.option("parser", parser_name, "which parser (--list shows them)", "NAME")
      .option("corpus", corpus_file, "the requests to parse", "FILE")
      .option("milliseconds", budget, "how long to measure")
      .range(0, 600'000)
      .toggle("list", list, "print the parsers this build has, and exit");
  if (!flags.parse(argc, argv)) return flags.exit_status();
  if (list) {
    for (const auto& name : rdv::bench::parser_names()) std::cout << name << '\n';
    return 0;
  }
  try {
    std::ifstream file(corpus_file, std::ios::binary);
    if (!file) throw std::runtime_error("cannot read " + corpus_file);
    const std::string corpus{std::istreambuf_iterator<char>(file), {}};
    const auto ends = request_ends(corpus);
    auto parser = rdv::bench::make_parser(parser_name, corpus, ends);
    if (!parser) throw std::runtime_error("no parser called " + parser_name);

    //! [measure]
    rdv::bench::tally first;
    parser->prepare();
    if (!parser->parse(corpus, first)) throw std::runtime_error("the parser rejected the corpus");
    std::uint64_t passes = 0, allocated = 0;
    clock_type::duration spent{};
    while (spent < budget || passes < 3) {
      parser->prepare();  // outside the timed region
      rdv::bench::tally pass;
      const std::uint64_t allocations_before = allocations;
      const auto start = clock_type::now();
      const bool ok = parser->parse(corpus, pass);
      spent += clock_type::now() - start;
      allocated += allocations - allocations_before;
      if (!ok || !(pass == first)) throw std::runtime_error("a pass gave a different tally");
      ++passes;
    }
    //! [measure]
    const double seconds = std::chrono::duration<double>(spent).count();
    const double requests = static_cast<double>(passes * first.requests);
    std::printf(
        "{\"parser\": \"%s\", \"requests_per_s\": %.0f, \"bytes_per_s\": %.0f, "
        "\"allocations_per_request\": %.4f, \"requests\": %llu, \"fields\": %llu, "
        "\"target_bytes\": %llu, \"body_bytes\": %llu, \"passes\": %llu}\n",
        parser_name.c_str(), requests / seconds,
        static_cast<double>(passes * corpus.size()) / seconds,
        static_cast<double>(allocated) / requests, static_cast<unsigned long long>(first.requests),
        static_cast<unsigned long long>(first.fields),
        static_cast<unsigned long long>(first.target_bytes),
        static_cast<unsigned long long>(first.body_bytes), static_cast<unsigned long long>(passes));
  } catch (const std::exception& e) {
    std::cerr << "bench_ch02: " << e.what() << '\n';
    return 1;
  }
}
