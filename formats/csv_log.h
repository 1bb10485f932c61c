#pragma once
// CSV logs: one header line of "name[unit]" columns (SI units), then one row of numbers per
// line; specified in docs/formats.md.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace scree::formats {

struct CsvColumn {
  std::string name;  // lower case letters, digits and '_'
  std::string unit;  // an SI unit from si_units(), "1" for dimensionless numbers and counts
  bool operator==(const CsvColumn&) const = default;
};

const std::vector<std::string>& si_units();

class CsvLogWriter {
 public:
  // Creates `file` with its header (replacing an old one), or with `append` continues a file
  // whose header is the same (a restart). Throws FileError; creates nothing for bad columns.
  CsvLogWriter(const std::filesystem::path& file, std::vector<CsvColumn> columns,
               bool append = false);
  ~CsvLogWriter();
  CsvLogWriter(const CsvLogWriter&) = delete;
  CsvLogWriter& operator=(const CsvLogWriter&) = delete;

  // Writes one whole row (shortest text that reads back to the same double) and flushes it,
  // so a crash never leaves half a row.
  void write_row(std::span<const double> values);
  const std::vector<CsvColumn>& columns() const { return columns_; }

 private:
  std::filesystem::path file_;
  std::vector<CsvColumn> columns_;
  std::FILE* out_ = nullptr;
};

struct CsvTable {
  std::vector<CsvColumn> columns;
  std::vector<std::vector<double>> rows;
  // Index of the column called `name`; throws std::out_of_range.
  size_t column(const std::string& name) const;
};

CsvTable read_csv_log(const std::filesystem::path& file);

std::string csv_header(const std::vector<CsvColumn>& columns);

}  // namespace scree::formats
