#include "rdv/test/program.hpp"

#include "rdv/test/unsolved.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace rdv::test {

namespace {

// Starts `path args...` with stdin, stdout and stderr connected to the given
// descriptors (-1: inherit); returns the pid.
pid_t start(const std::string& path, const std::vector<std::string>& args, int in, int out,
            int err) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (in >= 0) posix_spawn_file_actions_adddup2(&actions, in, 0);
  if (out >= 0) posix_spawn_file_actions_adddup2(&actions, out, 1);
  if (err >= 0) posix_spawn_file_actions_adddup2(&actions, err, 2);
  // Nothing else of the test's: a listening socket of a server the test runs
  // would otherwise stay open in the program after the test closed it.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, path.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("could not start " + path + ": " + std::strerror(error));
  return pid;
}

int status_of(int raw) {
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : WIFSIGNALED(raw) ? 128 + WTERMSIG(raw) : -1;
}

// Waits for `pid` up to `timeout`; returns its status, or -1 if still running.
int wait_for(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int raw = 0;
    const pid_t done = ::waitpid(pid, &raw, WNOHANG);
    if (done == pid) return status_of(raw);
    if (done < 0 && errno != EINTR) return -1;
    if (std::chrono::steady_clock::now() >= deadline) return -1;
    ::poll(nullptr, 0, 5);  // a child has no descriptor to wait on; poll its status
  }
}

}  // namespace

program::program(std::string path, std::vector<std::string> args, std::size_t listeners,
                 std::chrono::milliseconds timeout)
    : path_(std::move(path)), args_(std::move(args)) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  pid_ = start(path_, args_, -1, pipe_fds[1], pipe_fds[1]);
  ::close(pipe_fds[1]);
  reader_ = std::thread([this, fd = pipe_fds[0]] { read_output(fd); });
  std::unique_lock lock(mutex_);
  // Until it listens, or its output ends (it exited: no use waiting on), or
  // it reached an exercise stub.
  changed_.wait_for(lock, timeout,
                    [&] { return ports_.size() >= listeners || output_ended_ || todo_reached(); });
  if (ports_.size() < listeners) {
    if (const auto unsolved = unsolved_message()) {
      lock.unlock();
      stop();
      if (reader_.joinable()) reader_.join();
      throw unsolved_exercise("`" + command_line() + "`: " + *unsolved);
    }
    lock.unlock();
    const int status = stop();
    if (reader_.joinable()) reader_.join();  // a joinable thread must not be destroyed
    throw std::runtime_error("`" + command_line() + "` did not print " + std::to_string(listeners) +
                             " 'listening ROLE URL' line(s) within " +
                             std::to_string(timeout.count()) + " ms (exit status " +
                             std::to_string(status) + "); it printed:\n" + output());
  }
}

program::~program() {
  stop();
  if (reader_.joinable()) reader_.join();
}

void program::read_output(int fd) {
  // http:// for the course's HTTP servers; other schemes (tcp://) for the rest.
  static const std::regex listening(R"(listening (\S+) [a-z]+://\S*:(\d+))");
  char chunk[4096];
  for (;;) {
    const auto n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const std::lock_guard lock(mutex_);
    const auto from = output_.size();
    output_.append(chunk, static_cast<std::size_t>(n));
    // rdv::todo's announcement (rdv/todo.cpp), once the line is whole.
    constexpr std::string_view announced = "rdv: reached ";
    for (auto at = output_.find(announced, from > 200 ? from - 200 : 0); at != std::string::npos;
         at = output_.find(announced, at + 1)) {
      if (const auto end = output_.find('\n', at); end != std::string::npos) {
        note_todo(output_.substr(at + announced.size(), end - at - announced.size()));
      }
    }
    for (auto it = std::sregex_iterator(output_.begin(), output_.end(), listening);
         it != std::sregex_iterator(); ++it) {
      ports_[(*it)[1].str()] = static_cast<std::uint16_t>(std::stoi((*it)[2].str()));
    }
    changed_.notify_all();
  }
  ::close(fd);
  const std::lock_guard lock(mutex_);
  output_ended_ = true;
  changed_.notify_all();
}

bool program::wait_for_output(std::string_view text, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  const bool printed = changed_.wait_for(lock, timeout, [&] {
    return output_.find(text) != std::string::npos || output_ended_ || todo_reached();
  }) && output_.find(text) != std::string::npos;
  if (!printed) {
    lock.unlock();
    throw_if_todo();
  }
  return printed;
}

std::uint16_t program::port(std::string_view role) const {
  const std::lock_guard lock(mutex_);
  const auto it = ports_.find(role);
  if (it == ports_.end()) {
    throw std::runtime_error("`" + command_line() + "` announced no listener '" +
                             std::string(role) + "'; it printed:\n" + output_);
  }
  return it->second;
}

int program::stop(std::chrono::milliseconds timeout) {
  if (pid_ > 0 && exit_status_ < 0) {
    ::kill(pid_, SIGTERM);
    exit_status_ = wait_for(pid_, timeout);
    if (exit_status_ < 0) {
      ::kill(pid_, SIGKILL);
      exit_status_ = wait_for(pid_, std::chrono::seconds(10));
    }
  }
  return exit_status_;
}

void program::signal(int signal) {
  if (pid_ > 0 && exit_status_ < 0) ::kill(pid_, signal);
}

int program::wait_exit(std::chrono::milliseconds timeout) {
  if (pid_ > 0 && exit_status_ < 0) exit_status_ = wait_for(pid_, timeout);
  return exit_status_;
}

bool program::running() {
  if (pid_ <= 0 || exit_status_ >= 0) return false;
  const int status = wait_for(pid_, std::chrono::milliseconds(0));
  if (status >= 0) exit_status_ = status;
  return exit_status_ < 0;
}

std::string program::output() const {
  const std::lock_guard lock(mutex_);
  return output_;
}

std::string program::command_line() const {
  std::string line = path_;
  for (const auto& a : args_) line += " " + a;
  return line;
}

std::chrono::milliseconds cpu_time(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line))
    throw std::runtime_error("no /proc/PID/stat for " + std::to_string(pid));
  // The second field, (comm), may hold spaces: count fields after its ')'.
  std::istringstream fields(line.substr(line.rfind(')') + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {  // field 3 is the state
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  const auto ticks = static_cast<unsigned long long>(::sysconf(_SC_CLK_TCK));
  return std::chrono::milliseconds((utime + stime) * 1000 / ticks);
}

completed run_to_end(const std::string& path, const std::vector<std::string>& args,
                     std::string_view input, std::chrono::milliseconds timeout) {
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(err, O_CLOEXEC)) {
    throw std::runtime_error("pipe failed");
  }
  const pid_t pid = start(path, args, in[0], out[1], err[1]);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  completed result;
  // Feed stdin and drain both outputs together, so no pipe fills up and blocks.
  std::size_t written = 0;
  if (input.empty()) ::close(in[1]);
  pollfd fds[3] = {
      {out[0], POLLIN, 0}, {err[0], POLLIN, 0}, {input.empty() ? -1 : in[1], POLLOUT, 0}};
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while ((fds[0].fd >= 0 || fds[1].fd >= 0) && std::chrono::steady_clock::now() < deadline) {
    if (::poll(fds, 3, 100) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP))) {
        char chunk[4096];
        const auto n = ::read(fds[i].fd, chunk, sizeof chunk);
        if (n > 0) (i == 0 ? result.out : result.err).append(chunk, static_cast<std::size_t>(n));
        if (n == 0) {
          ::close(fds[i].fd);
          fds[i].fd = -1;
        }
      }
    }
    if (fds[2].fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR))) {
      const auto n = ::write(in[1], input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if (n < 0 || written == input.size()) {
        ::close(in[1]);
        fds[2].fd = -1;
      }
    }
  }
  for (const auto& f : fds) {
    if (f.fd >= 0) ::close(f.fd);
  }
  // Its output ends before it does: wait what is left of the timeout for
  // it to be gone.
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  result.status = wait_for(pid, std::max(left, std::chrono::milliseconds(0)));
  if (result.status < 0) {
    ::kill(pid, SIGKILL);
    result.status = wait_for(pid, std::chrono::seconds(10));
    result.err += "\n(killed after " + std::to_string(timeout.count()) + " ms)";
  }
  return result;
}

std::size_t occurrences(std::string_view output, std::string_view text) {
  std::size_t found = 0;
  for (auto at = output.find(text); at != std::string_view::npos; at = output.find(text, at + 1)) {
    ++found;
  }
  return found;
}

}  // namespace rdv::test
