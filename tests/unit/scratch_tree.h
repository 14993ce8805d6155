#pragma once
// A fresh folder under the system temporary folder for one test case, with files written into
// it by relative path, removed (with everything in it) when the test case ends. Each instance
// gets its own random name, so test cases and test processes running at once never share one.
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace kl::testing {

class ScratchTree {
 public:
  explicit ScratchTree(const std::string& prefix) {
    std::random_device device;
    root_ = std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(device()));
    std::filesystem::create_directories(root_);
  }
  ~ScratchTree() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  ScratchTree(const ScratchTree&) = delete;
  ScratchTree& operator=(const ScratchTree&) = delete;

  const std::filesystem::path& root() const { return root_; }
  // Writes `text` to root()/relative, creating its folders; returns the path.
  std::filesystem::path write(const std::filesystem::path& relative, const std::string& text) const {
    std::filesystem::path path = root_ / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

 private:
  std::filesystem::path root_;
};

}  // namespace kl::testing
