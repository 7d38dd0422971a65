#include "request_id.hpp"

#include <sys/random.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>

namespace rdv::hub {

namespace {

// Fills `bytes` from the kernel's random source. getrandom(2) blocks only
// until the pool is first seeded at boot, and may return less than asked
// (or be interrupted by a signal): ask again for the rest.
void fill_random(std::uint8_t* bytes, std::size_t size) {
  while (size > 0) {
    const ssize_t got = ::getrandom(bytes, size, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "getrandom");
    }
    bytes += got;
    size -= static_cast<std::size_t>(got);
  }
}

}  // namespace

id_source::id_source(std::string hub) : hub_(std::move(hub)) {
  if (!hub_.empty() && !is_hub_name(hub_)) {
    throw std::invalid_argument("not a hub's name (1-16 of a-z, 0-9 and '-'): " + hub_);
  }
}

request_id id_source::next() {
  const std::array<char, id_length> digits = random_digits();
  return request_id(hub_, std::string_view(digits.data(), digits.size()));
}

//! [next]
std::array<char, id_length> id_source::random_digits() {
  // EXERCISE ch10.1: make a request id from 16 random bytes
  // HINT: random_ holds random bytes from getrandom(2), used_ says how many
  //       are spent. What must happen when fewer than 16 are left?
  // HINT: Each byte becomes two hex digits, high half first. Which 16
  //       characters, in which order, make lowercase hex?
  // STUB: (void)&fill_random;
  constexpr std::size_t bytes = id_length / 2;
  if (random_.size() - used_ < bytes) {
    fill_random(random_.data(), random_.size());
    used_ = 0;
  }
  static constexpr char digits[] = "0123456789abcdef";
  std::array<char, id_length> id;
  for (std::size_t i = 0; i < bytes; ++i) {
    const std::uint8_t b = random_[used_ + i];
    id[2 * i] = digits[b >> 4];
    id[2 * i + 1] = digits[b & 0xf];
  }
  used_ += bytes;
  return id;
  // END EXERCISE
}
//! [next]

request_id::request_id(std::string_view hub, std::string_view digits)
    : size_(
          static_cast<std::uint8_t>(hub.empty() ? digits.size() : hub.size() + 1 + digits.size())),
      hub_size_(static_cast<std::uint8_t>(hub.size())) {
  char* out = std::copy(hub.begin(), hub.end(), text_.begin());
  if (!hub.empty()) *out++ = '.';
  std::copy(digits.begin(), digits.end(), out);
}

bool is_hub_name(std::string_view name) {
  return !name.empty() && name.size() <= hub_name_length &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
         });
}

std::optional<request_id> request_id::parse(std::string_view text) {
  const std::size_t dot = text.find('.');
  const std::size_t hub_size = dot == std::string_view::npos ? 0 : dot;
  const std::string_view digits = dot == std::string_view::npos ? text : text.substr(dot + 1);
  const bool hex =
      digits.size() == id_length && std::all_of(digits.begin(), digits.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
      });
  if (!hex || (dot != std::string_view::npos && !is_hub_name(text.substr(0, dot)))) {
    return std::nullopt;
  }
  return request_id(text.substr(0, hub_size), digits);
}

}  // namespace rdv::hub
