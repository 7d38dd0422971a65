// Chapter 2, exercise 2: header field lines, and looking fields up.
#include "http_fields.hpp"
#include "parse_driver.hpp"
#include "request_cases.hpp"
#include "request_parser.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/escape.hpp"

#include <gtest/gtest.h>

namespace {

using rdv::http::parse_error;
using rdv::test::explained_in;

TEST(FieldLine, SplitsNameAndValue) {
  explained_in("ch02-fields");
  const struct {
    const char *line, *name, *value;
  } cases[] = {
      {"Host: example.com", "Host", "example.com"},
      {"Accept:*/*", "Accept", "*/*"},
      {"X-Spaces:  \t a  b \t ", "X-Spaces", "a  b"},
      {"X-Empty:", "X-Empty", ""},
      {"X-Empty: \t ", "X-Empty", ""},
      {"x: y:z", "x", "y:z"},
  };
  for (const auto& c : cases) {
    rdv::http::field f;
    const parse_error e = rdv::http::parse_field_line(c.line, f);
    EXPECT_EQ(e, parse_error::none)
        << "for " << rdv::test::in_quotes(c.line) << ": " << rdv::http::name_of(e);
    EXPECT_EQ(f.name, c.name) << "the name in " << rdv::test::in_quotes(c.line);
    EXPECT_EQ(f.value, c.value) << "the value in " << rdv::test::in_quotes(c.line);
  }
}

TEST(FieldLine, RefusesWhatTwoParsersCouldReadDifferently) {
  explained_in("ch02-smuggling");
  const struct {
    const char* line;
    parse_error error;
  } cases[] = {
      {" folded continuation", parse_error::obs_fold},
      {"\tfolded continuation", parse_error::obs_fold},
      {"Transfer-Encoding : chunked", parse_error::space_before_colon},
      {"Content-Length\t: 5", parse_error::space_before_colon},
      {"Host  : x", parse_error::space_before_colon},
      {"Host \t: x", parse_error::space_before_colon},
      {": no name", parse_error::bad_field_name},
      {"no colon", parse_error::bad_field_name},
      {"", parse_error::bad_field_name},
      {"X[1]: a", parse_error::bad_field_name},
      {"Caf\xc3\xa9: a", parse_error::bad_field_name},
  };
  for (const auto& c : cases) {
    rdv::http::field f;
    const parse_error e = rdv::http::parse_field_line(c.line, f);
    EXPECT_EQ(e, c.error) << "parse_field_line(" << rdv::test::in_quotes(c.line)
                          << ") should fail with " << rdv::http::name_of(c.error) << ", not "
                          << rdv::http::name_of(e);
  }
}

}  // namespace
