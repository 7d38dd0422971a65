#pragma once
// Chapter 8's tests: sendfile_some() as the tests' program links it, through
// a wrapper (the linker's --wrap) that can make its next call go as Linux
// never makes it go on cue: interrupted by a signal, or, as on FreeBSD and
// macOS, sending some bytes and reporting a full buffer in the same call.

#include <cstddef>

namespace ch08 {

enum class sendfile_fault {
  none,
  interrupted,            // EINTR, nothing sent
  sent_then_interrupted,  // what fitted is sent, and EINTR reported with it (as on BSD)
  sent_then_full,         // what fitted is sent, and EAGAIN reported with it
  reset,                  // nothing sent, and ECONNRESET: the client has gone
};

// The next call of rdv::files::sendfile_some() in this process goes as
// `fault` says; the calls after it, as the system's.
void fail_next_sendfile(sendfile_fault fault);

// How many bytes the last call of rdv::files::sendfile_some() asked to send.
std::size_t last_count_asked();

}  // namespace ch08
