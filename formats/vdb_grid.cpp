#include "formats/vdb_grid.h"

#include <blosc.h>
#include <zlib.h>

#include <bit>
#include <cstring>
#include <fstream>

#include "formats/error.h"

namespace scree::formats {

namespace {

// Per level (0: leaf, 1: lower internal node, 2: upper internal node): log2 of the entries
// along an axis, and log2 of the voxels along an axis of one entry.
constexpr int log2_entries[3] = {3, 4, 5};
constexpr int log2_entry_extent[3] = {0, 3, 7};
constexpr int log2_root_extent = 12;

int extent_log2(int level) { return log2_entries[level] + log2_entry_extent[level]; }
int entry_count(int level) { return 1 << (3 * log2_entries[level]); }

VoxelCoord node_origin(int level, const VoxelCoord& ijk) {
  const int mask = ~((1 << extent_log2(level)) - 1);
  return {ijk[0] & mask, ijk[1] & mask, ijk[2] & mask};
}

VoxelCoord root_origin(const VoxelCoord& ijk) {
  const int mask = ~((1 << log2_root_extent) - 1);
  return {ijk[0] & mask, ijk[1] & mask, ijk[2] & mask};
}

// OpenVDB's order of entries: x slowest, z fastest.
int entry_of(int level, const VoxelCoord& ijk) {
  const int n = log2_entries[level], e = log2_entry_extent[level], m = (1 << extent_log2(level)) - 1;
  return (((ijk[0] & m) >> e) << (2 * n)) | (((ijk[1] & m) >> e) << n) | ((ijk[2] & m) >> e);
}

VoxelCoord entry_origin(int level, const VoxelCoord& origin, int entry) {
  const int n = log2_entries[level], e = log2_entry_extent[level], m = (1 << n) - 1;
  return {origin[0] + (((entry >> (2 * n)) & m) << e), origin[1] + (((entry >> n) & m) << e),
          origin[2] + ((entry & m) << e)};
}

bool bit(const std::vector<std::uint64_t>& words, int i) { return (words[i >> 6] >> (i & 63)) & 1; }
void set_bit(std::vector<std::uint64_t>& words, int i, bool on) {
  if (on)
    words[i >> 6] |= std::uint64_t(1) << (i & 63);
  else
    words[i >> 6] &= ~(std::uint64_t(1) << (i & 63));
}

}  // namespace

std::int32_t VdbGrid::child_of(int level, const VoxelCoord& ijk, bool create) {
  const float* fill = nullptr;
  bool fill_active = false;
  std::int32_t* slot = nullptr;
  if (level == 2) {
    const auto it = root_.find(root_origin(ijk));
    if (it != root_.end() && it->second.child >= 0) return it->second.child;
    if (!create) return -1;
    RootEntry& e = root_[root_origin(ijk)];
    if (it == root_.end()) e.value = background;
    fill = e.value.data(), fill_active = e.active, slot = &e.child;
  } else {
    const std::int32_t parent = child_of(level + 1, ijk, create);
    if (parent < 0) return -1;
    Node& p = nodes_[level + 1][parent];
    const int entry = entry_of(level + 1, ijk);
    if (p.child[entry] >= 0 || !create) return p.child[entry];
    fill = &p.values[std::size_t(entry) * components], fill_active = bit(p.active, entry), slot = &p.child[entry];
    set_bit(p.active, entry, false);
  }
  Node n;
  n.origin = node_origin(level, ijk);
  const int count = entry_count(level);
  n.values.resize(std::size_t(count) * components);
  for (int i = 0; i < count; ++i) std::copy(fill, fill + components, &n.values[std::size_t(i) * components]);
  n.active.assign(std::size_t(count) / 64, fill_active ? ~std::uint64_t(0) : 0);
  if (level > 0) n.child.assign(std::size_t(count), -1);
  *slot = std::int32_t(nodes_[level].size());
  nodes_[level].push_back(std::move(n));
  return *slot;
}

void VdbGrid::set_tile(int level, const VoxelCoord& ijk, const float* value, bool active) {
  if (level == 2) {
    RootEntry& e = root_[root_origin(ijk)];
    e.child = -1;
    std::copy(value, value + components, e.value.begin());
    e.active = active;
    return;
  }
  Node& n = nodes_[level + 1][child_of(level + 1, ijk, true)];
  const int entry = entry_of(level + 1, ijk);
  n.child[entry] = -1;  // (a child there would be left unreachable: set tiles before children)
  std::copy(value, value + components, &n.values[std::size_t(entry) * components]);
  set_bit(n.active, entry, active);
}

VdbGrid::LeafRef VdbGrid::leaf(const VoxelCoord& ijk) {
  Node& n = nodes_[0][child_of(0, ijk, true)];
  return {n.values.data(), n.active.data()};
}

VdbGrid::Entry VdbGrid::entry_at(const VoxelCoord& ijk) const {
  const auto it = root_.find(root_origin(ijk));
  if (it == root_.end()) return {background.data(), false};
  std::int32_t index = it->second.child;
  if (index < 0) return {it->second.value.data(), it->second.active};
  for (int level = 2;; --level) {
    const Node& n = nodes_[level][index];
    const int entry = entry_of(level, ijk);
    if (level == 0 || n.child[entry] < 0) return {&n.values[std::size_t(entry) * components], bit(n.active, entry)};
    index = n.child[entry];
  }
}

const float* VdbGrid::value(const VoxelCoord& ijk) const { return entry_at(ijk).value; }
bool VdbGrid::is_active(const VoxelCoord& ijk) const { return entry_at(ijk).active; }

void VdbGrid::visit_node(int level, std::int32_t index,
                         const std::function<void(const VoxelCoord&, int, const float*, bool)>& visit) const {
  const Node& n = nodes_[level][index];
  for (int entry = 0; entry < entry_count(level); ++entry) {
    if (level > 0 && n.child[entry] >= 0)
      visit_node(level - 1, n.child[entry], visit);
    else
      visit(entry_origin(level, n.origin, entry), 1 << log2_entry_extent[level],
            &n.values[std::size_t(entry) * components], bit(n.active, entry));
  }
}

void VdbGrid::visit_entries(const std::function<void(const VoxelCoord&, int, const float*, bool)>& visit) const {
  for (const auto& [origin, e] : root_) {
    if (e.child >= 0)
      visit_node(2, e.child, visit);
    else
      visit(origin, 1 << log2_root_extent, e.value.data(), e.active);
  }
}

void VdbGrid::for_each_active(const std::function<void(const VoxelCoord&, int, const float*)>& visit) const {
  visit_entries([&](const VoxelCoord& first, int edge, const float* v, bool active) {
    if (active) visit(first, edge, v);
  });
}

void VdbGrid::for_each_value(const std::function<void(const VoxelCoord&, const float*)>& visit) const {
  visit_entries([&](const VoxelCoord& first, int, const float* v, bool) { visit(first, v); });
}

std::uint64_t VdbGrid::active_voxel_count() const {
  std::uint64_t count = 0;
  for_each_active([&](const VoxelCoord&, int edge, const float*) { count += std::uint64_t(edge) * edge * edge; });
  return count;
}

std::array<VoxelCoord, 2> VdbGrid::active_box() const {
  std::array<VoxelCoord, 2> box{VoxelCoord{INT32_MAX, INT32_MAX, INT32_MAX}, VoxelCoord{INT32_MIN, INT32_MIN, INT32_MIN}};
  for_each_active([&](const VoxelCoord& first, int edge, const float*) {
    for (int a = 0; a < 3; ++a) {
      box[0][a] = std::min(box[0][a], first[a]);
      box[1][a] = std::max(box[1][a], first[a] + edge - 1);
    }
  });
  return box;
}

// ---- the file ------------------------------------------------------------------------------

namespace {

constexpr std::int64_t vdb_magic = 0x56444220;
constexpr std::uint32_t version_node_mask_compression = 222;  // per-grid compression flags
constexpr std::uint32_t version_grid_instancing = 216;
constexpr std::uint32_t compress_zip = 0x1, compress_active_mask = 0x2, compress_blosc = 0x4;
// Which inactive values a node stores, in OpenVDB's numbering (io/Compression.h).
enum InactiveValues : std::int8_t {
  no_mask_or_inactive_vals,
  no_mask_and_minus_bg,
  no_mask_and_one_inactive_val,
  mask_and_no_inactive_vals,
  mask_and_one_inactive_val,
  mask_and_two_inactive_vals,
  no_mask_and_all_vals
};

class Reader {
 public:
  explicit Reader(const std::filesystem::path& file) : file_(file), in_(file, std::ios::binary) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec) || !in_) throw FileError(file, "cannot open: no such file");
    size_ = std::filesystem::file_size(file, ec);
  }

  [[noreturn]] void refuse(const std::string& why) const {
    throw FileError(file_, "not a readable OpenVDB file (" + why + ")");
  }

  void bytes(void* out, std::size_t n) {
    in_.read(static_cast<char*>(out), std::streamsize(n));
    if (std::size_t(in_.gcount()) != n) refuse("truncated");
  }
  template <class T>
  T pod() {
    T v;
    bytes(&v, sizeof v);
    return v;
  }
  std::string string() {
    const auto n = pod<std::uint32_t>();
    if (n > remaining()) refuse("truncated");
    std::string s(n, '\0');
    bytes(s.data(), n);
    return s;
  }
  void seek(std::int64_t position) {
    if (position < 0 || std::uint64_t(position) > size()) refuse("a grid lies past the end of the file");
    in_.seekg(position);
  }
  std::uint64_t size() const { return size_; }
  std::uint64_t remaining() { return size_ - std::uint64_t(in_.tellg()); }

 private:
  std::filesystem::path file_;
  std::ifstream in_;
  std::uint64_t size_ = 0;
};

std::map<std::string, VdbMetadata> read_metadata(Reader& in) {
  std::map<std::string, VdbMetadata> out;
  const auto count = in.pod<std::uint32_t>();
  for (std::uint32_t i = 0; i < count; ++i) {
    std::string name = in.string();
    VdbMetadata m;
    m.type = in.string();
    m.bytes = in.string();  // a 32-bit size, then the value
    out[name] = std::move(m);
  }
  return out;
}

// The map from index to world as world = A · index + t (OpenVDB's maps act on row vectors).
std::array<double, 16> read_transform(Reader& in) {
  const std::string type = in.string();
  std::array<double, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  auto vec3 = [&] {
    std::array<double, 3> v;
    in.bytes(v.data(), sizeof v);
    return v;
  };
  auto skip_vec3 = [&](int n) {
    for (int i = 0; i < n; ++i) vec3();
  };
  if (type == "AffineMap" || type == "UnitaryMap") {
    std::array<double, 16> row_major;  // world_row = (index_row, 1) · M
    in.bytes(row_major.data(), sizeof row_major);
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) m[4 * r + c] = row_major[4 * c + r];
      m[4 * r + 3] = row_major[12 + r];
    }
  } else if (type == "ScaleMap" || type == "UniformScaleMap") {
    const auto scale = vec3();
    skip_vec3(4);  // voxel size and cached inverses
    for (int a = 0; a < 3; ++a) m[5 * a] = scale[a];
  } else if (type == "ScaleTranslateMap" || type == "UniformScaleTranslateMap") {
    const auto translation = vec3(), scale = vec3();
    skip_vec3(4);
    for (int a = 0; a < 3; ++a) m[5 * a] = scale[a], m[4 * a + 3] = translation[a];
  } else if (type == "TranslationMap") {
    const auto translation = vec3();
    for (int a = 0; a < 3; ++a) m[4 * a + 3] = translation[a];
  } else {
    in.refuse("transform '" + type + "' is not supported");
  }
  return m;
}

class GridReader {
 public:
  GridReader(Reader& in, VdbGrid& grid, std::uint32_t compression)
      : in_(in), grid_(grid), compression_(compression) {}

  void read_tree() {
    if (in_.pod<std::int32_t>() != 1) in_.refuse("multi-buffer trees are not supported");
    in_.bytes(grid_.background.data(), sizeof(float) * grid_.components);
    const auto tiles = in_.pod<std::uint32_t>(), children = in_.pod<std::uint32_t>();
    for (std::uint32_t t = 0; t < tiles; ++t) {
      const auto origin = coord();
      std::array<float, 3> value{};
      in_.bytes(value.data(), sizeof(float) * grid_.components);
      grid_.set_tile(2, origin, value.data(), in_.pod<char>() != 0);
    }
    std::vector<VoxelCoord> leaves;  // in the order their buffers follow
    for (std::uint32_t c = 0; c < children; ++c) read_internal(2, coord(), leaves);
    const int comps = grid_.components;
    std::vector<std::uint64_t> mask(8);
    for (const VoxelCoord& origin : leaves) {
      in_.bytes(mask.data(), 64);  // the value mask again
      const VdbGrid::LeafRef leaf = grid_.leaf(origin);
      read_values(leaf.values, 512, leaf.active, comps);
    }
  }

 private:
  VoxelCoord coord() {
    VoxelCoord c;
    in_.bytes(c.data(), sizeof c);
    return c;
  }

  void read_internal(int level, const VoxelCoord& origin, std::vector<VoxelCoord>& leaves) {
    const int count = entry_count(level), comps = grid_.components;
    std::vector<std::uint64_t> child_mask(std::size_t(count) / 64), value_mask(std::size_t(count) / 64);
    in_.bytes(child_mask.data(), std::size_t(count) / 8);
    in_.bytes(value_mask.data(), std::size_t(count) / 8);
    std::vector<float> values(std::size_t(count) * comps);
    read_values(values.data(), count, value_mask.data(), comps);
    for (int e = 0; e < count; ++e)
      if (!bit(child_mask, e))
        grid_.set_tile(level - 1, entry_origin(level, origin, e), &values[std::size_t(e) * comps], bit(value_mask, e));
    for (int e = 0; e < count; ++e) {
      if (!bit(child_mask, e)) continue;
      const VoxelCoord child = entry_origin(level, origin, e);
      if (level == 1) {
        const VdbGrid::LeafRef leaf = grid_.leaf(child);
        in_.bytes(leaf.active, 64);
        leaves.push_back(child);
      } else {
        read_internal(level - 1, child, leaves);
      }
    }
  }

  // io::readCompressedValues: `count` values of which the file may hold only the active ones,
  // the inactive ones then restored from up to two values and a mask selecting between them.
  void read_values(float* out, int count, const std::uint64_t* active, int comps) {
    const auto is_on = [](const std::uint64_t* words, int i) { return (words[i >> 6] >> (i & 63)) & 1; };
    const auto kind = in_.pod<std::int8_t>();
    if (kind < no_mask_or_inactive_vals || kind > no_mask_and_all_vals) in_.refuse("bad node compression flag");
    std::array<float, 3> inactive1 = grid_.background, inactive0 = grid_.background;
    if (kind != no_mask_or_inactive_vals)
      for (float& v : inactive0) v = -v;
    if (kind == no_mask_and_one_inactive_val || kind == mask_and_one_inactive_val || kind == mask_and_two_inactive_vals)
      in_.bytes(inactive0.data(), sizeof(float) * comps);
    if (kind == mask_and_two_inactive_vals) in_.bytes(inactive1.data(), sizeof(float) * comps);
    std::vector<std::uint64_t> selection(std::size_t(count) / 64, 0);
    if (kind == mask_and_no_inactive_vals || kind == mask_and_one_inactive_val || kind == mask_and_two_inactive_vals)
      in_.bytes(selection.data(), std::size_t(count) / 8);
    int stored = count;
    if ((compression_ & compress_active_mask) && kind != no_mask_and_all_vals) {
      stored = 0;
      for (int w = 0; w < count / 64; ++w) stored += std::popcount(active[w]);
    }
    std::vector<float> packed(std::size_t(stored) * comps);
    read_data(stored == count ? out : packed.data(), std::size_t(stored) * comps * sizeof(float));
    if (stored == count) return;
    for (int i = 0, k = 0; i < count; ++i) {
      const float* v = is_on(active, i)      ? &packed[std::size_t(k++) * comps]
                       : bit(selection, i) ? inactive1.data()
                                           : inactive0.data();
      std::copy(v, v + comps, out + std::size_t(i) * comps);
    }
  }

  // io::readData: raw, or a 64-bit size then zlib or blosc bytes (≤ 0: −size raw bytes).
  void read_data(void* out, std::size_t n) {
    if (!(compression_ & (compress_zip | compress_blosc))) return in_.bytes(out, n);
    const auto size = in_.pod<std::int64_t>();
    if (size <= 0) {
      if (std::uint64_t(-size) != n) in_.refuse("a node holds " + std::to_string(-size) + " bytes, expected " + std::to_string(n));
      return in_.bytes(out, n);
    }
    if (std::uint64_t(size) > in_.remaining()) in_.refuse("truncated");
    std::vector<char> packed(static_cast<std::size_t>(size));
    in_.bytes(packed.data(), packed.size());
    if (compression_ & compress_blosc) {
      std::size_t unpacked = 0, packed_size = 0, block = 0;
      blosc_cbuffer_sizes(packed.data(), &unpacked, &packed_size, &block);
      if (unpacked != n || packed_size != packed.size() ||
          blosc_decompress_ctx(packed.data(), out, n, 1) != int(n))
        in_.refuse("a blosc block does not decompress");
    } else {
      uLongf unpacked = uLongf(n);
      if (uncompress(static_cast<Bytef*>(out), &unpacked, reinterpret_cast<const Bytef*>(packed.data()),
                     uLong(packed.size())) != Z_OK || unpacked != n)
        in_.refuse("a zip block does not decompress");
    }
  }

  Reader& in_;
  VdbGrid& grid_;
  std::uint32_t compression_;
};

}  // namespace

std::vector<VdbGrid> read_vdb_grids(const std::filesystem::path& file) {
  Reader in(file);
  if (in.size() < 8 || in.pod<std::int64_t>() != vdb_magic) in.refuse("no VDB magic number");
  const auto version = in.pod<std::uint32_t>();
  if (version < version_node_mask_compression)
    in.refuse("file format version " + std::to_string(version) + " predates OpenVDB 3");
  in.pod<std::uint32_t>(), in.pod<std::uint32_t>();  // library major, minor
  if (!in.pod<char>()) in.refuse("a stream without grid offsets");
  char uuid[36];
  in.bytes(uuid, sizeof uuid);
  read_metadata(in);  // the file's own

  std::vector<VdbGrid> grids;
  const auto count = in.pod<std::int32_t>();
  for (std::int32_t g = 0; g < count; ++g) {
    VdbGrid grid;
    grid.name = in.string();
    grid.name = grid.name.substr(0, grid.name.find('\x1e'));  // a unique-name suffix
    std::string type = in.string();
    if (type.ends_with("_HalfFloat")) in.refuse("grid '" + grid.name + "' is stored in half floats");
    if (version >= version_grid_instancing && !in.string().empty())
      in.refuse("grid '" + grid.name + "' is an instance of another grid");
    const auto grid_pos = in.pod<std::int64_t>();
    in.pod<std::int64_t>();  // block position
    const auto end_pos = in.pod<std::int64_t>();
    if (type == "Tree_float_5_4_3" || type == "Tree_vec3s_5_4_3") {
      grid.components = type == "Tree_float_5_4_3" ? 1 : 3;
      in.seek(grid_pos);
      const auto compression = in.pod<std::uint32_t>();
      grid.metadata = read_metadata(in);
      if (auto it = grid.metadata.find("class"); it != grid.metadata.end() && it->second.type == "string")
        grid.grid_class = it->second.bytes;
      grid.index_to_world = read_transform(in);
      GridReader(in, grid, compression).read_tree();
      grids.push_back(std::move(grid));
    }
    in.seek(end_pos);
  }
  return grids;
}

}  // namespace scree::formats
