#pragma once
// Writing a file so that readers never see it half written: write to a temporary name in
// the target's directory, then rename (atomic on POSIX file systems).
#include <filesystem>

namespace scree::formats {

// Throws FileError when `target` could not be written: its directory does not exist, or it is
// a directory. For tools that write several files and check them all before writing any.
void check_writable(const std::filesystem::path& target);

class AtomicFile {
 public:
  // Throws FileError when the target's directory does not exist or the target is a directory.
  explicit AtomicFile(std::filesystem::path target);
  ~AtomicFile();  // removes the temporary file unless commit() succeeded
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::filesystem::path& target() const { return target_; }
  const std::filesystem::path& temp_path() const { return temp_; }

  // Renames the temporary file onto the target, replacing any old one.
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path temp_;
  bool committed_ = false;
};

}  // namespace scree::formats
