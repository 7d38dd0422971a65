#include "rdv/cli.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <iomanip>
#include <iostream>

namespace rdv::cli {

host_port parse_host_port(std::string_view text) {
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    throw usage_error("expected HOST:PORT (for example 127.0.0.1:8081), got '" + std::string(text) +
                      "'");
  }
  std::string_view host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);  // [::1]:8081
  }
  const auto port = parse_number(text.substr(colon + 1), 0, 65535);
  return {std::string(host), static_cast<std::uint16_t>(port)};
}

long long parse_number(std::string_view text, long long min, long long max) {
  long long n = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (error != std::errc{} || end != text.data() + text.size() || n < min || n > max) {
    throw usage_error("expected a whole number from " + std::to_string(min) + " to " +
                      std::to_string(max) + ", got '" + std::string(text) + "'");
  }
  return n;
}

std::string to_string(const host_port& where) {
  const bool v6 = where.host.find(':') != std::string::npos;
  return (v6 ? "[" + where.host + "]" : where.host) + ':' + std::to_string(where.port);
}

namespace {

// The text a declared variable's value shows as its default ("" for none).
std::vector<std::string> shown_default(const std::string& text) {
  if (text.empty()) return {};
  return {text};
}

}  // namespace

flags::flags(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {}

flags& flags::declare(declared d) {
  for (const declared& earlier : declared_) {
    if (earlier.name == d.name) throw std::logic_error("flag '" + d.name + "' declared twice");
  }
  d.defaults = d.values;
  declared_.push_back(std::move(d));
  return *this;
}

flags& flags::option(std::string name, std::string& into, std::string help, std::string shown) {
  return declare({.name = std::move(name),
                  .shown = std::move(shown),
                  .help = std::move(help),
                  .values = shown_default(into),
                  .store = [&into](const declared& d) { into = d.values.back(); }});
}

flags& flags::option(std::string name, host_port& into, std::string help) {
  return declare(
      {.name = std::move(name),
       .shown = "HOST:PORT",
       .help = std::move(help),
       .values = into.host.empty() && into.port == 0 ? std::vector<std::string>{}
                                                     : shown_default(to_string(into)),
       .checked = declared::form::host_port,
       .store = [&into](const declared& d) { into = parse_host_port(d.values.back()); }});
}

flags& flags::option(std::string name, std::chrono::milliseconds& into, std::string help) {
  return whole_number(kind::option, std::move(name), "MS", std::move(help), into.count(),
                      std::numeric_limits<std::chrono::milliseconds::rep>::max(),
                      [&into](long long n) { into = std::chrono::milliseconds(n); });
}

flags& flags::whole_number(kind what, std::string name, std::string shown, std::string help,
                           long long current, long long most,
                           std::function<void(long long)> store) {
  return declare({.name = std::move(name),
                  .shown = std::move(shown),
                  .help = std::move(help),
                  .what = what,
                  .values = what == kind::positional ? std::vector<std::string>{}
                                                     : shown_default(std::to_string(current)),
                  .checked = declared::form::number,
                  .min = 0,
                  .max = most,
                  .store = [store = std::move(store)](const declared& d) {
                    store(parse_number(d.values.back(), d.min, d.max));
                  }});
}

flags& flags::repeated(std::string name, std::vector<host_port>& into, std::string help) {
  std::vector<std::string> defaults;
  for (const host_port& where : into) defaults.push_back(to_string(where));
  return declare({.name = std::move(name),
                  .shown = "HOST:PORT",
                  .help = std::move(help),
                  .what = kind::repeated,
                  .values = std::move(defaults),
                  .checked = declared::form::host_port,
                  .store = [&into](const declared& d) {
                    into.clear();
                    for (const std::string& v : d.values) into.push_back(parse_host_port(v));
                  }});
}

flags& flags::repeated(std::string name, std::vector<std::string>& into, std::string help,
                       std::string shown) {
  return declare({.name = std::move(name),
                  .shown = std::move(shown),
                  .help = std::move(help),
                  .what = kind::repeated,
                  .values = into,
                  .store = [&into](const declared& d) { into = d.values; }});
}

flags& flags::toggle(std::string name, bool& into, std::string help) {
  return declare({.name = std::move(name),
                  .shown = {},
                  .help = std::move(help),
                  .what = kind::toggle,
                  .values = {},
                  .store = [&into](const declared&) { into = true; }});
}

flags& flags::range(long long min, long long max) {
  if (declared_.empty() || declared_.back().checked != declared::form::number) {
    throw std::logic_error("range() needs a whole number declared before it");
  }
  declared_.back().min = min;
  declared_.back().max = max;
  return *this;
}

bool flags::parse(int argc, const char* const argv[]) {
  try {
    parse_or_throw(argc, argv);
    return exit_status_ == 0 && argc > 0 && !help_;
  } catch (const usage_error& e) {
    std::cerr << program_ << ": " << e.what() << "\n\n";
    print_usage(std::cerr);
    exit_status_ = 2;
    return false;
  }
}

void flags::parse_or_throw(int argc, const char* const argv[]) {
  if (std::none_of(declared_.begin(), declared_.end(),
                   [](const declared& d) { return d.name == "help"; })) {
    toggle("help", help_, "print this help and exit");
  }
  auto next_positional = declared_.begin();
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--")) {
      std::string_view name = arg.substr(2);
      std::string_view inline_value;
      const bool has_inline = name.find('=') != std::string_view::npos;
      if (has_inline) {
        inline_value = name.substr(name.find('=') + 1);
        name = name.substr(0, name.find('='));
      }
      declared& flag = find(name, arg);
      if (flag.what == kind::toggle) {
        if (has_inline) throw usage_error("--" + flag.name + " takes no value");
        flag.given = true;
        continue;
      }
      if (!has_inline && i + 1 >= argc) {
        throw usage_error("--" + flag.name + " needs a value (" + flag.shown + ")");
      }
      const std::string value(has_inline ? inline_value : std::string_view(argv[++i]));
      if (!flag.given || flag.what == kind::option) flag.values.clear();
      flag.values.push_back(value);
      flag.given = true;
      continue;
    }
    next_positional = std::find_if(next_positional, declared_.end(),
                                   [](const declared& d) { return d.what == kind::positional; });
    if (next_positional == declared_.end()) {
      throw usage_error("unexpected argument '" + std::string(arg) + "'");
    }
    next_positional->values = {std::string(arg)};
    next_positional->given = true;
    ++next_positional;
  }
  if (find("help", "--help").given) {
    help_ = true;
    print_usage(std::cout);
    return;
  }
  for (const declared& d : declared_) {
    if (d.what == kind::positional && !d.given) throw usage_error("missing " + d.name);
    check_values(d);
  }
  for (const declared& d : declared_) {
    if (d.given) d.store(d);
  }
}

void flags::check_values(const declared& d) {
  // Values are checked for their form now, so that a typo is a usage error
  // (status 2) before the program starts anything.
  for (const std::string& v : d.values) {
    try {
      switch (d.checked) {
      case declared::form::text: break;
      case declared::form::host_port: parse_host_port(v); break;
      case declared::form::number: parse_number(v, d.min, d.max);
      }
    } catch (const usage_error& e) {
      throw usage_error((d.what == kind::positional ? d.name : "--" + d.name) + ": " + e.what());
    }
  }
}

flags::declared& flags::find(std::string_view name, std::string_view as_written) {
  for (declared& d : declared_) {
    if (d.name == name && d.what != kind::positional) return d;
  }
  throw usage_error("unknown flag '" + std::string(as_written) + "'");
}

void flags::print_usage(std::ostream& out) const {
  out << "usage: " << program_;
  for (const declared& d : declared_) {
    if (d.what == kind::positional) out << ' ' << d.name;
  }
  out << " [flags]\n\n" << summary_ << "\n\n";
  for (const declared& d : declared_) {
    std::string left = d.what == kind::positional ? d.name : "--" + d.name;
    if (d.what == kind::option || d.what == kind::repeated) left += ' ' + d.shown;
    out << "  " << std::left << std::setw(26) << left << ' ' << d.help;
    if (d.what == kind::repeated) out << " (repeatable)";
    if (d.what != kind::positional && !d.defaults.empty()) {
      out << " [default:";
      for (const auto& v : d.defaults) out << ' ' << v;
      out << ']';
    }
    out << '\n';
  }
}

}  // namespace rdv::cli
