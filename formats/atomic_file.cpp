#include "formats/atomic_file.h"

#include <unistd.h>

#include <atomic>
#include <string>
#include <system_error>

#include "formats/error.h"

namespace scree::formats {

namespace {
std::atomic<unsigned> temp_counter{0};
}

void check_writable(const std::filesystem::path& target) {
  std::filesystem::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw FileError(target, "cannot write: directory " + dir.string() + " does not exist");
  if (std::filesystem::is_directory(target, ec)) throw FileError(target, "cannot write: it is a directory");
}

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
  check_writable(target_);
  const std::filesystem::path dir = target_.parent_path().empty() ? "." : target_.parent_path();
  // Hidden, unique per process and call, in the same directory so rename() stays atomic.
  temp_ = dir / ("." + target_.filename().string() + ".tmp." + std::to_string(::getpid()) + "." +
                 std::to_string(temp_counter++));
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    std::error_code ignored;
    std::filesystem::remove(temp_, ignored);
  }
}

void AtomicFile::commit() {
  std::error_code ec;
  std::filesystem::rename(temp_, target_, ec);
  if (ec) throw FileError(target_, "cannot write: " + ec.message());
  committed_ = true;
}

}  // namespace scree::formats
