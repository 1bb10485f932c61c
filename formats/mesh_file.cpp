#include "formats/mesh_file.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "formats/error.h"

namespace scree::formats {

namespace {

// Merges identical vertices as triangles come in.
class MeshBuilder {
 public:
  explicit MeshBuilder(const std::filesystem::path& file) : file_(file) {}

  std::uint32_t vertex(const std::array<double, 3>& v, int line = 0) {
    for (double c : v)
      if (!std::isfinite(c)) throw FileError(file_, "vertex coordinate is not finite", line);
    auto [it, added] = index_.try_emplace(v, std::uint32_t(mesh_.vertices.size()));
    if (added) mesh_.vertices.push_back(v);
    return it->second;
  }
  void triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c) { mesh_.triangles.push_back({a, b, c}); }
  TriangleMesh finish() {
    if (mesh_.triangles.empty()) throw FileError(file_, "holds no triangles");
    return std::move(mesh_);
  }

 private:
  std::filesystem::path file_;
  TriangleMesh mesh_;
  std::map<std::array<double, 3>, std::uint32_t> index_;
};

TriangleMesh read_binary_stl(const std::filesystem::path& file, const std::string& bytes,
                             std::uint32_t count) {
  MeshBuilder mesh(file);
  for (std::uint32_t t = 0; t < count; ++t) {
    const char* record = bytes.data() + 84 + 50 * std::size_t(t) + 12;  // skip the normal
    std::array<std::uint32_t, 3> ids;
    for (int v = 0; v < 3; ++v) {
      float xyz[3];
      std::memcpy(xyz, record + 12 * v, 12);
      ids[v] = mesh.vertex({xyz[0], xyz[1], xyz[2]});
    }
    mesh.triangle(ids[0], ids[1], ids[2]);
  }
  return mesh.finish();
}

TriangleMesh read_ascii_stl(const std::filesystem::path& file, const std::string& text) {
  MeshBuilder mesh(file);
  std::istringstream in(text);
  std::string line;
  int number = 0, in_facet = 0;
  std::vector<std::uint32_t> loop;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    if (word == "facet") {
      if (in_facet) throw FileError(file, "'facet' inside a facet", number);
      in_facet = number;
      loop.clear();
    } else if (word == "vertex") {
      std::array<double, 3> v;
      if (!(words >> v[0] >> v[1] >> v[2]))
        throw FileError(file, "a vertex needs three numbers", number);
      if (!in_facet) throw FileError(file, "'vertex' outside a facet", number);
      loop.push_back(mesh.vertex(v, number));
    } else if (word == "endfacet") {
      if (loop.size() != 3)
        throw FileError(file, "a facet needs 3 vertices, got " + std::to_string(loop.size()), number);
      mesh.triangle(loop[0], loop[1], loop[2]);
      in_facet = 0;
    } else if (word != "solid" && word != "endsolid" && word != "outer" && word != "endloop") {
      throw FileError(file, "unexpected '" + word + "' in an ASCII STL", number);
    }
  }
  if (in_facet) throw FileError(file, "truncated: the facet opened here never ends", in_facet);
  return mesh.finish();
}

// OBJ: "v x y z" and "f a b c ..." (1-based or negative indices, "a/t/n" forms); polygons
// are split into fans; every other statement is ignored.
TriangleMesh read_obj(const std::filesystem::path& file, const std::string& text) {
  MeshBuilder mesh(file);
  std::vector<std::uint32_t> ids;  // OBJ index - 1 → merged vertex
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    if (word == "v") {
      std::array<double, 3> v;
      if (!(words >> v[0] >> v[1] >> v[2])) throw FileError(file, "a vertex needs three numbers", number);
      ids.push_back(mesh.vertex(v, number));
    } else if (word == "f") {
      std::vector<std::uint32_t> face;
      while (words >> word) {
        long i = std::strtol(word.c_str(), nullptr, 10);
        long resolved = i < 0 ? long(ids.size()) + i : i - 1;
        if (i == 0 || resolved < 0 || resolved >= long(ids.size()))
          throw FileError(file, "face refers to vertex " + word + " of " + std::to_string(ids.size()), number);
        face.push_back(ids[std::size_t(resolved)]);
      }
      if (face.size() < 3) throw FileError(file, "a face needs at least 3 vertices", number);
      for (std::size_t k = 1; k + 1 < face.size(); ++k) mesh.triangle(face[0], face[k], face[k + 1]);
    }
  }
  return mesh.finish();
}

}  // namespace

TriangleMesh read_mesh(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw FileError(file, "cannot open: " + std::string(std::strerror(errno)));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty()) throw FileError(file, "is empty");
  std::string extension = file.extension().string();
  for (auto& c : extension) c = char(std::tolower(c));
  if (extension == ".obj") return read_obj(file, bytes);

  if (bytes.size() >= 84) {
    std::uint32_t count;
    std::memcpy(&count, bytes.data() + 80, 4);
    if (bytes.size() == 84 + 50 * std::uint64_t(count)) return read_binary_stl(file, bytes, count);
  }
  bool ascii = bytes.compare(0, 5, "solid") == 0 && bytes.find("facet", 5) != std::string::npos;
  if (ascii) return read_ascii_stl(file, bytes);
  if (bytes.size() >= 84) {
    std::uint32_t count;
    std::memcpy(&count, bytes.data() + 80, 4);
    std::uint64_t needed = 84 + 50 * std::uint64_t(count);
    if (bytes.size() < needed && needed < 64 * std::uint64_t(bytes.size()))
      throw FileError(file, "truncated binary STL: the header announces " + std::to_string(count) +
                                " triangles (" + std::to_string(needed) + " bytes) but the file has " +
                                std::to_string(bytes.size()) + " bytes");
    if (bytes.size() > needed)
      throw FileError(file, "binary STL of " + std::to_string(bytes.size()) + " bytes where " +
                                std::to_string(count) + " triangles need " + std::to_string(needed));
  }
  throw FileError(file, "is neither an ASCII nor a binary STL (" + std::to_string(bytes.size()) +
                            " bytes)");
}

}  // namespace scree::formats
