#pragma once
// Typed, checked reading of YAML mappings: every error names the file, the line and the full
// key ("scheme.impulse.increments"), unknown and duplicate keys are errors, and unknown keys
// get a "did you mean" hint. Internal to scree_formats (includes yaml-cpp).
#include <yaml-cpp/yaml.h>

#include <array>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace scree::formats::yaml {

// A check returns an empty string when the value is fine, else what is wrong with it.
using RealCheck = std::function<std::string(double)>;
std::string number_text(double v);  // as a person writes it: 0.00025, not 0.000250
std::string any_real(double);
std::string positive(double v);
std::string non_negative(double v);
std::string unit_interval(double v);

[[noreturn]] void fail(const std::filesystem::path& file, const YAML::Node& at,
                       const std::string& key, const std::string& reason);

// Parses a whole file into a node; throws FileError on I/O and syntax errors.
YAML::Node load_file(const std::filesystem::path& file);

class Map {
 public:
  Map(const std::filesystem::path& file, const YAML::Node& node, std::string prefix);

  bool has(const std::string& key) const;
  int line() const { return node_.Mark().line + 1; }
  std::string key_path(const std::string& key) const;

  double real(const std::string& key, const RealCheck& check = any_real);
  double real_or(const std::string& key, double fallback, const RealCheck& check = any_real);
  std::optional<double> optional_real(const std::string& key, const RealCheck& check = any_real);
  long long integer(const std::string& key, long long min, long long max);
  long long integer_or(const std::string& key, long long fallback, long long min, long long max);
  std::string text(const std::string& key);
  std::string text_or(const std::string& key, const std::string& fallback);
  std::string choice(const std::string& key, const std::vector<std::string>& allowed);
  bool boolean_or(const std::string& key, bool fallback);  // true or false
  std::array<double, 3> vec3(const std::string& key);
  std::array<double, 3> vec3_or(const std::string& key, const std::array<double, 3>& fallback);
  Map map(const std::string& key);
  // The items of a sequence of mappings; each prefixed "key[i]".
  std::vector<Map> list(const std::string& key);
  // The raw node (marked as used), for shapes this class does not cover.
  YAML::Node node(const std::string& key);

  // Fails on the first key that no call above asked for.
  void finish() const;

  [[noreturn]] void fail(const std::string& key, const std::string& reason) const;
  [[noreturn]] void fail_at(const YAML::Node& at, const std::string& key,
                            const std::string& reason) const;
  const std::filesystem::path& file() const { return file_; }

 private:
  YAML::Node value(const std::string& key);  // present and not null, marked as used
  double to_real(const YAML::Node& n, const std::string& key, const RealCheck& check) const;

  std::filesystem::path file_;
  YAML::Node node_;
  std::string prefix_;
  mutable std::set<std::string> used_;  // every key the schema asked about
};

}  // namespace scree::formats::yaml
