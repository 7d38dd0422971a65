#pragma once
/// \file
/// Command-line flags shared by the course's programs (`--listen HOST:PORT`, `--help`, ...).

#include <cstdint>
#include <iosfwd>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rdv::cli {

/// A command line that does not follow the program's usage.
class usage_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A host and a port, as written on a command line: `127.0.0.1:8081`, `[::1]:0`.
struct host_port {
  std::string host;        ///< a name or an address, without IPv6 brackets
  std::uint16_t port = 0;  ///< 0 lets the system pick a free port
};

/// Parses `HOST:PORT`; throws usage_error naming what was expected.
host_port parse_host_port(std::string_view text);

/// Parses a whole decimal number in [min, max]; throws usage_error otherwise.
long long parse_number(std::string_view text, long long min, long long max);

/// What a value must look like, checked while parsing.
enum class value_kind {
  text,       ///< anything
  host_port,  ///< HOST:PORT (see parse_host_port())
  number,     ///< a whole number, within the range() given (at least 0 without one)
};

/// A value's name in `--help` (`DIR`, `HOST:PORT`) and its kind. A plain
/// string is a text value of that name.
struct value_form {
  std::string name;                             ///< what --help calls the value
  value_kind kind = value_kind::text;           ///< what parsing checks it for
  value_form(const char* text) : name(text) {}  ///< a text value called `text`
  /// A value called `shown`, checked as `checked`.
  value_form(std::string shown, value_kind checked) : name(std::move(shown)), kind(checked) {}
};

/// An address to listen on or connect to.
inline const value_form address{"HOST:PORT", value_kind::host_port};
/// A count.
inline const value_form count{"N", value_kind::number};
/// A time in milliseconds.
inline const value_form milliseconds{"MS", value_kind::number};

/// The flags and arguments a program accepts, declared once and used both to
/// parse argv and to print `--help`.
class flags {
public:
  /// `program` is the command's name, `summary` one sentence on what it does.
  flags(std::string program, std::string summary);

  /// Declares `--name VALUE` with a default ("" for none); the value's form
  /// (cli::address, cli::milliseconds, ...) is checked while parsing.
  flags& option(std::string name, value_form value, std::string help,
                std::string default_value = {});
  /// Declares `--name VALUE` that may be given several times.
  flags& repeated(std::string name, value_form value, std::string help,
                  std::vector<std::string> default_values = {});
  /// Declares `--name`, a switch that is off unless given.
  flags& toggle(std::string name, std::string help);
  /// Declares a positional argument; positionals are required, in order.
  flags& positional(std::string name, std::string help);
  /// Makes the flag or positional declared last a whole number in [min, max],
  /// checked while parsing (so a bad one is a usage error, status 2).
  flags& range(long long min, long long max);

  /// Parses the command line. Returns false when the program should exit
  /// now with exit_status(): after `--help` (status 0) or a usage error,
  /// which it has already reported on standard error (status 2).
  bool parse(int argc, const char* const argv[]);
  /// The status to exit with when parse() returned false.
  int exit_status() const { return exit_status_; }

  /// The value of an option or positional (its default when not given).
  const std::string& value(std::string_view name) const;
  /// Every value given for a repeated option, or its defaults.
  const std::vector<std::string>& values(std::string_view name) const;
  /// Whether a toggle was given.
  bool is_on(std::string_view name) const;
  /// value() parsed as `HOST:PORT`.
  host_port endpoint(std::string_view name) const;
  /// value() parsed as a whole number in [min, max].
  long long number(std::string_view name, long long min, long long max) const;
  /// value() parsed as a whole number, in the range() it was declared with.
  long long number(std::string_view name) const;

  /// Writes the usage text that `--help` prints.
  void print_usage(std::ostream& out) const;

private:
  enum class kind { option, repeated, toggle, positional };
  struct declared {
    std::string name;
    value_form value;
    std::string help;
    kind what = kind::option;
    std::vector<std::string> values;  // defaults until parse() sees the flag
    bool given = false;
    bool ranged = false;  // a number within [min, max] (see range())
    long long min = 0, max = 0;
  };
  declared& find(std::string_view name, std::string_view as_written);
  const declared& find(std::string_view name) const;
  void parse_or_throw(int argc, const char* const argv[]);
  static void check_values(const declared& d);

  std::string program_, summary_;
  std::vector<declared> declared_;
  int exit_status_ = 0;
};

}  // namespace rdv::cli
