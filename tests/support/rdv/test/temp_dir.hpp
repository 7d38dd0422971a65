#pragma once
/// \file
/// A directory of a test's own: made fresh, removed with all it holds.

#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rdv::test {

/// A fresh directory under the system's temporary directory, named
/// `prefix`-XXXXXX, removed with all it holds when the test is done.
class temp_dir {
public:
  explicit temp_dir(std::string_view prefix = "rdv-test") {
    std::string name =
        (std::filesystem::temp_directory_path() / (std::string(prefix) + "-XXXXXX")).string();
    if (::mkdtemp(name.data()) == nullptr) throw std::runtime_error("mkdtemp failed: " + name);
    path_ = name;
  }
  ~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  /// Where it is.
  const std::string& path() const { return path_; }

  /// Writes `content` to the file `relative` in it, making the directories
  /// on the way; returns the file's path.
  std::string write(const std::string& relative, std::string_view content) const {
    const std::filesystem::path file = std::filesystem::path(path_) / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary)
        .write(content.data(), static_cast<std::streamsize>(content.size()));
    return file.string();
  }

private:
  std::string path_;
};

}  // namespace rdv::test
