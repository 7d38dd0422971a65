#pragma once
// Chapter 10's tests: epoll_ctl(2) and timerfd_settime(2) as the tests'
// program links them, through wrappers (the linker's --wrap) that count the
// calls, so that a test can tell how many system calls a watch made, and
// whether a wait set a timer (Asio sets its timerfd whenever a timer becomes
// the earliest one due).

#include <cstddef>

namespace ch10 {

// How many times epoll_ctl() has been called for descriptor `fd` (as its
// third argument, in any set, for any operation) in this process so far.
std::size_t epoll_ctl_calls(int fd);

// How many times timerfd_settime() has been called in this process so far.
std::size_t timerfd_settime_calls();

}  // namespace ch10
