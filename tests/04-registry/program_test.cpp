// The names program itself, run as a child process.
#include "rdv/test/book.hpp"
#include "rdv/test/program.hpp"

#include <gtest/gtest.h>

namespace {

using rdv::test::explained_in;

TEST(Program, NamesRunsTheRegisteredNameExample) {
  explained_in("ch04-complaint");
  const auto run = rdv::test::run_to_end(rdv::test::built_program("names"), {});
  EXPECT_EQ(run.status, 0) << run.err;
  for (const char* line :
       {"got {msg, \"by pid\"}", "got {msg, \"by name\"}", "got {msg, \"through a variable\"}",
        "got {msg, \"through the same variable, as a pid\"}", "whereis(\"test\") finds nobody",
        "send to \"test\": no process is registered under that name"}) {
    EXPECT_NE(run.out.find(line), std::string::npos) << "missing: " << line << "\n" << run.out;
  }
}

}  // namespace
