#pragma once
// Chapter 10's tests: what a lone hub's ids look like from outside.
#include "request_id.hpp"

#include <string_view>

namespace ch10 {

// Whether `text` is an id as a lone hub writes it: 32 lowercase hex digits, no hub's name.
inline bool is_lone_hub_id(std::string_view text) {
  const auto id = rdv::hub::request_id::parse(text);
  return id && id->hub().empty();
}

}  // namespace ch10
