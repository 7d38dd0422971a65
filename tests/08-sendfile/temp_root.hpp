#pragma once
// A directory tree for chapter 8's tests, made fresh by each test and
// removed afterwards: a root to serve, and beside it a directory "outside"
// whose secret no request may reach.
#include <sys/stat.h>
#include <unistd.h>

#include "rdv/test/temp_dir.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ch08 {

// `size` bytes of numbered lines ("0000000 the quick brown fox...\n"), so
// that a byte out of place shows where it came from.
inline std::string pattern(std::size_t size) {
  std::string out;
  out.reserve(size + 64);
  for (std::size_t line = 0; out.size() < size; ++line) {
    char number[16];
    std::snprintf(number, sizeof number, "%07zu ", line);
    out += number;
    out += "sendfile hands the pages to the socket, not to us\n";
  }
  out.resize(size);
  return out;
}

class temp_root {
public:
  temp_root() {
    std::filesystem::create_directory(root());
    std::filesystem::create_directory(outside());
  }

  std::filesystem::path root() const { return base() / "root"; }
  std::filesystem::path outside() const { return base() / "outside"; }

  // Writes `content` to `relative` beneath the root, making directories.
  void write(const std::string& relative, std::string_view content) const {
    base_.write("root/" + relative, content);
  }
  // A file of `size` zero bytes that takes no disk (a hole).
  void sparse(const std::string& relative, std::uintmax_t size) const {
    write(relative, "");
    std::filesystem::resize_file(root() / relative, size);
  }
  void link(const std::string& relative, const std::string& target) const {
    std::filesystem::create_symlink(target, root() / relative);
  }

  // The tree most tests serve.
  static constexpr std::string_view hello = "Hello, static world!\n";
  static constexpr std::string_view secret = "SECRET: nobody outside the root may read this\n";
  static constexpr std::size_t big_size = 1024 * 1024 + 17;  // not a multiple of anything
  void fill() const {
    write("hello.txt", hello);
    write("index.html", "<h1>the root</h1>\n");
    write("docs/index.html", "<h1>docs</h1>\n");
    write("docs/style.css", "h1 { color: teal }\n");
    write("empty.txt", "");
    write("big.bin", pattern(big_size));
    std::filesystem::create_directory(root() / "no-index");
    std::ofstream(outside() / "secret.txt") << secret;
    link("link-in", "hello.txt");
    link("docs/link-in", "../hello.txt");
    link("link-out", "../outside/secret.txt");
    link("link-abs", (outside() / "secret.txt").string());
    link("docs/link-up", "../../outside/secret.txt");
    link("link-dir-out", "../outside");
    ::mkfifo((root() / "fifo").c_str(), 0600);
  }

private:
  std::filesystem::path base() const { return base_.path(); }
  rdv::test::temp_dir base_{"rdv-ch08"};
};

// A temp_root with the usual tree in it.
struct filled_root : temp_root {
  filled_root() { fill(); }
};

}  // namespace ch08
