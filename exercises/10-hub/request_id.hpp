#pragma once
/// \file
/// Chapter 10: request ids — 128 bits from the operating system's random
/// source, written as 32 lowercase hex digits. An id names a held client in
/// the registry, and a worker needs it to answer: it must not be guessable.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

/// Chapter 10: the rendezvous hub and its demo worker.
namespace rdv::hub {

/// How many hex digits an id has: two per byte of its 128 bits.
inline constexpr std::size_t id_length = 32;

/// Makes request ids. Random bytes come from getrandom(2), a batch at a time
/// (one system call per 256 ids, not one per request); each id uses 16 bytes
/// no other id uses. One per scheduler: it is not thread-safe.
class id_source {
public:
  /// The next id: 32 lowercase hex digits.
  std::string next();

private:
  std::array<std::uint8_t, 4096> random_{};
  std::size_t used_ = random_.size();  // everything used: fill on first use
};

/// Whether `text` is an id as the hub writes them: exactly 32 lowercase hex digits.
bool is_request_id(std::string_view text);

}  // namespace rdv::hub
