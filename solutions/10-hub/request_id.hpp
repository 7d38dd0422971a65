#pragma once
/// \file
/// Chapter 10: request ids — 128 bits from the operating system's random
/// source, written as 32 lowercase hex digits, after the name of the hub
/// that made them when hubs are joined (chapter 11). An id names a held
/// client in the registry, and a worker needs it to answer: it must not be
/// guessable.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

/// Chapter 10: the rendezvous hub and its demo worker.
namespace rdv::hub {

/// How many hex digits an id's random part has: two per byte of its 128 bits.
inline constexpr std::size_t id_length = 32;

/// The longest name a hub may have (is_hub_name()).
inline constexpr std::size_t hub_name_length = 16;

/// Whether `name` may name a hub: 1 to 16 of a-z, 0-9 and '-'.
bool is_hub_name(std::string_view name);

/// A request id: `HUB.DIGITS` for a hub with a name (chapter 11's hubs,
/// which must tell each other's ids apart, as an Erlang pid names its
/// node), or `DIGITS` alone for a lone hub; DIGITS are 32 lowercase hex
/// digits.
class request_id {
public:
  /// The id `text` writes; nothing if it is not one.
  static std::optional<request_id> parse(std::string_view text);

  /// The id as URLs and X-Hub-Request-Id write it, and the registry knows it.
  std::string_view text() const { return {text_.data(), size_}; }
  /// The name of the hub that made it; "" for a lone hub's id.
  std::string_view hub() const { return text().substr(0, hub_size_); }

  /// Whether two ids are the same.
  friend bool operator==(const request_id& a, const request_id& b) { return a.text() == b.text(); }

private:
  friend class id_source;
  // `hub.digits`, or `digits` alone for a lone hub (hub empty).
  request_id(std::string_view hub, std::string_view digits);

  // In place: an id is copied into the hold, the delivery and the registry,
  // and 32 characters are past what a std::string keeps without the heap.
  std::array<char, hub_name_length + 1 + id_length> text_{};
  std::uint8_t size_ = 0;
  std::uint8_t hub_size_ = 0;  // the hub's name is text_'s first hub_size_ characters
};

/// Makes request ids. Random bytes come from getrandom(2), a batch at a time
/// (one system call per 256 ids, not one per request); each id uses 16 bytes
/// no other id uses. One per scheduler: it is not thread-safe.
class id_source {
public:
  /// A source of the ids of the hub named `hub` ("": a lone hub).
  explicit id_source(std::string hub = {});

  /// The next id.
  request_id next();
  /// The name of the hub whose ids these are; "" for a lone hub.
  std::string_view hub() const { return hub_; }

private:
  std::array<char, id_length> random_digits();  // 32 lowercase hex digits

  std::string hub_;
  std::array<std::uint8_t, 4096> random_{};
  std::size_t used_ = random_.size();  // everything used: fill on first use
};

}  // namespace rdv::hub
