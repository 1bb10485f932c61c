#include "formats/hdf5_io.h"

#include <cstring>

#include "formats/error.h"

namespace scree::formats::h5 {

namespace {

void close_id(hid_t id) {
  if (id < 0) return;
  switch (H5Iget_type(id)) {
    case H5I_FILE:
      // The library keeps what the file's reads and writes freed in lists of its own; let go
      // with the file, it is about 1.5 MB a process for the rest of a run (on every rank of a
      // run that read a state, docs/parallel.md, "Memory").
      H5Fclose(id);
      H5garbage_collect();
      break;
    case H5I_GROUP: H5Gclose(id); break;
    case H5I_DATASET: H5Dclose(id); break;
    case H5I_DATASPACE: H5Sclose(id); break;
    case H5I_DATATYPE: H5Tclose(id); break;
    case H5I_ATTR: H5Aclose(id); break;
    case H5I_GENPROP_LST: H5Pclose(id); break;
    default: break;
  }
}

[[noreturn]] void fail(const Location& at, const std::string& object, const std::string& what) {
  throw FileError(at.file, object + ": " + what);
}

Handle check(const Location& at, const std::string& object, hid_t id, const char* what) {
  if (id < 0) fail(at, object, what);
  return Handle(id);
}

// Memory type and the class a stored type must have for each element type.
template <class T> hid_t memory_type();
template <> hid_t memory_type<double>() { return H5T_NATIVE_DOUBLE; }
template <> hid_t memory_type<std::uint64_t>() { return H5T_NATIVE_UINT64; }
template <> hid_t memory_type<std::int64_t>() { return H5T_NATIVE_INT64; }
template <> hid_t memory_type<std::uint32_t>() { return H5T_NATIVE_UINT32; }
template <> hid_t memory_type<std::int32_t>() { return H5T_NATIVE_INT32; }
template <> hid_t memory_type<std::uint8_t>() { return H5T_NATIVE_UINT8; }

// The little-endian file type written for each element type.
template <class T> hid_t file_type();
template <> hid_t file_type<double>() { return H5T_IEEE_F64LE; }
template <> hid_t file_type<std::uint64_t>() { return H5T_STD_U64LE; }
template <> hid_t file_type<std::int64_t>() { return H5T_STD_I64LE; }
template <> hid_t file_type<std::uint32_t>() { return H5T_STD_U32LE; }
template <> hid_t file_type<std::int32_t>() { return H5T_STD_I32LE; }
template <> hid_t file_type<std::uint8_t>() { return H5T_STD_U8LE; }

template <class T> H5T_class_t type_class() {
  return std::is_floating_point_v<T> ? H5T_FLOAT : H5T_INTEGER;
}

Handle vlen_string_type() {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return Handle(t);
}

Handle open_attribute(const Location& at, const std::string& name) {
  if (!has_attribute(at, name)) fail(at, at.name, "missing attribute '" + name + "'");
  return check(at, at.name, H5Aopen(at.id, name.c_str(), H5P_DEFAULT),
               "cannot open attribute");
}

template <class T>
void write_scalar_attribute(const Location& at, const std::string& name, T value) {
  Handle space(H5Screate(H5S_SCALAR));
  Handle attr = check(at, at.name,
                      H5Acreate2(at.id, name.c_str(), file_type<T>(), space.get(), H5P_DEFAULT,
                                 H5P_DEFAULT),
                      "cannot create attribute");
  if (H5Awrite(attr.get(), memory_type<T>(), &value) < 0)
    fail(at, at.name, "cannot write attribute '" + name + "'");
}

template <class T>
T read_scalar_attribute(const Location& at, const std::string& name) {
  Handle attr = open_attribute(at, name);
  Handle type(H5Aget_type(attr.get()));
  Handle space(H5Aget_space(attr.get()));
  if (H5Tget_class(type.get()) != type_class<T>() || H5Sget_simple_extent_npoints(space.get()) != 1)
    fail(at, at.name, "attribute '" + name + "' must be a single " +
                          (type_class<T>() == H5T_FLOAT ? "number" : "integer"));
  T value{};
  if (H5Aread(attr.get(), memory_type<T>(), &value) < 0)
    fail(at, at.name, "cannot read attribute '" + name + "'");
  return value;
}

// Reads strings stored either variable length (scree, h5py's str) or fixed length (numpy S).
std::vector<std::string> read_string_values(const Location& at, const std::string& object,
                                            hid_t obj, hid_t space, bool is_attribute) {
  Handle type(is_attribute ? H5Aget_type(obj) : H5Dget_type(obj));
  if (H5Tget_class(type.get()) != H5T_STRING) fail(at, object, "expected text");
  hssize_t n = H5Sget_simple_extent_npoints(space);
  std::vector<std::string> out(size_t(n > 0 ? n : 0));
  if (out.empty()) return out;
  if (H5Tis_variable_str(type.get()) > 0) {
    Handle mem = vlen_string_type();
    std::vector<char*> ptrs(out.size(), nullptr);
    herr_t rc = is_attribute ? H5Aread(obj, mem.get(), ptrs.data())
                             : H5Dread(obj, mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data());
    if (rc < 0) fail(at, object, "cannot read text");
    for (size_t i = 0; i < out.size(); ++i) out[i] = ptrs[i] ? ptrs[i] : "";
    H5Dvlen_reclaim(mem.get(), space, H5P_DEFAULT, ptrs.data());
  } else {
    size_t size = H5Tget_size(type.get());
    Handle mem(H5Tcopy(H5T_C_S1));
    H5Tset_size(mem.get(), size);
    std::vector<char> buf(size * out.size());
    herr_t rc = is_attribute ? H5Aread(obj, mem.get(), buf.data())
                             : H5Dread(obj, mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data());
    if (rc < 0) fail(at, object, "cannot read text");
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = std::string(buf.data() + i * size, strnlen(buf.data() + i * size, size));
  }
  return out;
}

}  // namespace

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    close_id(id_);
    id_ = o.id_;
    o.id_ = -1;
  }
  return *this;
}

Handle::~Handle() { close_id(id_); }

void silence_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

Handle create_file(const std::filesystem::path& path) {
  silence_errors();
  hid_t id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (id < 0) throw FileError(path, "cannot create HDF5 file");
  return Handle(id);
}

Handle open_file(const std::filesystem::path& path) {
  silence_errors();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw FileError(path, "cannot open: no such file");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw FileError(path, "not an HDF5 file");
  hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw FileError(path, "cannot open HDF5 file (truncated or corrupt?)");
  return Handle(id);
}

Handle create_group(const Location& at, const std::string& name) {
  return check(at, at.child(name),
               H5Gcreate2(at.id, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
               "cannot create group");
}

Handle open_group(const Location& at, const std::string& name) {
  if (!exists(at, name)) fail(at, at.child(name), "missing group");
  return check(at, at.child(name), H5Gopen2(at.id, name.c_str(), H5P_DEFAULT),
               "cannot open group");
}

bool exists(const Location& at, const std::string& name) {
  return H5Lexists(at.id, name.c_str(), H5P_DEFAULT) > 0;
}

std::vector<std::string> children(const Location& at) {
  std::vector<std::string> names;
  H5Literate(
      at.id, H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->push_back(name);
        return 0;
      },
      &names);
  return names;
}

bool has_attribute(const Location& at, const std::string& name) {
  return H5Aexists(at.id, name.c_str()) > 0;
}

void write_attribute(const Location& at, const std::string& name, const std::string& value) {
  Handle type = vlen_string_type();
  Handle space(H5Screate(H5S_SCALAR));
  Handle attr = check(at, at.name,
                      H5Acreate2(at.id, name.c_str(), type.get(), space.get(), H5P_DEFAULT,
                                 H5P_DEFAULT),
                      "cannot create attribute");
  const char* text = value.c_str();
  if (H5Awrite(attr.get(), type.get(), &text) < 0)
    fail(at, at.name, "cannot write attribute '" + name + "'");
}

void write_attribute(const Location& at, const std::string& name, double value) {
  write_scalar_attribute(at, name, value);
}

void write_attribute(const Location& at, const std::string& name, std::int64_t value) {
  write_scalar_attribute(at, name, value);
}

std::string read_string_attribute(const Location& at, const std::string& name) {
  Handle attr = open_attribute(at, name);
  Handle space(H5Aget_space(attr.get()));
  auto values = read_string_values(at, at.name + " attribute '" + name + "'", attr.get(),
                                   space.get(), true);
  if (values.size() != 1) fail(at, at.name, "attribute '" + name + "' must be one text value");
  return values[0];
}

double read_double_attribute(const Location& at, const std::string& name) {
  return read_scalar_attribute<double>(at, name);
}

std::int64_t read_int_attribute(const Location& at, const std::string& name) {
  return read_scalar_attribute<std::int64_t>(at, name);
}

namespace {

// A selection of rows [first, first + rows) of a dataset of `columns` columns, in the file and
// in memory.
struct RowSelection {
  Handle file_space, memory_space;
};

RowSelection select_rows(const Location& at, const std::string& object, hid_t set, size_t first, size_t rows,
                         size_t columns) {
  Handle space = check(at, object, H5Dget_space(set), "cannot read dataspace");
  hsize_t dims[2] = {0, 0};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  if (first + rows > dims[0])
    fail(at, object, "rows " + std::to_string(first) + " to " + std::to_string(first + rows) + " of " +
                         std::to_string(dims[0]));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  const hsize_t start[2] = {hsize_t(first), 0}, count[2] = {hsize_t(rows), hsize_t(columns)};
  if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr) < 0)
    fail(at, object, "cannot select rows");
  Handle memory = check(at, object, H5Screate_simple(rank, count, nullptr), "cannot create dataspace");
  return {std::move(space), std::move(memory)};
}

}  // namespace

template <class T>
void create_rows(const Location& at, const std::string& name, size_t rows, size_t columns) {
  const std::string object = at.child(name);
  const hsize_t dims[2] = {hsize_t(rows), hsize_t(columns)};
  Handle space = check(at, object, H5Screate_simple(columns == 1 ? 1 : 2, dims, nullptr), "cannot create dataspace");
  check(at, object, H5Dcreate2(at.id, name.c_str(), file_type<T>(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        "cannot create dataset");
}

template <class T>
void write_rows(const Location& at, const std::string& name, size_t first, const T* data, size_t rows, size_t columns) {
  if (rows == 0) return;
  const std::string object = at.child(name);
  Handle set = check(at, object, H5Dopen2(at.id, name.c_str(), H5P_DEFAULT), "cannot open dataset");
  const RowSelection selected = select_rows(at, object, set.get(), first, rows, columns);
  if (H5Dwrite(set.get(), memory_type<T>(), selected.memory_space.get(), selected.file_space.get(), H5P_DEFAULT, data) < 0)
    fail(at, object, "cannot write dataset");
}

// Opens a dataset and checks its rank, column count and element class; returns its rows.
template <class T>
size_t count_rows(const Location& at, const std::string& name, size_t columns) {
  const std::string object = at.child(name);
  if (!exists(at, name)) fail(at, object, "missing dataset");
  Handle set = check(at, object, H5Dopen2(at.id, name.c_str(), H5P_DEFAULT), "cannot open dataset");
  Handle space = check(at, object, H5Dget_space(set.get()), "cannot read dataspace");
  Handle type = check(at, object, H5Dget_type(set.get()), "cannot read datatype");
  if (H5Tget_class(type.get()) != type_class<T>())
    fail(at, object, std::string("expected ") +
                         (type_class<T>() == H5T_FLOAT ? "floating-point" : "integer") + " values");
  const int rank = H5Sget_simple_extent_ndims(space.get());
  hsize_t dims[2] = {0, 0};
  if (rank < 1 || rank > 2) fail(at, object, "expected a 1-D or 2-D dataset");
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  const size_t cols = rank == 2 ? size_t(dims[1]) : 1;
  if ((columns == 1 && rank != 1) || (columns > 1 && (rank != 2 || cols != columns)))
    fail(at, object, columns == 1 ? "expected shape (n)"
                                  : "expected shape (n, " + std::to_string(columns) + ")");
  return size_t(dims[0]);
}

template <class T>
void read_rows(const Location& at, const std::string& name, size_t first, size_t rows, size_t columns, T* out) {
  const std::string object = at.child(name);
  if (rows == 0) return;
  Handle set = check(at, object, H5Dopen2(at.id, name.c_str(), H5P_DEFAULT), "cannot open dataset");
  const RowSelection selected = select_rows(at, object, set.get(), first, rows, columns);
  if (H5Dread(set.get(), memory_type<T>(), selected.memory_space.get(), selected.file_space.get(), H5P_DEFAULT, out) < 0)
    fail(at, object, "cannot read dataset (truncated or corrupt file?)");
}

template <class T>
void write_dataset(const Location& at, const std::string& name, const std::vector<T>& data) {
  create_rows_like(at, name, data.size(), data);
  write_block(at, name, 0, data);
}

template <class T, size_t C>
void write_dataset(const Location& at, const std::string& name,
                   const std::vector<std::array<T, C>>& data) {
  create_rows_like(at, name, data.size(), data);
  write_block(at, name, 0, data);
}

template <class T>
std::vector<T> read_dataset(const Location& at, const std::string& name) {
  std::vector<T> out;
  read_block(at, name, 0, count_rows<T>(at, name, 1), out);
  return out;
}

template <class T, size_t C>
std::vector<std::array<T, C>> read_dataset_rows(const Location& at, const std::string& name) {
  std::vector<std::array<T, C>> out;
  read_block(at, name, 0, count_rows<T>(at, name, C), out);
  return out;
}

void write_strings(const Location& at, const std::string& name,
                   const std::vector<std::string>& values) {
  std::string object = at.child(name);
  Handle type = vlen_string_type();
  hsize_t n = values.size();
  Handle space(H5Screate_simple(1, &n, nullptr));
  Handle set = check(at, object,
                     H5Dcreate2(at.id, name.c_str(), type.get(), space.get(), H5P_DEFAULT,
                                H5P_DEFAULT, H5P_DEFAULT),
                     "cannot create dataset");
  std::vector<const char*> ptrs;
  for (const auto& v : values) ptrs.push_back(v.c_str());
  if (!ptrs.empty() &&
      H5Dwrite(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()) < 0)
    fail(at, object, "cannot write dataset");
}

std::vector<std::string> read_strings(const Location& at, const std::string& name) {
  std::string object = at.child(name);
  if (!exists(at, name)) fail(at, object, "missing dataset");
  Handle set = check(at, object, H5Dopen2(at.id, name.c_str(), H5P_DEFAULT), "cannot open dataset");
  Handle space(H5Dget_space(set.get()));
  if (H5Sget_simple_extent_ndims(space.get()) != 1) fail(at, object, "expected shape (n)");
  return read_string_values(at, object, set.get(), space.get(), false);
}

#define SCREE_H5_INSTANTIATE(T)                                                             \
  template void write_dataset<T>(const Location&, const std::string&, const std::vector<T>&); \
  template std::vector<T> read_dataset<T>(const Location&, const std::string&);              \
  template void create_rows<T>(const Location&, const std::string&, size_t, size_t);          \
  template void write_rows<T>(const Location&, const std::string&, size_t, const T*, size_t, size_t); \
  template size_t count_rows<T>(const Location&, const std::string&, size_t);                 \
  template void read_rows<T>(const Location&, const std::string&, size_t, size_t, size_t, T*);
SCREE_H5_INSTANTIATE(double)
SCREE_H5_INSTANTIATE(std::uint64_t)
SCREE_H5_INSTANTIATE(std::uint32_t)
SCREE_H5_INSTANTIATE(std::int32_t)
SCREE_H5_INSTANTIATE(std::uint8_t)
#undef SCREE_H5_INSTANTIATE
template void write_dataset<double, 3>(const Location&, const std::string&,
                                       const std::vector<std::array<double, 3>>&);
template void write_dataset<double, 4>(const Location&, const std::string&,
                                       const std::vector<std::array<double, 4>>&);
template void write_dataset<std::uint32_t, 2>(const Location&, const std::string&,
                                              const std::vector<std::array<std::uint32_t, 2>>&);
template std::vector<std::array<double, 3>> read_dataset_rows<double, 3>(const Location&,
                                                                         const std::string&);
template std::vector<std::array<double, 4>> read_dataset_rows<double, 4>(const Location&,
                                                                         const std::string&);
template std::vector<std::array<std::uint32_t, 2>> read_dataset_rows<std::uint32_t, 2>(
    const Location&, const std::string&);

}  // namespace scree::formats::h5
