#include "formats/error.h"

namespace scree::formats {

namespace {
std::string compose(const std::filesystem::path& file, const std::string& reason, int line) {
  std::string text = file.string();
  if (line > 0) text.append(":").append(std::to_string(line));
  return text.append(": ").append(reason);
}
}  // namespace

FileError::FileError(const std::filesystem::path& file, const std::string& reason, int line)
    : std::runtime_error(compose(file, reason, line)), file_(file), reason_(reason), line_(line) {}

}  // namespace scree::formats
