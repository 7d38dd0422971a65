#include "counted_calls.hpp"

#include <sys/epoll.h>
#include <sys/timerfd.h>

#include <array>
#include <atomic>

namespace {

std::array<std::atomic<std::size_t>, 1 << 16> calls{};  // by descriptor; the tests use few
std::atomic<std::size_t> timer_settings{0};

}  // namespace

// The names the linker gives the wrappers and the wrapped functions
// (CMakeLists.txt: --wrap=epoll_ctl and --wrap=timerfd_settime).
int real_epoll_ctl(int set, int op, int fd, ::epoll_event* event) __asm__("__real_epoll_ctl");
int counted_epoll_ctl(int set, int op, int fd, ::epoll_event* event) __asm__("__wrap_epoll_ctl");

int real_timerfd_settime(int fd, int flags, const ::itimerspec* next,
                         ::itimerspec* previous) __asm__("__real_timerfd_settime");
int counted_timerfd_settime(int fd, int flags, const ::itimerspec* next,
                            ::itimerspec* previous) __asm__("__wrap_timerfd_settime");

int counted_timerfd_settime(int fd, int flags, const ::itimerspec* next, ::itimerspec* previous) {
  ++timer_settings;
  return real_timerfd_settime(fd, flags, next, previous);
}

int counted_epoll_ctl(int set, int op, int fd, ::epoll_event* event) {
  if (fd >= 0 && static_cast<std::size_t>(fd) < calls.size()) ++calls[static_cast<std::size_t>(fd)];
  return real_epoll_ctl(set, op, fd, event);
}

namespace ch10 {

std::size_t epoll_ctl_calls(int fd) {
  return fd >= 0 && static_cast<std::size_t>(fd) < calls.size()
             ? calls[static_cast<std::size_t>(fd)].load()
             : 0;
}

std::size_t timerfd_settime_calls() { return timer_settings; }

}  // namespace ch10
