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

flags::flags(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {}

flags& flags::option(std::string name, value_form value, std::string help,
                     std::string default_value) {
  std::vector<std::string> defaults;
  if (!default_value.empty()) defaults.push_back(std::move(default_value));
  declared_.push_back(
      {std::move(name), std::move(value), std::move(help), kind::option, std::move(defaults)});
  return *this;
}

flags& flags::repeated(std::string name, value_form value, std::string help,
                       std::vector<std::string> default_values) {
  declared_.push_back({std::move(name), std::move(value), std::move(help), kind::repeated,
                       std::move(default_values)});
  return *this;
}

flags& flags::toggle(std::string name, std::string help) {
  declared_.push_back({std::move(name), "", std::move(help), kind::toggle, {}});
  return *this;
}

flags& flags::positional(std::string name, std::string help) {
  declared_.push_back({name, name.c_str(), std::move(help), kind::positional, {}});
  return *this;
}

flags& flags::range(long long min, long long max) {
  if (declared_.empty()) throw std::logic_error("range() needs a flag declared before it");
  declared& last = declared_.back();
  last.value.kind = value_kind::number;
  last.ranged = true;
  last.min = min;
  last.max = max;
  return *this;
}

bool flags::parse(int argc, const char* const argv[]) {
  try {
    parse_or_throw(argc, argv);
    return exit_status_ == 0 && argc > 0 && !is_on("help");
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
    toggle("help", "print this help and exit");
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
        throw usage_error("--" + flag.name + " needs a value (" + flag.value.name + ")");
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
  if (is_on("help")) {
    print_usage(std::cout);
    return;
  }
  for (const declared& d : declared_) {
    if (d.what == kind::positional && !d.given) throw usage_error("missing " + d.name);
    check_values(d);
  }
}

void flags::check_values(const declared& d) {
  // Values are checked for their form now, so that a typo is a usage error
  // (status 2) before the program starts anything.
  for (const std::string& v : d.values) {
    try {
      switch (d.value.kind) {
      case value_kind::text: break;
      case value_kind::host_port: parse_host_port(v); break;
      case value_kind::number: parse_number(v, d.ranged ? d.min : 0, d.ranged ? d.max : LLONG_MAX);
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

const flags::declared& flags::find(std::string_view name) const {
  for (const declared& d : declared_) {
    if (d.name == name) return d;
  }
  throw std::logic_error("flag '" + std::string(name) + "' was never declared");
}

const std::string& flags::value(std::string_view name) const {
  static const std::string none;
  const declared& d = find(name);
  return d.values.empty() ? none : d.values.back();
}

const std::vector<std::string>& flags::values(std::string_view name) const {
  return find(name).values;
}

bool flags::is_on(std::string_view name) const { return find(name).given; }

host_port flags::endpoint(std::string_view name) const {
  try {
    return parse_host_port(value(name));
  } catch (const usage_error& e) {
    throw usage_error("--" + std::string(name) + ": " + e.what());
  }
}

long long flags::number(std::string_view name, long long min, long long max) const {
  try {
    return parse_number(value(name), min, max);
  } catch (const usage_error& e) {
    throw usage_error(std::string(name) + ": " + e.what());
  }
}

long long flags::number(std::string_view name) const {
  const declared& d = find(name);
  if (!d.ranged)
    throw std::logic_error("flag '" + std::string(name) + "' was declared without range()");
  return number(name, d.min, d.max);
}

void flags::print_usage(std::ostream& out) const {
  out << "usage: " << program_;
  for (const declared& d : declared_) {
    if (d.what == kind::positional) out << ' ' << d.name;
  }
  out << " [flags]\n\n" << summary_ << "\n\n";
  for (const declared& d : declared_) {
    std::string left = d.what == kind::positional ? d.name : "--" + d.name;
    if (d.what == kind::option || d.what == kind::repeated) left += ' ' + d.value.name;
    out << "  " << std::left << std::setw(26) << left << ' ' << d.help;
    if (d.what == kind::repeated) out << " (repeatable)";
    if (d.what != kind::positional && !d.values.empty() && !d.given) {
      out << " [default:";
      for (const auto& v : d.values) out << ' ' << v;
      out << ']';
    }
    out << '\n';
  }
}

}  // namespace rdv::cli
