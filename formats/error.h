#pragma once
// The one exception type for a file that cannot be read or written.
#include <filesystem>
#include <stdexcept>
#include <string>

namespace scree::formats {

// what() reads "<file>: <reason>" or, when the line is known, "<file>:<line>: <reason>",
// ready for a tool to print as "scree-<tool>: error: <what()>".
class FileError : public std::runtime_error {
 public:
  FileError(const std::filesystem::path& file, const std::string& reason, int line = 0);

  const std::filesystem::path& file() const { return file_; }
  const std::string& reason() const { return reason_; }
  int line() const { return line_; }  // 1-based; 0 when not known

 private:
  std::filesystem::path file_;
  std::string reason_;
  int line_;
};

}  // namespace scree::formats
