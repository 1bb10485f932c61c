#pragma once
// A fresh directory per test, removed afterwards; plus small file helpers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace scree::testing {

class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("scree-") + (info ? info->test_suite_name() : "t") + "-" +
                       (info ? info->name() : "x");
    for (auto& c : name)
      if (c == '/') c = '_';
    // A second directory in the same test gets its own name (the first is not wiped).
    static int made = 0;
    name += "-" + std::to_string(++made);
    path_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  const std::filesystem::path& path() const { return path_; }
  // Names of everything in the directory (to prove no temporary or partial file is left).
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(path_))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::filesystem::path path_;
};

inline void write_text(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Keeps the first `bytes` bytes of a file, as a crash or a full disk would.
inline void truncate_file(const std::filesystem::path& file, std::uintmax_t bytes) {
  std::filesystem::resize_file(file, bytes);
}

// Runs `f`, expects a FileError-like exception whose what() contains every fragment.
template <class F>
void expect_error(F&& f, const std::vector<std::string>& fragments) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning '" << fragments.front() << "'";
  } catch (const std::exception& e) {
    for (const auto& frag : fragments)
      EXPECT_NE(std::string(e.what()).find(frag), std::string::npos)
          << "message: " << e.what() << "\nlacks: " << frag;
  }
}

}  // namespace scree::testing
