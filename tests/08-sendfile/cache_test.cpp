// Chapter 8: the open-file cache keeps a file open only for as long as
// nothing on its path changes, and every change a request could see is
// seen by the next request.
#include "open_file_cache.hpp"
#include "root_directory.hpp"
#include "temp_root.hpp"

#include "rdv/test/book.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using rdv::files::open_file_cache;
using rdv::files::opened_file;
using rdv::files::root_directory;
using rdv::test::explained_in;

#if defined(__linux__)

class OpenFileCache : public ::testing::Test {
protected:
  void SetUp() override { explained_in("ch08-open-files"); }

  // The file `relative` through the cache, which must find it.
  std::shared_ptr<const opened_file> open(const std::string& relative) {
    boost::system::error_code ec;
    auto file = cache.open(relative, ec);
    EXPECT_FALSE(ec) << relative << ": " << ec.message();
    return file;
  }
  // Its bytes, read through the descriptor the cache gave.
  static std::string bytes_of(const opened_file& file) {
    std::string out(static_cast<std::size_t>(file.st.st_size), '\0');
    EXPECT_EQ(::pread(file.file.get(), out.data(), out.size(), 0),
              static_cast<ssize_t>(out.size()));
    return out;
  }
  std::filesystem::path at(const std::string& relative) const { return tree.root() / relative; }

  ch08::temp_root tree;
  root_directory root{tree.root().string()};
  open_file_cache cache{root, 8};
};

TEST_F(OpenFileCache, GivesTheSameOpenFileUntilSomethingChanges) {
  tree.write("a.txt", "first\n");
  tree.write("docs/guide/b.txt", "deep\n");
  const auto a = open("a.txt");
  const auto b = open("docs/guide/b.txt");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(open("a.txt"), a) << "asked again, a file that has not changed is not opened again";
  EXPECT_EQ(open("docs/guide/b.txt"), b);
  EXPECT_EQ(cache.stats().hits, 2u);
  EXPECT_EQ(cache.stats().misses, 2u);
  EXPECT_EQ(cache.size(), 2u);
}

TEST_F(OpenFileCache, SeesAFileWrittenTo) {
  tree.write("a.txt", "first\n");
  const auto before = open("a.txt");
  std::ofstream(at("a.txt"), std::ios::app) << "second\n";
  const auto after = open("a.txt");
  ASSERT_NE(after, before);
  EXPECT_EQ(bytes_of(*after), "first\nsecond\n") << "the size fstat gives is the new one";
}

TEST_F(OpenFileCache, SeesAFileReplacedDeletedOrGivenNewAttributes) {
  tree.write("a.txt", "old\n");
  const auto old = open("a.txt");
  tree.write("a.txt.new", "new, and longer\n");
  std::filesystem::rename(at("a.txt.new"), at("a.txt"));
  const auto replaced = open("a.txt");
  ASSERT_NE(replaced, old);
  EXPECT_EQ(bytes_of(*replaced), "new, and longer\n");

  ASSERT_EQ(::chmod(at("a.txt").c_str(), 0600), 0);
  const auto chmodded = open("a.txt");
  EXPECT_NE(chmodded, replaced) << "a new mode may refuse the file: it is looked at again";

  std::filesystem::remove(at("a.txt"));
  boost::system::error_code ec;
  EXPECT_FALSE(cache.open("a.txt", ec));
  EXPECT_EQ(ec, boost::system::errc::no_such_file_or_directory);
}

TEST_F(OpenFileCache, SeesADirectoryOnThePathRenamedAtAnyDepth) {
  for (const std::string directory : {"docs", "docs/guide"}) {
    const std::string file = directory + "/page.html";
    tree.write(file, "old " + directory + "\n");
    const auto old = open(file);
    ASSERT_EQ(open(file), old) << file << " is kept";
    std::filesystem::rename(at(directory), at(directory + ".old"));
    tree.write(file, "new " + directory + "\n");
    const auto now = open(file);
    ASSERT_NE(now, old) << directory << " was renamed";
    EXPECT_EQ(bytes_of(*now), "new " + directory + "\n");
  }
}

TEST_F(OpenFileCache, KeepsFilesWhileOthersBesideThemChange) {
  tree.write("docs/page.html", "kept\n");
  tree.write("docs/other.html", "other\n");
  const auto kept = open("docs/page.html");
  tree.write("docs/new.html", "new\n");
  tree.write("top.html", "new at the top\n");
  std::filesystem::remove(at("docs/other.html"));
  ASSERT_EQ(::chmod(at("docs/new.html").c_str(), 0600), 0);
  EXPECT_EQ(open("docs/page.html"), kept)
      << "only a change to the file or a directory on its path drops it";
}

TEST_F(OpenFileCache, FollowsTheRootToTheDirectoryItsNameNowLeadsTo) {
  // As a rebuilt site is put in place: a new directory under the old name.
  // Nothing in the old one changes, but once root_directory has opened the
  // new one (a file missing from the old one makes it look), every file
  // comes from there.
  tree.write("a.txt", "the old root's\n");
  const auto old = open("a.txt");
  std::filesystem::rename(tree.root(), tree.root().string() + ".old");
  tree.write("a.txt", "the new root's\n");
  tree.write("new.txt", "only in the new root\n");
  ASSERT_TRUE(open("new.txt"));
  const auto now = open("a.txt");
  ASSERT_NE(now, old);
  EXPECT_EQ(bytes_of(*now), "the new root's\n");
}

TEST_F(OpenFileCache, SeesAWriteThroughAnotherLinkToTheFile) {
  tree.write("a.txt", "one\n");
  const auto elsewhere = tree.outside() / "hard-link";
  std::filesystem::create_hard_link(at("a.txt"), elsewhere);
  const auto before = open("a.txt");
  std::ofstream(elsewhere, std::ios::app) << "two\n";  // no change in the root's directories
  const auto after = open("a.txt");
  ASSERT_NE(after, before) << "a watch on the directories alone misses a write through a link "
                              "elsewhere: the file itself is watched";
  EXPECT_EQ(bytes_of(*after), "one\ntwo\n");
}

TEST_F(OpenFileCache, KeepsNothingReachedThroughASymbolicLink) {
  tree.write("real/a.txt", "through a link\n");
  tree.link("alias", "real");
  const auto first = open("alias/a.txt");
  ASSERT_TRUE(first);
  EXPECT_EQ(bytes_of(*first), "through a link\n");
  EXPECT_NE(open("alias/a.txt"), first) << "a link's target can change where no watch looks";
  tree.link("a-link.txt", "real/a.txt");
  const auto last = open("a-link.txt");
  ASSERT_TRUE(last);
  EXPECT_EQ(bytes_of(*last), "through a link\n");
  EXPECT_NE(open("a-link.txt"), last) << "nor a link as the last name";
  EXPECT_EQ(cache.size(), 0u);
}

TEST_F(OpenFileCache, GivesBackTheWatchesOfWhatItDoesNotKeep) {
  tree.write("docs/guide/page.html", "kept\n");
  tree.write("real/a.txt", "through a link\n");
  tree.link("alias", "real");
  ASSERT_TRUE(open("docs/guide/page.html"));
  EXPECT_EQ(cache.watches(), 3u) << "docs, docs/guide and the file";
  ASSERT_TRUE(open("alias/a.txt"));
  ASSERT_TRUE(open("docs"));  // a directory
  EXPECT_EQ(cache.watches(), 3u) << "nothing for what was not kept";
  std::filesystem::rename(at("docs/guide"), at("docs/guide.old"));
  boost::system::error_code ec;
  EXPECT_FALSE(cache.open("docs/guide/page.html", ec));
  EXPECT_EQ(cache.watches(), 0u) << "nor for what was dropped";
}

TEST_F(OpenFileCache, KeepsAWatchThatWhatItKeepsSharesWithWhatItDoesNot) {
  tree.write("docs/page.html", "old\n");
  tree.write("docs/sub/other.html", "other\n");
  const auto old = open("docs/page.html");
  // A directory, not kept: it gives back the share of docs's watch it took.
  ASSERT_TRUE(open("docs/sub"));
  ASSERT_EQ(open("docs/page.html"), old) << "docs/page.html is kept";
  std::filesystem::rename(at("docs"), at("docs.old"));
  tree.write("docs/page.html", "new\n");
  const auto now = open("docs/page.html");
  ASSERT_NE(now, old) << "docs was renamed; the watch that tells it is docs/page.html's too, "
                         "and must outlive the share of it that was given back";
  EXPECT_EQ(bytes_of(*now), "new\n");
}

// How many descriptors this process has open.
std::size_t open_descriptors() {
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    (void)entry;
    ++n;
  }
  return n;
}

TEST_F(OpenFileCache, KeepsNoDescriptorOfTheDirectoriesItWalksThrough) {
  tree.write("docs/guide/page.html", "kept\n");
  ASSERT_TRUE(open("docs/guide/page.html"));  // the file kept, and its watches made
  const std::size_t before = open_descriptors();
  boost::system::error_code ec;
  for (int i = 0; i < 20; ++i) {
    EXPECT_FALSE(cache.open("docs/guide/missing-" + std::to_string(i) + ".html", ec));
    ASSERT_TRUE(open("docs/guide/page.html"));
  }
  EXPECT_EQ(open_descriptors(), before)
      << "20 files missing under docs/guide, each found missing by walking docs and docs/guide: "
         "every descriptor opened on the way must be closed again, or any client can use them "
         "all up with requests for files that are not there";
}

TEST_F(OpenFileCache, KeepsNoMoreThanItsCapacityDroppingTheLeastRecentlyUsed) {
  open_file_cache small(root, 2);
  boost::system::error_code ec;
  for (const char* name : {"1", "2", "3"}) tree.write(name, name);
  const auto one = small.open("1", ec);
  small.open("2", ec);
  EXPECT_EQ(small.open("1", ec), one) << "1 is now the most recently used";
  small.open("3", ec);  // makes room by dropping 2
  EXPECT_EQ(small.size(), 2u);
  EXPECT_EQ(small.stats().evicted, 1u);
  EXPECT_EQ(small.open("1", ec), one);
  const auto misses = small.stats().misses;
  small.open("2", ec);
  EXPECT_EQ(small.stats().misses, misses + 1) << "2 was dropped";
}

TEST_F(OpenFileCache, AFileItDropsStaysOpenForWhoeverStillHoldsIt) {
  open_file_cache small(root, 1);
  tree.write("a.txt", "first\n");
  tree.write("b.txt", "second\n");
  boost::system::error_code ec;
  const auto a = small.open("a.txt", ec);  // a response being sent holds it
  ASSERT_TRUE(a);
  ASSERT_TRUE(small.open("b.txt", ec));  // makes room by dropping a.txt
  ASSERT_EQ(small.stats().evicted, 1u);
  EXPECT_EQ(bytes_of(*a), "first\n")
      << "the cache dropped a.txt, but a response still sends it: its descriptor must stay open "
         "until the last holder lets go";
}

TEST_F(OpenFileCache, WithNoCapacityOpensEveryTime) {
  open_file_cache none(root, 0);
  tree.write("a.txt", "a\n");
  boost::system::error_code ec;
  const auto first = none.open("a.txt", ec);
  ASSERT_TRUE(first);
  EXPECT_NE(none.open("a.txt", ec), first);
  EXPECT_EQ(none.size(), 0u);
}

TEST_F(OpenFileCache, DropsEverythingWhenReportsOfChangesWereLost) {
  // The kernel keeps max_queued_events reports; past that it drops the rest
  // and says only that it did. A file in a quiet directory is then dropped
  // as well: what was lost may have concerned it.
  int most = 0;
  std::ifstream("/proc/sys/fs/inotify/max_queued_events") >> most;
  if (most <= 0 || most > 200'000) GTEST_SKIP() << "max_queued_events is " << most;
  tree.write("quiet/a.txt", "a\n");
  tree.write("busy/b.txt", "b\n");
  tree.write("busy/x", "");
  tree.write("busy/y", "");
  const auto quiet = open("quiet/a.txt");
  open("busy/b.txt");
  for (int i = 0; i <= most; ++i) {  // alternately, or the kernel merges them
    ASSERT_EQ(::chmod(at(i % 2 ? "busy/x" : "busy/y").c_str(), 0600 | (i & 4 ? 040 : 0)), 0);
  }
  EXPECT_NE(open("quiet/a.txt"), quiet);
}

#endif

}  // namespace
