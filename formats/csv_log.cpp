#include "formats/csv_log.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <stdexcept>

#include "formats/error.h"

namespace scree::formats {

namespace {

bool valid_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::string check_columns(const std::vector<CsvColumn>& columns) {
  if (columns.empty()) return "a log needs at least one column";
  const auto& units = si_units();
  for (size_t i = 0; i < columns.size(); ++i) {
    const auto& c = columns[i];
    if (!valid_name(c.name))
      return "column name '" + c.name + "' must be lower case letters, digits and '_'";
    if (std::find(units.begin(), units.end(), c.unit) == units.end())
      return "column '" + c.name + "' has unit '" + c.unit + "', which is not an SI unit";
    for (size_t j = 0; j < i; ++j)
      if (columns[j].name == c.name) return "column '" + c.name + "' appears twice";
  }
  return {};
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  size_t start = 0;
  while (true) {
    size_t comma = line.find(',', start);
    cells.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) return cells;
    start = comma + 1;
  }
}

std::vector<CsvColumn> parse_header(const std::filesystem::path& file, const std::string& line) {
  std::vector<CsvColumn> columns;
  for (const auto& cell : split(line)) {
    size_t open = cell.find('[');
    if (open == std::string::npos || cell.size() < open + 2 || cell.back() != ']')
      throw FileError(file, "header cell '" + cell + "' is not of the form name[unit]", 1);
    columns.push_back({cell.substr(0, open), cell.substr(open + 1, cell.size() - open - 2)});
  }
  if (auto problem = check_columns(columns); !problem.empty()) throw FileError(file, problem, 1);
  return columns;
}

void strip_cr(std::string& line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
}

}  // namespace

const std::vector<std::string>& si_units() {
  static const std::vector<std::string> units{
      "1",     "s",     "m",     "kg",    "rad",    "m/s",    "m/s^2",  "rad/s", "rad/s^2",
      "N",     "N*s",   "N*m",   "J",     "W",      "Pa",     "m^2",    "m^3",   "kg/m^3",
      "kg*m^2", "kg*m/s", "kg*m^2/s", "Hz"};
  return units;
}

std::string csv_header(const std::vector<CsvColumn>& columns) {
  std::string header;
  for (const auto& c : columns) header += (header.empty() ? "" : ",") + c.name + "[" + c.unit + "]";
  return header;
}

CsvLogWriter::CsvLogWriter(const std::filesystem::path& file, std::vector<CsvColumn> columns,
                           bool append)
    : file_(file), columns_(std::move(columns)) {
  if (auto problem = check_columns(columns_); !problem.empty())
    throw FileError(file_, "cannot write: " + problem);
  std::string header = csv_header(columns_);
  std::error_code ec;
  if (append && std::filesystem::exists(file_, ec)) {
    std::ifstream in(file_);
    std::string first;
    std::getline(in, first);
    strip_cr(first);
    if (first != header)
      throw FileError(file_, "cannot append: its header '" + first + "' differs from '" + header +
                                 "'");
    out_ = std::fopen(file_.c_str(), "a");
    if (!out_) throw FileError(file_, "cannot open for appending");
    return;
  }
  out_ = std::fopen(file_.c_str(), "w");
  if (!out_) throw FileError(file_, "cannot create (does its folder exist?)");
  header += '\n';
  if (std::fputs(header.c_str(), out_) < 0 || std::fflush(out_) != 0)
    throw FileError(file_, "cannot write the header");
}

CsvLogWriter::~CsvLogWriter() {
  if (out_) std::fclose(out_);
}

void CsvLogWriter::write_row(std::span<const double> values) {
  if (values.size() != columns_.size())
    throw FileError(file_, "a row needs " + std::to_string(columns_.size()) + " values, got " +
                               std::to_string(values.size()));
  std::string line;
  char buf[32];
  for (size_t i = 0; i < values.size(); ++i) {
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, values[i]);
    if (i) line += ',';
    line.append(buf, end);
  }
  line += '\n';
  if (std::fwrite(line.data(), 1, line.size(), out_) != line.size() || std::fflush(out_) != 0)
    throw FileError(file_, "cannot write a row (disk full?)");
}

size_t CsvTable::column(const std::string& name) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i].name == name) return i;
  throw std::out_of_range("no column named '" + name + "'");
}

CsvTable read_csv_log(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw FileError(file, "cannot open: no such file or not readable");
  std::string line;
  if (!std::getline(in, line)) throw FileError(file, "empty file: expected a header line");
  strip_cr(line);
  CsvTable table;
  table.columns = parse_header(file, line);
  int line_number = 1;
  while (std::getline(in, line)) {
    ++line_number;
    strip_cr(line);
    if (line.empty()) continue;
    auto cells = split(line);
    if (cells.size() != table.columns.size())
      throw FileError(file, "expected " + std::to_string(table.columns.size()) + " values, got " +
                                std::to_string(cells.size()), line_number);
    std::vector<double> row(cells.size());
    for (size_t i = 0; i < cells.size(); ++i) {
      const auto& cell = cells[i];
      auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), row[i]);
      if (ec != std::errc() || end != cell.data() + cell.size() || cell.empty())
        throw FileError(file, "column " + table.columns[i].name + ": '" + cell +
                                  "' is not a number", line_number);
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace scree::formats
