// Chapter 8: from request targets to paths beneath the root, and opening
// them there — every spelling of "somewhere else" refused.
#include "root_directory.hpp"
#include "target_path.hpp"
#include "temp_root.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/escape.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using rdv::files::confinement;
using rdv::files::local_path_for;
using rdv::test::explained_in;
using rdv::test::in_quotes;

struct accepted {
  std::string_view target, relative;
  bool trailing_slash;
};

TEST(TargetPath, DecodesEachSegmentOnceAndJoinsThem) {
  explained_in("ch08-paths");
  const std::vector<accepted> cases = {
      {"/", "", true},
      {"/index.html", "index.html", false},
      {"/docs/", "docs", true},
      {"/docs/guide/a.html?version=2&x=/../..", "docs/guide/a.html", false},
      {"/a%20b.html", "a b.html", false},
      {"/caf%C3%A9.txt", "caf\xC3\xA9.txt", false},
      {"/%41%42c", "ABc", false},
      {"/a+b.txt", "a+b.txt", false},  // a plus in a path is a plus; only a form encodes a space so
      {"//etc/passwd", "etc/passwd", false},  // empty segments skipped: inside the root
      {"/./a/./b/", "a/b", true},
      {"/a/..b/c..", "a/..b/c..", false},  // not ".." segments
      {"/...", "...", false},
      {"/%252e%252e/x", "%2e%2e/x", false},  // decoded once: a name, not ".."
      {"http://example.com/x/y", "x/y", false},
      {"HTTP://example.com", "", true},
      {"/docs/.", "docs", true},  // a last "." segment asks for a directory too
      {"/hello.txt/%2E", "hello.txt", true},
  };
  for (const auto& c : cases) {
    const auto p = local_path_for(c.target);
    EXPECT_EQ(p.status, 0) << "target " << in_quotes(c.target) << " refused: " << p.why;
    EXPECT_EQ(p.relative, c.relative) << "target " << in_quotes(c.target);
    EXPECT_EQ(p.trailing_slash, c.trailing_slash) << "target " << in_quotes(c.target);
  }
}

TEST(TargetPath, RedirectsOnlyToAPathOfItsOwn) {
  explained_in("ch08-paths");
  const std::vector<std::pair<std::string_view, std::string_view>> cases = {
      {"/docs", "/docs/"},
      {"http://evil.example/docs", "/docs/"},    // the host is not ours to send anyone to
      {"//docs", "/docs/"},                      // not "//docs/", a URL of host "docs"
      {"/\\evil.example", "/%5Cevil.example/"},  // which browsers would read as "//"
      {"/a%20b/caf%C3%A9", "/a%20b/caf%C3%A9/"},
      {"/a;b=c/@x:y", "/a;b=c/@x:y/"},
      {"/", "/"},
  };
  for (const auto& [target, location] : cases) {
    const auto p = local_path_for(target);
    ASSERT_EQ(p.status, 0) << "target " << in_quotes(target) << " refused: " << p.why;
    EXPECT_EQ(rdv::files::directory_target(p), location) << "target " << in_quotes(target);
  }
}

struct refused {
  std::string_view target;
  int status;
};

TEST(TargetPath, RefusesEverySpellingOfTheParentAndOfHiddenSeparators) {
  explained_in("ch08-paths");
  const std::vector<refused> cases = {
      {"/..", 403},
      {"/../etc/passwd", 403},
      {"/docs/../../etc/passwd", 403},
      {"/docs/..", 403},
      {"/%2e%2e/etc/passwd", 403},
      {"/%2E%2e/etc/passwd", 403},
      {"/.%2e/etc/passwd", 403},
      {"/%2e./etc/passwd", 403},
      {"/docs/%2E./%2e./etc/passwd", 403},
      {"/a%2fb", 403},
      {"/a%2F..%2F..%2Fetc%2Fpasswd", 403},
      {"/%2Fetc/passwd", 403},
      {"/a%00.txt", 400},
      {"/%zz", 400},
      {"/abc%4", 400},
      {"/abc%", 400},
      {"*", 400},
      {"example.com:443", 400},
      {"", 400},
  };
  for (const auto& c : cases) {
    const auto p = local_path_for(c.target);
    EXPECT_EQ(p.status, c.status) << "target " << in_quotes(c.target) << " became "
                                  << in_quotes(p.relative);
    EXPECT_FALSE(p.why.empty()) << "a refusal says why, for " << in_quotes(c.target);
  }
}

// Opens `relative` beneath the tree's root with `how`; the errno, 0 if it opened.
int open_error(const ch08::temp_root& tree, confinement how, const std::string& relative) {
  const rdv::files::root_directory root(tree.root().string(), how);
  boost::system::error_code ec;
  const auto file = root.open(relative, ec);
  EXPECT_EQ(static_cast<bool>(file), !ec) << relative;
  return ec.value();
}

class Confinement : public ::testing::TestWithParam<confinement> {};

TEST_P(Confinement, OpensFilesAndLinksThatStayInside) {
  explained_in("ch08-confinement");
  const ch08::filled_root tree;
  for (const char* inside :
       {"", "hello.txt", "docs", "docs/index.html", "link-in", "docs/link-in"}) {
    EXPECT_EQ(open_error(tree, GetParam(), inside), 0)
        << in_quotes(inside) << " is inside the root";
  }
  EXPECT_EQ(open_error(tree, GetParam(), "missing.txt"), ENOENT);
  EXPECT_EQ(open_error(tree, GetParam(), "hello.txt/x"), ENOTDIR);
  const rdv::files::root_directory root(tree.root().string(), GetParam());
  boost::system::error_code ec;
  const auto file = root.open("hello.txt", ec);
  ASSERT_TRUE(file) << ec.message();
  EXPECT_NE(::fcntl(file.get(), F_GETFD) & FD_CLOEXEC, 0)
      << "a file the server opens (and may keep open) should close on exec (O_CLOEXEC), so that "
         "a program the server starts does not inherit it";
}

TEST_P(Confinement, RefusesLinksAndPathsLeadingOutside) {
  explained_in("ch08-confinement");
  const ch08::filled_root tree;
  for (const char* outside : {"link-out", "link-abs", "docs/link-up", "link-dir-out/secret.txt",
                              "..", "docs/../../outside/secret.txt"}) {
    EXPECT_EQ(open_error(tree, GetParam(), outside), EXDEV)
        << in_quotes(outside) << " leads outside the root: EXDEV, and no file";
  }
}

TEST_P(Confinement, FollowsARootThatIsDeletedAndMadeAgain) {
  explained_in("ch08-confinement");
  const ch08::filled_root tree;
  const rdv::files::root_directory root(tree.root().string(), GetParam());
  std::filesystem::remove_all(tree.root());  // as a rebuild of the book does
  std::filesystem::create_directory(tree.root());
  tree.write("new.txt", "new");
  boost::system::error_code ec;
  EXPECT_TRUE(root.open("new.txt", ec)) << "the new root's file: " << ec.message();
  EXPECT_TRUE(root.open("new.txt", ec)) << "and again: " << ec.message();
  EXPECT_FALSE(root.open("hello.txt", ec)) << "the old root's file is gone";
  EXPECT_EQ(ec, boost::system::errc::no_such_file_or_directory) << ec.message();
}

INSTANTIATE_TEST_SUITE_P(Both, Confinement,
                         ::testing::Values(confinement::kernel, confinement::realpath),
                         [](const ::testing::TestParamInfo<confinement>& p) {
                           return p.param == confinement::kernel ? "openat2" : "realpath";
                         });

TEST(RootDirectory, UsesTheKernelWhereOpenat2Exists) {
  explained_in("ch08-confinement");
  ch08::temp_root tree;
  const rdv::files::root_directory root(tree.root().string());
  EXPECT_EQ(root.how(), confinement::kernel) << "Linux 5.6 and later have openat2";
  EXPECT_THROW(rdv::files::root_directory((tree.root() / "missing").string()), std::system_error);
}

}  // namespace
