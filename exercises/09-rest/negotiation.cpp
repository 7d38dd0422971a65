#include "negotiation.hpp"
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::rest {

//! [quality_of]
quality quality_of(const accept_list& accept, media_type offered) {
  // TODO(ch09.2): weigh one offered type by the most specific matching range
  // Hint: Which ranges match application/json? Think of */*, application/*,
  //   application/json, and text/html. (more: ./course hint 09 2)
  (void)accept; (void)offered;
  throw rdv::todo("ch09.2", "weigh one offered type by the most specific matching range");
}
//! [quality_of]

//! [negotiate]
std::optional<std::size_t> negotiate(const std::optional<accept_list>& accept,
                                     std::span<const std::string_view> offered) {
  // TODO(ch09.3): pick the representation the client weighs highest
  // Hint: Without an Accept field, what does the client accept? (more:
  //   ./course hint 09 3)
  (void)accept; (void)offered;
  throw rdv::todo("ch09.3", "pick the representation the client weighs highest");
}
//! [negotiate]

}  // namespace rdv::rest
