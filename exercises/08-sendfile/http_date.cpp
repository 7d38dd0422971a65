#include "http_date.hpp"

#include <array>
#include <cstdint>

namespace rdv::http {

namespace {

using namespace std::chrono;

constexpr std::array<std::string_view, 7> short_days{"Sun", "Mon", "Tue", "Wed",
                                                     "Thu", "Fri", "Sat"};
constexpr std::array<std::string_view, 7> long_days{"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                    "Thursday", "Friday", "Saturday"};
constexpr std::array<std::string_view, 12> months{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

void two_digits(std::string& out, unsigned value) {
  out += static_cast<char>('0' + value / 10);
  out += static_cast<char>('0' + value % 10);
}

// Reads a date one piece at a time; any piece that does not fit fails the
// whole date (ok becomes false and stays false).
class reader {
public:
  explicit reader(std::string_view text) : text_(text) {}

  bool ok() const { return ok_ && text_.empty(); }

  void literal(std::string_view expected) {
    if (text_.substr(0, expected.size()) != expected)
      ok_ = false;
    else
      text_.remove_prefix(expected.size());
  }
  // Exactly `width` decimal digits.
  unsigned digits(std::size_t width) {
    unsigned value = 0;
    for (std::size_t i = 0; i < width; ++i) {
      if (i >= text_.size() || text_[i] < '0' || text_[i] > '9') {
        ok_ = false;
        return 0;
      }
      value = value * 10 + static_cast<unsigned>(text_[i] - '0');
    }
    text_.remove_prefix(width);
    return value;
  }
  // One of `names` (case-sensitive, as the grammar says); returns its index.
  template <std::size_t N>
  unsigned one_of(const std::array<std::string_view, N>& names) {
    for (std::size_t i = 0; i < N; ++i) {
      if (text_.starts_with(names[i])) {
        text_.remove_prefix(names[i].size());
        return static_cast<unsigned>(i);
      }
    }
    ok_ = false;
    return 0;
  }
  // hour ":" minute ":" second
  seconds time_of_day() {
    const unsigned h = digits(2);
    literal(":");
    const unsigned m = digits(2);
    literal(":");
    const unsigned s = digits(2);
    if (h > 23 || m > 59 || s > 60) ok_ = false;
    return hours(h) + minutes(m) + seconds(s == 60 ? 59 : s);  // a leap second: the second before
  }

private:
  std::string_view text_;
  bool ok_ = true;
};

std::optional<sys_seconds> make_date(int y, unsigned month_index, unsigned d, seconds time) {
  const year_month_day date{year(y), month(month_index + 1), day(d)};
  if (!date.ok()) return std::nullopt;
  return sys_days(date) + time;
}

}  // namespace

std::string format_http_date(sys_seconds t) {
  const sys_days days = floor<std::chrono::days>(t);
  const year_month_day date(days);
  const hh_mm_ss time(t - days);
  std::string out;
  out.reserve(29);
  out += short_days[weekday(days).c_encoding()];
  out += ", ";
  two_digits(out, static_cast<unsigned>(date.day()));
  out += ' ';
  out += months[static_cast<unsigned>(date.month()) - 1];
  out += ' ';
  const int y = static_cast<int>(date.year());
  two_digits(out, static_cast<unsigned>(y / 100 % 100));
  two_digits(out, static_cast<unsigned>(y % 100));
  out += ' ';
  two_digits(out, static_cast<unsigned>(time.hours().count()));
  out += ':';
  two_digits(out, static_cast<unsigned>(time.minutes().count()));
  out += ':';
  two_digits(out, static_cast<unsigned>(time.seconds().count()));
  out += " GMT";
  return out;
}

std::optional<sys_seconds> parse_http_date(std::string_view text, sys_seconds now) {
  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
  if (text.size() == 29 && text[3] == ',') {
    reader r(text);
    r.one_of(short_days);
    r.literal(", ");
    const unsigned d = r.digits(2);
    r.literal(" ");
    const unsigned m = r.one_of(months);
    r.literal(" ");
    const unsigned y = r.digits(4);
    r.literal(" ");
    const seconds time = r.time_of_day();
    r.literal(" GMT");
    return r.ok() ? make_date(static_cast<int>(y), m, d, time) : std::nullopt;
  }
  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
  if (const auto comma = text.find(','); comma != std::string_view::npos && comma > 3) {
    reader r(text);
    r.one_of(long_days);
    r.literal(", ");
    const unsigned d = r.digits(2);
    r.literal("-");
    const unsigned m = r.one_of(months);
    r.literal("-");
    const unsigned yy = r.digits(2);
    r.literal(" ");
    const seconds time = r.time_of_day();
    r.literal(" GMT");
    if (!r.ok()) return std::nullopt;
    // The latest year ending in yy that is not more than 50 years from now.
    const int this_year = static_cast<int>(year_month_day(floor<days>(now)).year());
    int y = this_year - this_year % 100 + static_cast<int>(yy);
    if (y > this_year + 50) y -= 100;
    return make_date(y, m, d, time);
  }
  // asctime: Sun Nov  6 08:49:37 1994
  reader r(text);
  r.one_of(short_days);
  r.literal(" ");
  const unsigned m = r.one_of(months);
  r.literal(" ");
  const unsigned d =
      text.size() > 8 && text[8] == ' ' ? (r.literal(" "), r.digits(1)) : r.digits(2);
  r.literal(" ");
  const seconds time = r.time_of_day();
  r.literal(" ");
  const unsigned y = r.digits(4);
  return r.ok() ? make_date(static_cast<int>(y), m, d, time) : std::nullopt;
}

const std::string& http_date_now() {
  thread_local sys_seconds formatted_at{};
  thread_local std::string text;
  const auto now = floor<seconds>(system_clock::now());
  if (now != formatted_at || text.empty()) {
    formatted_at = now;
    text = format_http_date(now);
  }
  return text;
}

}  // namespace rdv::http
