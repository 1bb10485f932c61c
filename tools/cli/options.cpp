#include "tools/cli/options.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "tools/cli/cli.h"

namespace scree::cli {

namespace {
double parse_number(const std::string& name, const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v))
    throw UsageError(name + ": expects a number, got '" + text + "'");
  return v;
}
}  // namespace

Options::Options(const std::vector<std::string>& args, const std::set<std::string>& valued,
                 const std::set<std::string>& flags) {
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    if (options_done || a.size() < 2 || a[0] != '-') {
      positional_.push_back(a);
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    std::string value;
    bool inline_value = false;
    if (auto eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos)
      value = a.substr(eq + 1), a = a.substr(0, eq), inline_value = true;
    if (flags.count(a)) {
      if (inline_value) throw UsageError(a + ": takes no value");
      flags_.insert(a);
    } else if (valued.count(a)) {
      if (!inline_value) {
        if (i + 1 >= args.size()) throw UsageError(a + ": needs a value");
        value = args[++i];
      }
      values_[a] = value;
    } else {
      throw UsageError("unknown option '" + a + "'");
    }
  }
}

bool Options::has(const std::string& name) const { return flags_.count(name) || values_.count(name); }

std::string Options::text(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

std::string Options::required_text(const std::string& name) const {
  if (!values_.count(name)) throw UsageError(name + " is required");
  return values_.at(name);
}

double Options::number(const std::string& name, double fallback) const {
  return has(name) ? parse_number(name, text(name)) : fallback;
}

double Options::required_number(const std::string& name) const {
  return parse_number(name, required_text(name));
}

std::size_t Options::count(const std::string& name, std::size_t fallback) const {
  if (!has(name)) return fallback;
  double v = parse_number(name, text(name));
  if (v < 1 || v != std::floor(v) || v > 1e9)
    throw UsageError(name + ": expects a whole number ≥ 1, got '" + text(name) + "'");
  return std::size_t(v);
}

std::string Options::choice(const std::string& name, const std::vector<std::string>& allowed) const {
  const std::string value = text(name, allowed.front());
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return value;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  throw UsageError(name + ": must be one of " + list + ", not '" + value + "'");
}

const std::string& Options::single_positional(const std::string& what) const {
  if (positional_.size() != 1) throw UsageError("give exactly one " + what);
  return positional_[0];
}

std::vector<double> Options::numbers(const std::string& name, std::size_t count) const {
  static const char* const names[] = {"", "one number", "two numbers x,y", "three numbers a,b,c", "four numbers a,b,c,d"};
  const std::string t = required_text(name);
  const std::string expected = name + ": expects " + (count < 5 ? names[count] : std::to_string(count) + " numbers") +
                               " separated by commas, got '" + t + "'";
  std::vector<double> out;
  std::istringstream in(t);
  std::string part;
  while (std::getline(in, part, ',')) {
    if (out.size() == count) throw UsageError(expected);
    out.push_back(parse_number(name, part));
  }
  if (out.size() != count) throw UsageError(expected);
  return out;
}

std::array<double, 3> Options::triple(const std::string& name) const {
  const std::vector<double> v = numbers(name, 3);
  return {v[0], v[1], v[2]};
}

std::array<double, 2> Options::pair(const std::string& name) const {
  const std::vector<double> v = numbers(name, 2);
  return {v[0], v[1]};
}

}  // namespace scree::cli
