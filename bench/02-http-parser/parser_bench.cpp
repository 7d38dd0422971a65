// bench_ch02: how many requests per second each parser reads from the
// corpus, on one thread, the parsers taking turns. bench/02-http-parser/run
// starts it once per repetition; run it by hand with --help.
#include "peers.hpp"
#include "request_parser.hpp"

#include "rdv/cli.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

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

// One parser's share of a measurement.
struct contender {
  std::string name;
  std::unique_ptr<rdv::bench::parser_under_test> parser;
  rdv::bench::tally first;  // what every pass must see again
  std::uint64_t passes = 0, allocated = 0;
  clock_type::duration spent{};
};

// Parses the corpus with `c`'s parser for about `slice`, timing each pass;
// one pass at least, so that every turn makes progress.
//! [measure]
void take_turn(contender& c, std::string_view corpus, clock_type::duration slice) {
  clock_type::duration turn{};
  do {
    c.parser->prepare();  // outside the timed region
    rdv::bench::tally pass;
    const std::uint64_t allocations_before = allocations;
    const auto start = clock_type::now();
    const bool ok = c.parser->parse(corpus, pass);
    const auto took = clock_type::now() - start;
    c.allocated += allocations - allocations_before;
    if (!ok || !(pass == c.first)) throw std::runtime_error(c.name + ": a pass gave another tally");
    turn += took;
    c.spent += took;
    ++c.passes;
  } while (turn < slice);
}
//! [measure]

}  // namespace

int main(int argc, char* argv[]) {
  rdv::cli::flags flags("bench_ch02", "Parses the benchmark corpus over and over with each "
                                      "parser given and prints requests/s, bytes/s and "
                                      "allocations per request, one line of JSON per parser "
                                      "(chapter 2). Several parsers take turns of --turn-ms, "
                                      "so that a slow moment of the machine hurts each alike.");
  std::vector<std::string> parser_names;
  std::string corpus_file = "bench/02-http-parser/corpus.http";
  std::chrono::milliseconds budget{1000}, turn{20};
  bool list = false;
  flags
      .repeated("parser", parser_names, "a parser to measure (--list shows them; rendezvous)",
                "NAME")
      .option("corpus", corpus_file, "the requests to parse", "FILE")
      .option("milliseconds", budget, "how long to measure each parser")
      .range(0, 600'000)
      .option("turn-ms", turn, "how long each parser parses before the next takes its turn")
      .range(1, 600'000)
      .toggle("list", list, "print the parsers this build has, and exit");
  if (!flags.parse(argc, argv)) return flags.exit_status();
  if (list) {
    for (const auto& name : rdv::bench::parser_names()) std::cout << name << '\n';
    return 0;
  }
  if (parser_names.empty()) parser_names.emplace_back("rendezvous");
  try {
    std::ifstream file(corpus_file, std::ios::binary);
    if (!file) throw std::runtime_error("cannot read " + corpus_file);
    const std::string corpus{std::istreambuf_iterator<char>(file), {}};
    const auto ends = request_ends(corpus);
    std::vector<contender> contenders;
    for (const auto& name : parser_names) {
      contender c;
      c.name = name;
      c.parser = rdv::bench::make_parser(name, corpus, ends);
      if (!c.parser) throw std::runtime_error("no parser called " + name);
      c.parser->prepare();
      if (!c.parser->parse(corpus, c.first))
        throw std::runtime_error(name + " rejected the corpus");
      contenders.push_back(std::move(c));
    }
    for (bool more = true; more;) {  // in turns, until each has had its budget
      more = false;
      for (contender& c : contenders) {
        if (c.spent >= budget && c.passes >= 3) continue;
        take_turn(c, corpus, std::min<clock_type::duration>(turn, budget - c.spent));
        more = true;
      }
    }
    for (const contender& c : contenders) {
      const double seconds = std::chrono::duration<double>(c.spent).count();
      const double requests = static_cast<double>(c.passes * c.first.requests);
      std::printf("{\"parser\": \"%s\", \"requests_per_s\": %.0f, \"bytes_per_s\": %.0f, "
                  "\"allocations_per_request\": %.4f, \"requests\": %llu, \"fields\": %llu, "
                  "\"target_bytes\": %llu, \"body_bytes\": %llu, \"passes\": %llu}\n",
                  c.name.c_str(), requests / seconds,
                  static_cast<double>(c.passes * corpus.size()) / seconds,
                  static_cast<double>(c.allocated) / requests,
                  static_cast<unsigned long long>(c.first.requests),
                  static_cast<unsigned long long>(c.first.fields),
                  static_cast<unsigned long long>(c.first.target_bytes),
                  static_cast<unsigned long long>(c.first.body_bytes),
                  static_cast<unsigned long long>(c.passes));
    }
  } catch (const std::exception& e) {
    std::cerr << "bench_ch02: " << e.what() << '\n';
    return 1;
  }
}
