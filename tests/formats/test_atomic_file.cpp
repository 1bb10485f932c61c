#include "formats/atomic_file.h"

#include <gtest/gtest.h>

#include "common/temp_dir.h"
#include "formats/error.h"

namespace scree::formats {
namespace {

using scree::testing::TempDir;

TEST(AtomicFile, CommitRenamesOntoTarget) {
  TempDir dir;
  {
    AtomicFile out(dir / "a.txt");
    scree::testing::write_text(out.temp_path(), "new");
    EXPECT_EQ(out.temp_path().parent_path(), dir.path());
    EXPECT_FALSE(std::filesystem::exists(dir / "a.txt"));  // invisible until commit
    out.commit();
  }
  EXPECT_EQ(scree::testing::read_text(dir / "a.txt"), "new");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"a.txt"});
}

TEST(AtomicFile, FailureBeforeCommitLeavesOldFileAndNoTemporary) {
  TempDir dir;
  scree::testing::write_text(dir / "a.txt", "old");
  try {
    AtomicFile out(dir / "a.txt");
    scree::testing::write_text(out.temp_path(), "half");
    throw std::runtime_error("writer failed midway");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(scree::testing::read_text(dir / "a.txt"), "old");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"a.txt"});
}

TEST(AtomicFile, MissingDirectoryIsAnError) {
  TempDir dir;
  scree::testing::expect_error([&] { AtomicFile out(dir / "nowhere" / "a.txt"); },
                               {"a.txt", "does not exist"});
}

TEST(AtomicFile, TargetThatIsADirectoryIsAnError) {
  TempDir dir;
  std::filesystem::create_directory(dir / "sub");
  scree::testing::expect_error([&] { AtomicFile out(dir / "sub"); }, {"is a directory"});
}

}  // namespace
}  // namespace scree::formats
