#pragma once
/// \file
/// Command-line flags shared by the course's programs (`--listen HOST:PORT`, `--help`, ...).

#include <chrono>
#include <climits>
#include <concepts>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
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

/// `host:port` as parse_host_port() reads it back (`[::1]:80` for IPv6).
std::string to_string(const host_port& where);

/// The flags and arguments a program accepts, declared once and used both to
/// parse argv and to print `--help`. Each is declared with the variable its
/// value goes to, of the value's type: a program reads its command line into
/// a struct once, and names no flag again. The variable's value when it is
/// declared is the default that `--help` shows; the variables must outlive
/// parse().
///
///     rdv::web::server_options options{.idle_timeout = std::chrono::seconds(5)};
///     rdv::cli::flags flags("server", "Serves.");
///     flags.option("idle-ms", options.idle_timeout, "close idle connections").range(1, 60'000);
///     if (!flags.parse(argc, argv)) return flags.exit_status();
class flags {
public:
  /// `program` is the command's name, `summary` one sentence on what it does.
  flags(std::string program, std::string summary);

  /// Declares `--name TEXT`; `shown` is what --help calls the value (`DIR`).
  flags& option(std::string name, std::string& into, std::string help, std::string shown = "TEXT");
  /// Declares `--name HOST:PORT`, checked while parsing (parse_host_port()).
  flags& option(std::string name, host_port& into, std::string help);
  /// Declares `--name MS`, a whole number of milliseconds (see range()).
  flags& option(std::string name, std::chrono::milliseconds& into, std::string help);
  /// Declares `--name N`, a whole number from 0 to what `N` holds (see range()).
  template <class N>
    requires std::integral<N> && (!std::same_as<N, bool>)
  flags& option(std::string name, N& into, std::string help, std::string shown = "N") {
    return number(kind::option, std::move(name), std::move(shown), std::move(help), into);
  }
  /// Declares `--name HOST:PORT` that may be given several times; what is
  /// given replaces the defaults.
  flags& repeated(std::string name, std::vector<host_port>& into, std::string help);
  /// Declares `--name TEXT` that may be given several times.
  flags& repeated(std::string name, std::vector<std::string>& into, std::string help,
                  std::string shown = "TEXT");
  /// Declares `--name`, a switch that sets `into` when given.
  flags& toggle(std::string name, bool& into, std::string help);
  /// Declares a whole-number positional argument; positionals are required,
  /// in order.
  template <class N>
    requires std::integral<N> && (!std::same_as<N, bool>)
  flags& positional(std::string name, N& into, std::string help) {
    std::string shown = name;
    return number(kind::positional, std::move(name), std::move(shown), std::move(help), into);
  }
  /// Narrows the whole number declared last to [min, max], checked while
  /// parsing (so a value outside it is a usage error, status 2).
  flags& range(long long min, long long max);

  /// Parses the command line into the declared variables. Returns false when
  /// the program should exit now with exit_status(): after `--help` (status
  /// 0) or a usage error, which it has already reported on standard error
  /// (status 2); the variables are then as they were.
  bool parse(int argc, const char* const argv[]);
  /// The status to exit with when parse() returned false.
  int exit_status() const { return exit_status_; }

  /// Writes the usage text that `--help` prints.
  void print_usage(std::ostream& out) const;

private:
  enum class kind { option, repeated, toggle, positional };
  struct declared {
    std::string name;
    std::string shown;  // the value's name in --help
    std::string help;
    kind what = kind::option;
    std::vector<std::string> values;      // the defaults, as text, until parse() sees the flag
    std::vector<std::string> defaults{};  // what --help shows, even after a usage error
    bool given = false;
    enum class form { text, host_port, number } checked = form::text;
    long long min = 0, max = 0;  // a number's range
    // Reads `values` into the declared variable. Called only once every
    // flag has been checked, so that a usage error changes no variable.
    std::function<void(const declared&)> store;
  };
  template <class N>
  flags& number(kind what, std::string name, std::string shown, std::string help, N& into) {
    constexpr long long most = std::cmp_less(LLONG_MAX, std::numeric_limits<N>::max())
                                   ? LLONG_MAX
                                   : static_cast<long long>(std::numeric_limits<N>::max());
    return whole_number(what, std::move(name), std::move(shown), std::move(help),
                        static_cast<long long>(into), most,
                        [&into](long long n) { into = static_cast<N>(n); });
  }
  flags& whole_number(kind what, std::string name, std::string shown, std::string help,
                      long long current, long long most, std::function<void(long long)> store);
  flags& declare(declared d);
  declared& find(std::string_view name, std::string_view as_written);
  void parse_or_throw(int argc, const char* const argv[]);
  static void check_values(const declared& d);

  std::string program_, summary_;
  std::vector<declared> declared_;
  bool help_ = false;
  int exit_status_ = 0;
};

}  // namespace rdv::cli
