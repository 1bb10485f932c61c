#pragma once
// Command-line options of the form "--name value", "--name=value" or "-o value", plus flags
// and positional arguments. Every mistake is a UsageError naming the option.
#include <array>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace scree::cli {

class Options {
 public:
  // `valued`: options that take a value ("--radius", "-o"); `flags`: options that do not.
  Options(const std::vector<std::string>& args, const std::set<std::string>& valued,
          const std::set<std::string>& flags);

  const std::vector<std::string>& positional() const { return positional_; }
  bool has(const std::string& name) const;
  std::string text(const std::string& name, const std::string& fallback = "") const;
  std::string required_text(const std::string& name) const;
  double number(const std::string& name, double fallback) const;
  double required_number(const std::string& name) const;
  std::size_t count(const std::string& name, std::size_t fallback) const;  // integer ≥ 1
  std::array<double, 3> triple(const std::string& name) const;            // "a,b,c"
  std::array<double, 2> pair(const std::string& name) const;              // "x,y"
  std::vector<double> numbers(const std::string& name, std::size_t count) const;  // comma-separated
  // One of `allowed` (the first is the default when the option is absent).
  std::string choice(const std::string& name, const std::vector<std::string>& allowed) const;
  // The one positional argument, named `what` in the error when there are none or several.
  const std::string& single_positional(const std::string& what) const;

 private:
  std::vector<std::string> positional_;
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
};

}  // namespace scree::cli
