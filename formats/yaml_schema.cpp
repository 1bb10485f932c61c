#include "formats/yaml_schema.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "formats/error.h"

namespace scree::formats::yaml {

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

namespace {

// Levenshtein distance, for the "did you mean" hint on unknown keys.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string describe(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Null: return "nothing";
    default: return "'" + n.Scalar() + "'";
  }
}

}  // namespace

std::string any_real(double) { return {}; }
std::string positive(double v) { return v > 0 ? "" : "must be > 0, got " + number_text(v); }
std::string non_negative(double v) { return v >= 0 ? "" : "must be >= 0, got " + number_text(v); }
std::string unit_interval(double v) {
  return (v >= 0 && v <= 1) ? "" : "must lie in [0, 1], got " + number_text(v);
}

void fail(const std::filesystem::path& file, const YAML::Node& at, const std::string& key,
          const std::string& reason) {
  int line = at.IsDefined() ? at.Mark().line + 1 : 0;
  throw FileError(file, key.empty() ? reason : key + ": " + reason, line);
}

YAML::Node load_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw FileError(file, "cannot open: no such file or not readable");
  try {
    return YAML::Load(in);
  } catch (const YAML::ParserException& e) {
    throw FileError(file, "YAML syntax error: " + e.msg, e.mark.line + 1);
  }
}

Map::Map(const std::filesystem::path& file, const YAML::Node& node, std::string prefix)
    : file_(file), node_(node), prefix_(std::move(prefix)) {
  if (!node_.IsMap())
    yaml::fail(file_, node_, prefix_, "expected a mapping of keys, got " + describe(node_));
  std::set<std::string> seen;
  for (const auto& kv : node_) {
    std::string key = kv.first.as<std::string>();
    if (!seen.insert(key).second) fail_at(kv.first, key, "duplicate key");
  }
}

std::string Map::key_path(const std::string& key) const {
  return prefix_.empty() ? key : prefix_ + "." + key;
}

void Map::fail(const std::string& key, const std::string& reason) const {
  // Point at the key itself (its value may start on a later line), or at this mapping.
  for (const auto& kv : node_)
    if (kv.first.Scalar() == key) yaml::fail(file_, kv.first, key_path(key), reason);
  yaml::fail(file_, node_, key_path(key), reason);
}

void Map::fail_at(const YAML::Node& at, const std::string& key, const std::string& reason) const {
  yaml::fail(file_, at, key_path(key), reason);
}

bool Map::has(const std::string& key) const {
  used_.insert(key);
  return node_[key].IsDefined();
}

YAML::Node Map::value(const std::string& key) {
  used_.insert(key);
  YAML::Node n = node_[key];
  if (!n.IsDefined()) yaml::fail(file_, node_, key_path(key), "required key is missing");
  if (n.IsNull()) fail(key, "has no value");
  return n;
}

YAML::Node Map::node(const std::string& key) { return value(key); }

double Map::to_real(const YAML::Node& n, const std::string& key, const RealCheck& check) const {
  double v = 0;
  if (!n.IsScalar() || !YAML::convert<double>::decode(n, v))
    fail_at(n, key, "expected a number, got " + describe(n));
  if (!std::isfinite(v)) fail_at(n, key, "must be finite, got " + n.Scalar());
  if (std::string why = check(v); !why.empty()) fail_at(n, key, why);
  return v;
}

double Map::real(const std::string& key, const RealCheck& check) {
  return to_real(value(key), key, check);
}

double Map::real_or(const std::string& key, double fallback, const RealCheck& check) {
  return has(key) ? real(key, check) : fallback;
}

std::optional<double> Map::optional_real(const std::string& key, const RealCheck& check) {
  if (!has(key)) return std::nullopt;
  return real(key, check);
}

long long Map::integer(const std::string& key, long long min, long long max) {
  YAML::Node n = value(key);
  long long v = 0;
  if (!n.IsScalar() || !YAML::convert<long long>::decode(n, v))
    fail(key, "expected an integer, got " + describe(n));
  if (v < min || v > max)
    fail(key, "must lie in [" + std::to_string(min) + ", " + std::to_string(max) +
                        "], got " + std::to_string(v));
  return v;
}

long long Map::integer_or(const std::string& key, long long fallback, long long min,
                          long long max) {
  return has(key) ? integer(key, min, max) : fallback;
}

std::string Map::text(const std::string& key) {
  YAML::Node n = value(key);
  if (!n.IsScalar()) fail(key, "expected a text value, got " + describe(n));
  if (n.Scalar().empty()) fail(key, "must not be empty");
  return n.Scalar();
}

std::string Map::text_or(const std::string& key, const std::string& fallback) {
  return has(key) ? text(key) : fallback;
}

std::string Map::choice(const std::string& key, const std::vector<std::string>& allowed) {
  std::string v = text(key);
  if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    fail(key, "must be one of " + list + ", got '" + v + "'");
  }
  return v;
}

bool Map::boolean_or(const std::string& key, bool fallback) {
  if (!has(key)) return fallback;
  return choice(key, {"true", "false"}) == "true";
}

std::array<double, 3> Map::vec3(const std::string& key) {
  YAML::Node n = value(key);
  if (!n.IsSequence() || n.size() != 3)
    fail(key, "expected a list of 3 numbers [x, y, z], got " + describe(n));
  std::array<double, 3> v{};
  for (size_t i = 0; i < 3; ++i) v[i] = to_real(n[i], key, any_real);
  return v;
}

std::array<double, 3> Map::vec3_or(const std::string& key, const std::array<double, 3>& fallback) {
  return has(key) ? vec3(key) : fallback;
}

Map Map::map(const std::string& key) { return Map(file_, value(key), key_path(key)); }

std::vector<Map> Map::list(const std::string& key) {
  YAML::Node n = value(key);
  if (!n.IsSequence()) fail(key, "expected a list, got " + describe(n));
  std::vector<Map> items;
  for (size_t i = 0; i < n.size(); ++i)
    items.emplace_back(file_, n[i], key_path(key) + "[" + std::to_string(i) + "]");
  return items;
}

void Map::finish() const {
  for (const auto& kv : node_) {
    std::string key = kv.first.as<std::string>();
    if (used_.count(key)) continue;
    std::string hint;
    size_t best = 3;  // suggest only close matches
    for (const auto& k : used_) {
      size_t d = edit_distance(key, k);
      if (d < best) best = d, hint = " (did you mean '" + k + "'?)";
    }
    fail_at(kv.first, key, "unknown key" + hint);
  }
}

}  // namespace scree::formats::yaml
