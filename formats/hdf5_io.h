#pragma once
// A thin RAII layer over the HDF5 C API, internal to scree_formats. Every failure throws
// FileError naming the file and the object.
#include <hdf5.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace scree::formats::h5 {

// Owns one HDF5 identifier (file, group, dataset, dataspace, datatype or attribute).
class Handle {
 public:
  Handle() = default;
  explicit Handle(hid_t id) : id_(id) {}
  Handle(Handle&& o) noexcept : id_(o.id_) { o.id_ = -1; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle();
  hid_t get() const { return id_; }
  explicit operator bool() const { return id_ >= 0; }

 private:
  hid_t id_ = -1;
};

// A location (file or group) with the path of its file, for error messages.
struct Location {
  std::filesystem::path file;
  hid_t id;
  std::string name;  // HDF5 path of this location, e.g. "/bodies"
  std::string child(const std::string& n) const { return (name == "/" ? "/" : name + "/") + n; }
};

Handle create_file(const std::filesystem::path& path);
Handle open_file(const std::filesystem::path& path);  // refuses files that are not HDF5
Handle create_group(const Location& at, const std::string& name);
Handle open_group(const Location& at, const std::string& name);  // fails if missing
bool exists(const Location& at, const std::string& name);
std::vector<std::string> children(const Location& at);  // names of members, in name order

// Attributes: scalars and strings.
void write_attribute(const Location& at, const std::string& name, const std::string& value);
void write_attribute(const Location& at, const std::string& name, double value);
void write_attribute(const Location& at, const std::string& name, std::int64_t value);
std::string read_string_attribute(const Location& at, const std::string& name);
double read_double_attribute(const Location& at, const std::string& name);
std::int64_t read_int_attribute(const Location& at, const std::string& name);
bool has_attribute(const Location& at, const std::string& name);

// Datasets of shape (n) or (n, columns), stored row major.
template <class T>
void write_dataset(const Location& at, const std::string& name, const std::vector<T>& data);
template <class T, size_t C>
void write_dataset(const Location& at, const std::string& name,
                   const std::vector<std::array<T, C>>& data);
template <class T>
std::vector<T> read_dataset(const Location& at, const std::string& name);
template <class T, size_t C>
std::vector<std::array<T, C>> read_dataset_rows(const Location& at, const std::string& name);

// Reads into `out`, choosing the shape from its type; lets one field list serve both ways.
template <class T>
void read_into(const Location& at, const std::string& name, std::vector<T>& out) {
  out = read_dataset<T>(at, name);
}
template <class T, size_t C>
void read_into(const Location& at, const std::string& name, std::vector<std::array<T, C>>& out) {
  out = read_dataset_rows<T, C>(at, name);
}

// Datasets written and read a block of rows at a time (a state's grains from many ranks,
// docs/parallel.md): created with all their rows of `columns` values, then filled block by
// block; count_rows checks a dataset as read_dataset does and gives its rows, and read_rows
// reads a dataset count_rows has checked (one opening fewer a block: a frame of 1000 grains
// took half as long again to read with it).
template <class T>
void create_rows(const Location& at, const std::string& name, size_t rows, size_t columns);
template <class T>
void write_rows(const Location& at, const std::string& name, size_t first, const T* data, size_t rows, size_t columns);
template <class T>
size_t count_rows(const Location& at, const std::string& name, size_t columns);
template <class T>
void read_rows(const Location& at, const std::string& name, size_t first, size_t rows, size_t columns, T* out);

// The same, with the shape taken from the vector's type, so that one field list serves all.
template <class T>
void create_rows_like(const Location& at, const std::string& name, size_t rows, const std::vector<T>&) {
  create_rows<T>(at, name, rows, 1);
}
template <class T, size_t C>
void create_rows_like(const Location& at, const std::string& name, size_t rows, const std::vector<std::array<T, C>>&) {
  create_rows<T>(at, name, rows, C);
}
template <class T>
void write_block(const Location& at, const std::string& name, size_t first, const std::vector<T>& data) {
  write_rows<T>(at, name, first, data.data(), data.size(), 1);
}
template <class T, size_t C>
void write_block(const Location& at, const std::string& name, size_t first, const std::vector<std::array<T, C>>& data) {
  write_rows<T>(at, name, first, data.empty() ? nullptr : data[0].data(), data.size(), C);
}
template <class T>
size_t count_rows_like(const Location& at, const std::string& name, const std::vector<T>&) {
  return count_rows<T>(at, name, 1);
}
template <class T, size_t C>
size_t count_rows_like(const Location& at, const std::string& name, const std::vector<std::array<T, C>>&) {
  return count_rows<T>(at, name, C);
}
template <class T>
void read_block(const Location& at, const std::string& name, size_t first, size_t rows, std::vector<T>& out) {
  out.resize(rows);
  read_rows<T>(at, name, first, rows, 1, out.data());
}
template <class T, size_t C>
void read_block(const Location& at, const std::string& name, size_t first, size_t rows, std::vector<std::array<T, C>>& out) {
  out.resize(rows);
  read_rows<T>(at, name, first, rows, C, rows > 0 ? out[0].data() : nullptr);
}

void write_strings(const Location& at, const std::string& name,
                   const std::vector<std::string>& values);
std::vector<std::string> read_strings(const Location& at, const std::string& name);

// Switches off HDF5's own printing of error stacks; scree reports errors itself.
void silence_errors();

}  // namespace scree::formats::h5
