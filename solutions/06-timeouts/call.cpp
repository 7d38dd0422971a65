#include "call.hpp"

#include <atomic>

namespace rdv::proc {

ref make_ref() {
  static std::atomic<std::uint64_t> last{0};
  return ref(last.fetch_add(1, std::memory_order_relaxed) + 1);
}

}  // namespace rdv::proc
