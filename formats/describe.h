#pragma once
// Recognises any scree file by its extension and header, reads it with the full checks, and
// describes its contents in a few lines of text (scree-info prints them).
#include <filesystem>
#include <string>

namespace scree::formats {

// Throws FileError when the file is not a valid scree file of a known kind.
std::string describe_file(const std::filesystem::path& file);

}  // namespace scree::formats
